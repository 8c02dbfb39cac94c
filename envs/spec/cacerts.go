package spec

import (
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/devenv-dev/devenv/internal/cafile"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// caFiles reads ca_certs: like any file list, and refuses at load a CA
// file that holds a private key (it would be copied into the image).
func (d *decoder) caFiles(f field) []string {
	files := d.fileList(f, "ca_certs")
	at := map[string]*yaml.Node{}
	for _, n := range f.val.Content {
		if n = resolve(n); n.Kind == yaml.ScalarNode {
			at[filepath.Clean(join(d.dir, n.Value))] = n
		}
	}
	var out []string
	for _, abs := range files {
		data, err := safefile.ReadInDir(d.dir, abs, safefile.MaxConfig)
		if err == nil {
			rel, _ := filepath.Rel(d.dir, abs)
			err = cafile.Check(rel, data)
		}
		if err != nil {
			n := at[abs]
			if n == nil {
				n = f.val
			}
			d.errAt(n, "keep only CA certificates in ca_certs files", "ca_certs: %v", err)
			continue
		}
		out = append(out, abs)
	}
	return out
}
