package standin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindModuleRoot(t *testing.T) {
	root := t.TempDir()
	mod := filepath.Join(root, "mod")
	deep := filepath.Join(mod, "test", "e2e", "deep")
	noMod := filepath.Join(root, "elsewhere")
	for _, d := range []string{deep, noMod, filepath.Join(mod, "go.mod.d")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir, want, wantErr string
	}{
		{"module root itself", mod, mod, ""},
		{"deep below", deep, mod, ""},
		{"no go.mod above", noMod, "", "no go.mod in " + noMod},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := findModuleRoot(tt.dir)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("findModuleRoot(%s) = %q, %v; want an error containing %q", tt.dir, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("findModuleRoot(%s) = %q, %v; want %q", tt.dir, got, err, tt.want)
			}
		})
	}
}

// TestModuleRootOfThisRepository checks the walk from this package's
// directory finds the devenv module.
func TestModuleRootOfThisRepository(t *testing.T) {
	root := ModuleRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !strings.HasPrefix(string(data), "module github.com/devenv-dev/devenv\n") {
		t.Fatalf("ModuleRoot = %s, whose go.mod is not devenv's (%v)", root, err)
	}
}

// fakeModule writes a module whose ./cmd/devenv, ./cmd/devenv-core and
// ./cmd/devenv-nvml have the given main.go.
func fakeModule(t *testing.T, main string) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{"go.mod": "module example.com/fake\n\ngo 1.22\n", "cmd/devenv/main.go": main, "cmd/devenv-core/main.go": main, "cmd/devenv-nvml/main.go": main}
	if err := writeProject(root, files); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestBuildDevenv(t *testing.T) {
	tests := []struct {
		name, main string
		wantErr    []string
	}{
		{"compiles", "package main\n\nimport \"os\"\n\nfunc main() { os.Exit(len(os.Args)) }\n", nil},
		{"compile error", "package main\n\nfunc main() { undefinedThing() }\n",
			[]string{"building devenv failed", "undefined: undefinedThing", "main.go:3", "go build ./cmd/devenv"}},
		{"no main package", "package notmain\n",
			[]string{"building devenv failed", "produced no program", "cmd/devenv-nvml must be package main"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := fakeModule(t, tt.main)
			dir := filepath.Join(t.TempDir(), "bin")
			out := filepath.Join(dir, "devenv")
			err := buildDevenv(root, dir)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				res, err := runBinary(t.Context(), out, root, nil, "a", "b")
				if err != nil || res.Code != 3 {
					t.Fatalf("built binary exited %d (%v), want 3 (its argument count)", res.Code, err)
				}
				if entries, _ := os.ReadDir(dir); len(entries) != 3 {
					t.Errorf("the build left %d entries in %s, want devenv, devenv-core and devenv-nvml alone", len(entries), dir)
				}
				if left, _ := filepath.Glob(filepath.Join(dir, ".build-*")); len(left) > 0 {
					t.Errorf("the build left %v", left)
				}
				return
			}
			if err == nil {
				t.Fatal("buildDevenv succeeded, want an error")
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if _, statErr := os.Stat(out); statErr == nil {
				t.Errorf("a failed build left a binary at %s", out)
			}
		})
	}
}

// TestRunBinaryExitCodes runs small shell scripts standing in for devenv,
// including interrupted ones.
func TestRunBinaryExitCodes(t *testing.T) {
	tests := []struct {
		name, script string
		interrupt    bool
		wantCode     int
		wantOut      string
	}{
		{"success", "echo out; echo err >&2", false, 0, "out\n"},
		{"exit code kept", "exit 5", false, 5, ""},
		{"handles SIGINT itself", "trap 'echo bye; exit 130' INT; echo ready; echo ready >&2; while :; do sleep 0.05; done", true, 130, "ready\nbye\n"},
		{"clean exit after SIGINT", "trap 'exit 0' INT; echo ready; echo ready >&2; while :; do sleep 0.05; done", true, 0, "ready\n"},
		{"killed by SIGINT", "echo ready; echo ready >&2; exec sleep 30", true, 130, "ready\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "fake-devenv")
			if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+tt.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var watch func(string)
			if tt.interrupt { // once the script says it is ready (its trap set)
				watch = InterruptWhen(cancel, "ready")
			}
			res, err := runBinaryWatching(ctx, bin, t.TempDir(), []string{"DEVENV_X=1"}, watch)
			if err != nil {
				t.Fatal(err)
			}
			if res.Code != tt.wantCode || res.Stdout != tt.wantOut {
				t.Errorf("got code %d stdout %q stderr %q; want %d %q", res.Code, res.Stdout, res.Stderr, tt.wantCode, tt.wantOut)
			}
		})
	}
}

func TestRunBinaryMissing(t *testing.T) {
	_, err := runBinary(t.Context(), filepath.Join(t.TempDir(), "absent"), t.TempDir(), nil)
	if err == nil {
		t.Fatal("running a missing binary reported no error")
	}
}
