// Package locktest makes the project and lock fixtures of the tests that
// plan and export from a devenv.lock (compose/project, compose/export).
package locktest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

// Project parses dir/devenv.yaml; a failure fails the test.
func Project(t testing.TB, dir string) *spec.Project {
	t.Helper()
	file := filepath.Join(dir, "devenv.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := spec.Parse(file, data, dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Stable fills lf, p's lock as yet without digests, as `devenv lock`
// would, with made-up but stable digests and checksums: the sha256 of
// the image reference or the artifact's URL. A compose service (no
// devenv service of p) keeps what lf holds for it.
func Stable(t testing.TB, p *spec.Project, lf *lock.File) *lock.File {
	t.Helper()
	for i := range lf.Services {
		ls := &lf.Services[i]
		s := p.Service(ls.Name)
		if s == nil {
			continue // a compose service
		}
		res, err := profiles.Builtin().Resolve(s.Request(), p.Profiles)
		if err != nil {
			t.Fatal(err)
		}
		ref := res.BaseImage
		if res.Profile == profiles.Image {
			ref = s.Image
		}
		ls.Base = &lock.Image{Ref: ref, Digest: "sha256:" + Sum(ref)}
		ls.Artifacts = nil
		for _, a := range res.Artifacts {
			ls.Artifacts = append(ls.Artifacts, lock.Artifact{Name: a.Name, URL: a.URL, File: a.File, SHA256: Sum(a.URL)})
		}
	}
	return lf
}

// Sum is the hex sha256 of s.
func Sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
