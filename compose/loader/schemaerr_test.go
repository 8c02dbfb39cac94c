package loader

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/compose/composetest"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

// TestSchemaProblemsArePlaced: a compose file that fails compose-go's
// schema (an unknown key such as imgae: or port:, a value of the wrong
// type) gets every problem of every file at once, each with its
// file:line:col, its path and, for an unknown key, the key meant; exit 2.
// A value that refers to a variable is left to compose-go's check after
// interpolation.
func TestSchemaProblemsArePlaced(t *testing.T) {
	for _, tc := range []struct {
		name   string
		dir    string
		files  []string
		golden string
	}{
		{"every problem of a file", "typos", []string{"compose.yaml"}, "typos.golden.txt"},
		{"an override file's too", "typos", []string{"compose.yaml", "override.yaml"}, "typos-override.golden.txt"},
		{"an override's alone", "typos", []string{"override.yaml"}, "typos-override-only.golden.txt"},
		{"an include:d file's", "typos-include", []string{"compose.yaml"}, "typos-include.golden.txt"},
		{"a value bad once interpolated", "typos-var", []string{"compose.yaml"}, "typos-var.golden.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("testdata", tc.dir))
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for _, f := range tc.files {
				files = append(files, filepath.Join(dir, f))
			}
			_, err = Load(t.Context(), files, dir, "demo", nil)
			if err == nil {
				t.Fatal("Load accepted files with typos")
			}
			if code := exitcode.Of(err); code != exitcode.Usage {
				t.Errorf("exit code %d, want %d (bad input)", code, exitcode.Usage)
			}
			var target interface{ WrappedErrors() []error }
			if !errors.As(err, &target) {
				t.Errorf("%v is not a list of problems", err)
			}
			golden(t, tc.golden, []byte(strings.ReplaceAll(err.Error(), dir, "$PROJECT")+"\n"))
		})
	}
}

// TestSchemaCheckAgreesWithCompose: devenv's own pass over a file finds a
// schema problem exactly when compose-go's load refuses the file for one,
// for every compose file the repository holds (real projects' among them):
// no problem made up for a file Compose accepts, none missed.
func TestSchemaCheckAgreesWithCompose(t *testing.T) {
	root, files := composetest.Repo(t)
	s, meta, err := composeSchema()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		_, loadErr := readModel(t.Context(), []string{f}, filepath.Dir(f), "agree", true)
		failed := schemaFailure(loadErr)
		if loadErr != nil && !failed.ok {
			continue // refused for another reason (a missing env_file, a required variable)
		}
		if !failed.ok {
			if found := checkFile(s, meta, &positions{projectDir: filepath.Dir(f)}, f); len(found) > 0 {
				t.Errorf("%s: compose-go accepts it, devenv's check finds %v", rel, found)
			}
		} else if ps := schemaProblems([]string{f}, filepath.Dir(f), loadErr); len(ps) == 0 {
			t.Errorf("%s: compose-go refuses it (%v), devenv's check finds nothing", rel, loadErr)
		}
		checked++
	}
	t.Logf("checked %d of %d compose files", checked, len(files))
	if checked < 20 {
		t.Errorf("checked %d of the repository's %d compose files; want most of them", checked, len(files))
	}
}
