package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
)

// TestProjectNameDeclaredBeatsInferred: the project is named as Compose
// names it, declared names over inferred ones: -p (COMPOSE_PROJECT_NAME)
// over both files; devenv.yaml's name: over a compose file's top-level
// name:, warned about once when they differ; a compose file's name: over
// the directory's name (devenv.yaml's default). config says where the name
// came from.
func TestProjectNameDeclaredBeatsInferred(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		yaml, compose        string // devenv.yaml's name: line, compose.yaml's ("" for none)
		runName              string // -p
		want, wantFrom, warn string // warn: "" for no warning
	}{
		{"the compose file's name over the directory's", "", "name: rag", "", "rag", "compose.yaml:1 (the compose file's top-level name:)", ""},
		{"devenv.yaml's over the compose file's", "name: demo\n", "name: rag", "", "demo", "devenv.yaml:1 (name:)",
			"devenv.yaml:1 names the project demo and compose.yaml:1 names it rag: devenv uses demo"},
		{"the same name twice", "name: rag\n", "name: rag", "", "rag", "devenv.yaml:1 (name:)", ""},
		{"-p over both", "name: demo\n", "name: rag", "cli", "cli", "-p/--project-name or COMPOSE_PROJECT_NAME", ""},
		{"none", "", "", "", "", "the directory's name (devenv.yaml has no name:)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			compose := "services:\n  app:\n    image: busybox:1.36\n"
			if tc.compose != "" {
				compose = tc.compose + "\n" + compose
			}
			w := newWorld(t, tc.yaml+"compose: [compose.yaml]\n", map[string]string{"compose.yaml": compose})
			w.opts.ProjectName = tc.runName
			p := w.open(t)
			want := tc.want
			if want == "" {
				want = spec.DockerName(filepath.Base(w.dir))
			}
			if p.Spec.Name != want {
				t.Errorf("project name %q, want %q", p.Spec.Name, want)
			}
			cfg, err := p.Config(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.NameFrom != tc.wantFrom {
				t.Errorf("config says the name is from %q, want %q", cfg.NameFrom, tc.wantFrom)
			}
			warned := strings.Count(w.stderr.String(), "names the project")
			switch {
			case tc.warn == "" && warned > 0:
				t.Errorf("warned:\n%s", w.stderr)
			case tc.warn != "" && (warned != 1 || !strings.Contains(w.stderr.String(), tc.warn)):
				t.Errorf("warnings:\n%s\nwant once: %s", w.stderr, tc.warn)
			}
		})
	}
}

// TestComposeNameLeavesTheLock: adding a top-level name: to a compose
// file renames the running project but not the lock, which holds
// devenv.yaml's name only: the lock stays fresh and `devenv lock` writes
// the same bytes.
func TestComposeNameLeavesTheLock(t *testing.T) {
	compose := "services:\n  app:\n    image: busybox:1.36\n"
	w := newWorld(t, "compose: [compose.yaml]\n", map[string]string{"compose.yaml": compose})
	w.lock(t)
	before, err := os.ReadFile(filepath.Join(w.dir, "devenv.lock"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "compose.yaml"), []byte("name: rag\n"+compose), 0o644); err != nil {
		t.Fatal(err)
	}
	p := w.open(t)
	if p.Spec.Name != "rag" {
		t.Fatalf("project name %q, want rag", p.Spec.Name)
	}
	lf, err := p.ReadLock()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Stale(t.Context(), lf); err != nil {
		t.Errorf("the lock is stale after a compose name: was added: %v", err)
	}
	w.lock(t)
	after, err := os.ReadFile(filepath.Join(w.dir, "devenv.lock"))
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("devenv lock rewrote the lock:\n%s\nwas:\n%s", after, before)
	}
}
