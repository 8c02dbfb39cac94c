package loader

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/devenv-dev/devenv/internal/readset"
)

// TestFilesRecordWhatComposeGoRead: a Files that records is told every
// host file compose-go read or looked for to make the project (the
// compose file, the .env, env_file, label_file, the Dockerfile, secret
// and config files, bind sources), found by compose-go's own resolution
// of the paths, not listed again here; a Files that does not record
// (nil) still loads.
func TestFilesRecordWhatComposeGoRead(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"compose.yaml": `services:
  web:
    build: {context: ./web, dockerfile: ../docker/web.Dockerfile}
    env_file: [{path: opt.env, required: false}, web.env]
    label_file: [.meta/web.labels]
    volumes: ["./data:/data:ro"]
    secrets: [s]
    configs: [c]
secrets: {s: {file: ./.secrets/s.txt}}
configs: {c: {file: ./c.conf}}
`,
		".env": "A=1\n", "web.env": "W=1\n", ".meta/web.labels": "team=one\n", "docker/web.Dockerfile": "FROM busybox:1\n",
		"web/index.txt": "x\n", "data/seed.txt": "x\n", ".secrets/s.txt": "x\n", "c.conf": "x\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	compose := []string{filepath.Join(dir, "compose.yaml")}
	tests := []struct {
		name string
		rs   *readset.Set
		want []string
	}{
		{"recording", readset.New(), []string{".env", ".meta/web.labels", ".secrets/s.txt", "c.conf", "compose.yaml", "data", "docker/web.Dockerfile", "opt.env", "web.env"}},
		{"not recording", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewFiles(compose, dir, "reads").Recording(tt.rs)
			if _, err := f.Services(t.Context(), nil); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range tt.rs.Inputs().Files {
				rel, _ := filepath.Rel(dir, p)
				got = append(got, filepath.ToSlash(rel))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("recorded %q, want %q", got, tt.want)
			}
		})
	}
}
