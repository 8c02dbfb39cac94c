// Package composetest helps tests that run every compose file the
// repository holds (loader round trips, the comparison with Compose).
package composetest

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// CorpusDirs are the directories of the real-world compose corpus,
// relative to the repository's root (compose/project's SOURCES.md there).
var CorpusDirs = []string{"compose/project/testdata/corpus", "compose/project/testdata/heldout"}

// RepoFiles are the compose files among the fixtures of the repository at
// root: YAML under a testdata directory or test/ whose services: is a
// mapping and none of whose services has devenv's profile: key (devenv.yaml
// fixtures do, or they have compose: at the top). Hidden directories are
// skipped, and so are the 63 projects of the real-world corpus
// (CorpusDirs): TestCorpusAsCompose compares them with Compose, and running
// every round trip over them too took the loader's tests from seconds to
// two minutes of CPU. Sorted.
func RepoFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			if (strings.HasPrefix(d.Name(), ".") && p != root) || slices.Contains(CorpusDirs, filepath.ToSlash(rel)) {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if (strings.Contains("/"+rel, "/testdata/") || strings.HasPrefix(rel, "test/")) && isComposeFile(p) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

func isComposeFile(p string) bool {
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	var doc struct {
		Compose  any                       `yaml:"compose"`
		Services map[string]map[string]any `yaml:"services"`
	}
	if yaml.Unmarshal(b, &doc) != nil || doc.Compose != nil || len(doc.Services) == 0 {
		return false
	}
	for _, s := range doc.Services {
		if _, devenv := s["profile"]; devenv {
			return false
		}
	}
	return true
}

// Repo is the repository's root, two directories above the running test's
// package (compose/NAME), with its compose fixtures as RepoFiles finds
// them. A failure to find them fails the test.
func Repo(t testing.TB) (root string, files []string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if files, err = RepoFiles(root); err != nil {
		t.Fatal(err)
	}
	return root, files
}
