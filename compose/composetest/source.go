package composetest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Source is one non-test Go file of the package under test, parsed, for
// tests that hold a package to its layer (what it may import or read).
type Source struct {
	Name    string
	Fset    *token.FileSet
	File    *ast.File
	Text    string
	Imports []string // the import paths, unquoted
}

// PackageSources parses the non-test .go files of the working directory
// (a test's package).
func PackageSources(t *testing.T) []Source {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []Source
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, text, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		s := Source{Name: name, Fset: fset, File: f, Text: string(text)}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			s.Imports = append(s.Imports, p)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		t.Fatal("no Go files to check in the package's directory")
	}
	return out
}
