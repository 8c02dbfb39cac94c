package images

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// TestIntegrationBuildUserDockerfile builds a FROM-scratch image holding a
// static Go binary on this machine's Docker Engine: the first Build builds,
// the second reaches no engine build, and NoCache builds again.
func TestIntegrationBuildUserDockerfile(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	real := realEngine(ctx, t)

	in := staticBinaryProject(t)
	hash := mustHash(t, in)
	tag := Tag(in.Project, in.Service, hash)
	freshTag(ctx, t, real, tag)

	eng := &countingEngine{Engine: real}
	var streamed int
	progress := func(p engine.Progress) { streamed++ }
	steps := []struct {
		name      string
		opts      Options
		wantBuilt bool
		builds    int
	}{
		{"first build", Options{}, true, 1},
		{"again: no build", Options{}, false, 1},
		{"no cache: rebuild", Options{NoCache: true}, true, 2},
	}
	for _, s := range steps {
		res, err := Build(ctx, eng, in, s.opts, progress)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if res.Tag != tag || res.Built != s.wantBuilt || eng.count() != s.builds {
			t.Errorf("%s: Build = %+v after %d engine builds; want %s built=%v after %d",
				s.name, res, eng.count(), tag, s.wantBuilt, s.builds)
		}
	}
	if want := []string{".dockerignore", "Dockerfile", "hello"}; !slices.Equal(eng.contexts[0], want) {
		t.Errorf("context sent = %v, want %v", eng.contexts[0], want)
	}
	if streamed == 0 {
		t.Error("no build progress reached the progress function")
	}
	imgs, err := real.List(ctx, engine.Images, map[string]string{labels.Project: in.Project, labels.Service: in.Service, labels.ConfigHash: hash})
	if err != nil || len(imgs) == 0 {
		t.Errorf("no image carries devenv's labels (err %v)", err)
	}
}

// staticBinaryProject makes a user Dockerfile project holding a static Go
// binary, plus files that must never reach the build context.
func staticBinaryProject(t *testing.T) Input {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"src/main.go":        "package main\n\nfunc main() { println(\"hello from devenv\") }\n",
		"src/go.mod":         "module hello\n\ngo 1.21\n",
		"ctx/Dockerfile":     "FROM scratch\nCOPY hello /hello\nCMD [\"/hello\"]\n",
		"ctx/.dockerignore":  "notes\n",
		"ctx/notes/todo.txt": "ignored",
		"ctx/.env":           "TOKEN=never-sent",
		"ctx/.git/HEAD":      "ref: refs/heads/main",
		"ctx/server.key":     "never sent",
	})
	return staticBinaryInput(t, dir, "hello", "hello")
}
