package spec

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input makes Parse panic, and that every failure
// is an invalid-config error with a file name.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"valid", "invalid"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte("services: &a [*a]"))
	f.Add([]byte("services: 5"))
	f.Add([]byte("- a\n- b"))
	dir, err := filepath.Abs(filepath.Join("testdata", "valid"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(FileName, data, dir)
		if err != nil && !IsInvalid(err) {
			t.Errorf("not an invalid-config error: %v", err)
		}
		for _, e := range Errors(err) {
			if e.File == "" || e.Msg == "" {
				t.Errorf("error without file or message: %#v", e)
			}
		}
	})
}
