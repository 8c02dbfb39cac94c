package reconcile

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/ui"
)

// parentEngine refuses to remove an image while an image built on it
// exists, as the Docker engine does ("image has dependent child images").
type parentEngine struct {
	*enginetest.Fake
	parentOf map[string]string // child id -> parent id
}

func (e *parentEngine) Remove(ctx context.Context, kind engine.Kind, id string, v bool) error {
	if kind == engine.Images {
		for child, parent := range e.parentOf {
			if parent != id {
				continue
			}
			if ok, _ := e.ImageExists(ctx, child); ok {
				return fmt.Errorf("remove image %q: unable to delete (cannot be forced) - image has dependent child images: %w", id, engine.ErrConflict)
			}
		}
	}
	return e.Fake.Remove(ctx, kind, id, v)
}

// TestDownRemovesImagesChildrenFirst: down --rmi removes the project's
// images newest first, so an image built on another of the project's goes
// before it; an image another project's image is built on is kept and
// said, not a failure (as Compose keeps an image still in use).
func TestDownRemovesImagesChildrenFirst(t *testing.T) {
	f := enginetest.New()
	mine := map[string]string{labels.Project: "p"}
	base := f.AddImage("devenv/p-base:1", mine)
	child := f.AddImage("devenv/p-app:1", mine) // newer: built on base
	shared := f.AddImage("devenv/p-tool:1", mine)
	foreign := f.AddImage("devenv/q-tool:1", map[string]string{labels.Project: "q"})
	eng := &parentEngine{Fake: f, parentOf: map[string]string{child: base, foreign: shared}}
	var errOut bytes.Buffer
	r := &Runner{Eng: eng, Out: &ui.Printer{Out: &bytes.Buffer{}, Err: &errOut}, StateDir: t.TempDir()}
	if _, err := r.Down(t.Context(), "p", DownOptions{Images: true}); err != nil {
		t.Fatalf("down --rmi: %v", err)
	}
	for id, want := range map[string]bool{base: false, child: false, shared: true, foreign: true} {
		if ok, _ := f.ImageExists(t.Context(), id); ok != want {
			t.Errorf("image %s exists: %v, want %v", id, ok, want)
		}
	}
	if !strings.Contains(errOut.String(), "kept image devenv/p-tool:1") {
		t.Errorf("the image kept in use is not said:\n%s", errOut.String())
	}
}

// TestDownKeepsComposeNames: down --rmi removes devenv's own name of a
// compose build's image and keeps the names Compose gives it (image:,
// build.tags), as Compose's down --rmi local keeps an image named by
// image:; removed by its id, the engine refused it (several names) and
// down said it was still in use, leaving devenv's name behind.
func TestDownKeepsComposeNames(t *testing.T) {
	f := enginetest.New()
	img := f.AddImage("devenv/p-app:1", map[string]string{labels.Project: "p", labels.Service: "app"})
	for _, name := range []string{"example/app:1.0", "example/app:latest"} {
		if err := f.TagImage(t.Context(), img, name); err != nil {
			t.Fatal(err)
		}
	}
	var errOut bytes.Buffer
	r := &Runner{Eng: f, Out: &ui.Printer{Out: &bytes.Buffer{}, Err: &errOut}, StateDir: t.TempDir()}
	if _, err := r.Down(t.Context(), "p", DownOptions{Images: true}); err != nil {
		t.Fatalf("down --rmi: %v", err)
	}
	for name, want := range map[string]bool{"devenv/p-app:1": false, "example/app:1.0": true, "example/app:latest": true} {
		if ok, _ := f.ImageExists(t.Context(), name); ok != want {
			t.Errorf("image %s exists: %v, want %v", name, ok, want)
		}
	}
	if errOut.Len() > 0 {
		t.Errorf("down warned:\n%s", errOut.String())
	}
}
