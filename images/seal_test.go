package images

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// TestSealedBuildSendsWhatWasHashed: after Seal, Build sends the context
// as it was read for the tag: a file appended since is sent as long as it
// was, a file added is not sent, the image gets the sealed tag; a file
// rewritten since stops the build and is named (ChangedError).
func TestSealedBuildSendsWhatWasHashed(t *testing.T) {
	tests := []struct {
		name    string
		change  func(t *testing.T, dir string)
		changed string // the file the build refuses, "" for none
	}{
		{"appended", func(t *testing.T, dir string) { appendTo(t, filepath.Join(dir, "app.txt"), "more\n") }, ""},
		{"added", func(t *testing.T, dir string) { writeFiles(t, dir, map[string]string{"new.txt": "new\n"}) }, ""},
		{"rewritten", func(t *testing.T, dir string) { writeFiles(t, dir, map[string]string{"app.txt": "HELLO\n"}) }, "app.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := composeInput(t)
			hash, err := Seal(&in)
			if err != nil {
				t.Fatal(err)
			}
			tt.change(t, in.ProjectDir)
			eng := &tarEngine{Engine: enginetest.New()}
			res, err := Build(t.Context(), eng, in, Options{}, nil)
			if tt.changed != "" {
				var ce *ChangedError
				if !errors.As(err, &ce) || ce.Path != filepath.Join(in.ProjectDir, tt.changed) {
					t.Fatalf("Build = %v, want %s named as changed", err, tt.changed)
				}
				if ok, _ := eng.ImageExists(t.Context(), Tag("p", "web", hash)); ok {
					t.Error("an image has the sealed tag")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Tag != Tag("p", "web", hash) || len(eng.req.Tags) != 1 || eng.req.Tags[0] != res.Tag {
				t.Errorf("built %v (result %s), want the sealed tag %s", eng.req.Tags, res.Tag, Tag("p", "web", hash))
			}
			if got := eng.files["app.txt"]; got != "hello\n" {
				t.Errorf("app.txt sent as %q, want it as it was sealed", got)
			}
			if _, ok := eng.files["new.txt"]; ok {
				t.Error("a file added after the seal was sent")
			}
		})
	}
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
