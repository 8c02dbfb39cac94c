package spec

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
)

// golden compares got with the golden file, or rewrites it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	goldenfile.Check(t, path, got)
}

func yamlFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/%s/*.yaml: %v", dir, err)
	}
	return files
}

// projectJSON renders a loaded project with its directory replaced, so the
// golden files do not depend on where the repository is checked out.
func projectJSON(t *testing.T, p *Project) []byte {
	t.Helper()
	c := *p
	c.Raw = nil
	out, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(bytes.ReplaceAll(out, []byte(p.Dir), []byte("$DIR")), '\n')
}

func TestLoadValid(t *testing.T) {
	for _, file := range yamlFiles(t, "valid") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			p, err := Load(file)
			if err != nil {
				t.Fatalf("want valid, got:\n%v", err)
			}
			golden(t, strings.TrimSuffix(file, ".yaml")+".golden.json", projectJSON(t, p))
		})
	}
}

func TestLoadInvalid(t *testing.T) {
	for _, file := range yamlFiles(t, "invalid") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			p, err := Load(file)
			if err == nil {
				t.Fatalf("want an error, got a project with %d services", len(p.Services))
			}
			if !IsInvalid(err) {
				t.Errorf("IsInvalid(%v) = false", err)
			}
			golden(t, strings.TrimSuffix(file, ".yaml")+".golden", []byte(err.Error()+"\n"))
		})
	}
}
