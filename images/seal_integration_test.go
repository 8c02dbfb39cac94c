package images

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/profiles"
)

// TestIntegrationSealedBuild: on this machine's Docker Engine, a sealed
// build whose log file grew since the seal builds under the sealed tag;
// one whose file was rewritten since is stopped mid-stream, and the
// engine tags nothing with the sealed tag.
func TestIntegrationSealedBuild(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	real := realEngine(ctx, t)
	tests := []struct {
		name    string
		change  func(t *testing.T, dir string)
		changed bool
	}{
		{"a log appended", func(t *testing.T, dir string) { appendTo(t, filepath.Join(dir, "app.log"), "more\n") }, false},
		{"a file rewritten", func(t *testing.T, dir string) { writeFiles(t, dir, map[string]string{"conf.txt": "TWO\n"}) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"Dockerfile": "FROM scratch\nCOPY . /src\n", "app.log": "one\n", "conf.txt": "one\n"})
			in := Input{Project: "sealtest", Service: "app", Resolved: profiles.Resolved{Profile: profiles.Image}, ProjectDir: dir,
				UserDockerfile: filepath.Join(dir, "Dockerfile")}
			hash, err := Seal(&in)
			if err != nil {
				t.Fatal(err)
			}
			tag := Tag(in.Project, in.Service, hash)
			freshTag(ctx, t, real, tag)
			tt.change(t, dir)
			res, err := Build(ctx, real, in, Options{}, nil)
			has, ierr := real.ImageExists(ctx, tag)
			if ierr != nil {
				t.Fatal(ierr)
			}
			var ce *ChangedError
			switch {
			case tt.changed && (!errors.As(err, &ce) || has):
				t.Errorf("Build = %v, image %s exists %v; want the rewritten file named and no image", err, tag, has)
			case !tt.changed && (err != nil || res.Tag != tag || !has):
				t.Errorf("Build = %+v, %v; image %s exists %v; want it built under the sealed tag", res, err, tag, has)
			}
		})
	}
}
