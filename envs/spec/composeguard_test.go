package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestComposePathsAsCompose: the paths a compose file names are read
// where `docker compose -f <file>` reads them (relative to the first
// compose file's directory, .env there too), inside the project or outside
// it as written; only a link in the project that leads out of it is
// refused, for every key alike (projpath.LinkOut).
func TestComposePathsAsCompose(t *testing.T) {
	cases := []struct {
		name string
		// devenv.yaml's directory, relative to the repository's root
		at      string
		compose string // the compose file, relative to the root
		files   map[string]string
		links   map[string]string // link (relative to the root) -> target outside
		want    string            // "" loads, else a substring of the error
	}{
		{name: "devenv.yaml at the root, include and env_file beside the compose file", at: ".", compose: "deploy/compose/compose.yaml",
			files: map[string]string{
				"deploy/compose/compose.yaml": "include: [./db.yaml]\nservices:\n  app: {image: busybox:1, env_file: ./app.env, volumes: [\"./data:/data\"]}\n",
				"deploy/compose/db.yaml":      "services:\n  db: {image: busybox:1}\n",
				"deploy/compose/app.env":      "A=1\n",
				"deploy/compose/.env":         "TAG=1\n",
			}},
		{name: "include of ../../ outside devenv.yaml's directory", at: "deploy/compose", compose: "deploy/compose/compose.yaml",
			files: map[string]string{
				"deploy/compose/compose.yaml": "include: [../../local_deploy/db.yaml]\nservices:\n  app: {image: busybox:1, env_file: ../../shared.env}\n",
				"local_deploy/db.yaml":        "services:\n  db: {image: busybox:1, env_file: ./db.env}\n",
				"local_deploy/db.env":         "B=2\n",
				"shared.env":                  "C=3\n",
			}},
		{name: "an include through a link out of the project", at: ".", compose: "compose.yaml",
			files: map[string]string{"compose.yaml": "include: [./linked.yaml]\nservices:\n  app: {image: busybox:1}\n"},
			links: map[string]string{"linked.yaml": "services:\n  db: {image: busybox:1}\n"},
			want:  `include "./linked.yaml" is a symbolic link to`},
		{name: "an env_file through a link out of the project", at: ".", compose: "compose.yaml",
			files: map[string]string{"compose.yaml": "services:\n  app: {image: busybox:1, env_file: ./linked.env}\n"},
			links: map[string]string{"linked.env": "A=1\n"},
			want:  `env_file "./linked.env" is a symbolic link to`},
		{name: "a bind source through a link out of the project", at: ".", compose: "compose.yaml",
			files: map[string]string{"compose.yaml": "services:\n  app: {image: busybox:1, volumes: [\"./linked:/x\"]}\n"},
			links: map[string]string{"linked": ""},
			want:  `volume source "./linked" is a symbolic link to`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			for rel, data := range c.files {
				write(t, filepath.Join(root, rel), data)
			}
			for rel, data := range c.links {
				target := filepath.Join(outside, filepath.Base(rel))
				write(t, target, data)
				if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
					t.Skip("no symbolic links here:", err)
				}
			}
			dir := filepath.Join(root, c.at)
			rel, err := filepath.Rel(dir, filepath.Join(root, c.compose))
			if err != nil {
				t.Fatal(err)
			}
			yaml := "name: demo\ncompose: [" + filepath.ToSlash(rel) + "]\nservices:\n  own: {profile: image, image: busybox:1}\n"
			_, err = Parse(filepath.Join(dir, FileName), []byte(yaml), dir)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("want an error with %q, got %v", c.want, err)
			}
		})
	}
}

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
