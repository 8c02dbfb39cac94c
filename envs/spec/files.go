package spec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// projectFile checks that rel (as written at node n under key) names an
// existing regular file inside the project, and returns its absolute path.
func (d *decoder) projectFile(n *yaml.Node, key, rel string) (string, bool) {
	return d.projectPath(n, key, rel, false)
}

// projectPath is projectFile; with mayBeMissing a file that does not exist
// (yet) is accepted, for files only needed when containers start.
func (d *decoder) projectPath(n *yaml.Node, key, rel string, mayBeMissing bool) (string, bool) {
	abs := rel
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(d.dir, rel)
	}
	abs = filepath.Clean(abs)
	_, within := projpath.Within(d.dir, abs)
	_, inside := projpath.Inside(d.dir, abs)
	d.reads.File(abs) // looked at: its appearance or its content changes the load
	if !within && !inside {
		d.errAt(n, "devenv reads only files inside the project directory, so that every teammate gets the same result; copy the file into it", "%s %q is outside the project directory", key, rel)
		return "", false
	}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist) && mayBeMissing:
		return abs, true
	case errors.Is(err, fs.ErrNotExist):
		d.errAt(n, "create it or fix the path; paths are relative to the project directory (where devenv.yaml is)", "%s %q does not exist", key, rel)
		return "", false
	case err != nil:
		d.errAt(n, "check its permissions", "%s %q cannot be read: %v", key, rel, err)
		return "", false
	case key == "mirror" && info.IsDir():
		d.reads.Tree(abs) // listed here, read whole by the mirror
		if !holdsEventLog(abs) {
			d.errAt(n, "name a file, or an eventlog_v2_* directory (events_<n>_<app id> files) or a Databricks eventlog directory", "mirror %q is a directory without event log files", rel)
			return "", false
		}
	case info.IsDir():
		d.errAt(n, "name a file, not a directory", "%s %q is not a regular file", key, rel)
		return "", false
	case !info.Mode().IsRegular():
		d.errAt(n, "devenv reads only regular files (a FIFO or a device would hang or never end); name the file itself", "%s %q is %s, not a regular file", key, rel, safefile.Kind(info.Mode()))
		return "", false
	}
	if !inside {
		real, _ := filepath.EvalSymlinks(abs)
		d.errAt(n, "copy the file into the project instead of linking to it", "%s %q links to %s, outside the project directory", key, rel, real)
		return "", false
	}
	return abs, true
}

// fileList reads a list of project files under key.
func (d *decoder) fileList(f field, key string) []string {
	items, nodes := d.strList(f, key)
	var out []string
	seen := map[string]bool{}
	for i, rel := range items {
		abs, ok := d.projectFile(nodes[i], key, rel)
		if !ok {
			continue
		}
		if seen[abs] {
			d.errAt(nodes[i], "", "%q is listed twice in %s", rel, key)
			continue
		}
		seen[abs] = true
		out = append(out, abs)
	}
	return out
}

// decodeCompose records the compose files and the services they define, so
// that depends_on may name them.
func decodeCompose(d *decoder, l *loader, f field) {
	items, nodes := d.strList(f, "compose")
	seen := map[string]bool{}
	for i, rel := range items {
		abs, ok := d.projectFile(nodes[i], "compose", rel)
		if !ok {
			continue
		}
		if seen[abs] {
			d.errAt(nodes[i], "", "%q is listed twice in compose", rel)
			continue
		}
		seen[abs] = true
		l.p.Compose = append(l.p.Compose, abs)
		names, err := composeServices(abs) // recorded by projectFile

		if err != nil {
			d.errAt(nodes[i], "fix the compose file; devenv reads its top-level services: keys", "cannot read compose file %q: %v", rel, err)
			continue
		}
		for _, n := range names {
			if _, dup := l.compose[n]; !dup {
				l.compose[n] = rel
			}
		}
	}
	l.guardCompose(l.p.Compose)
}

// composeServices returns the names under a compose file's top-level services:.
func composeServices(path string) ([]string, error) {
	data, err := safefile.ReadFile(path, safefile.MaxConfig)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Services yaml.Node `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	n := resolve(&doc.Services)
	if n.Kind == 0 || isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, errors.New("services is not a map")
	}
	var names []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		names = append(names, n.Content[i].Value)
	}
	return names, nil
}

// decodeProfileFiles reads custom profiles from each file in profile_files:.
func decodeProfileFiles(d *decoder, l *loader, f field) {
	for _, abs := range d.fileList(f, "profile_files") {
		l.p.ProfileFiles = append(l.p.ProfileFiles, abs)
		pd := l.decoderFor(abs)
		data, err := safefile.ReadInDir(l.p.Dir, abs, safefile.MaxConfig)
		if err != nil {
			pd.errPos(Pos{}, "check its permissions, and that it is the profile file", "cannot read: %v", err)
			continue
		}
		root := pd.parseYAML(data)
		if root == nil || isNull(root) {
			continue
		}
		l.decodeCustoms(pd, root)
	}
}

// holdsEventLog reports whether dir holds the files of a rolling event log
// (events_<n>_<app id>) or of a Databricks event log directory (eventlog,
// eventlog-<date>); internal/mirror reads them in order.
func holdsEventLog(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && (strings.HasPrefix(n, "events_") || n == "eventlog" || strings.HasPrefix(n, "eventlog-")) {
			return true
		}
	}
	return false
}
