// Package unlocked plans a project that was never locked: an in-memory
// stand-in for devenv.lock made by resolution alone, and a plan of it with
// images by tag. The exports use it (export before lock), and so do the
// tests of the packages below the exports, which is why it is its own
// package.
package unlocked

import (
	"context"
	"strings"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/images"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/hashicorp/go-multierror"
)

// Tag is the tag of images devenv builds, in exports made before
// the project was locked: their content hash cannot be known yet.
const Tag = "unlocked"

// unpinned stands in for a digest or checksum nobody fetched yet. It never
// leaves this file: Plan removes every trace of it from the plan.
var unpinned = strings.Repeat("0", 64)

// Lock is an in-memory stand-in for devenv.lock made by resolution
// alone: explicit versions and base images by tag, with placeholder digests
// and checksums. It lets a project be planned (and exported) before it was
// ever locked; it is never written to disk and never passes lock.Parse.
// Versions left unset are resolved as devenv lock would for the machine
// whose NVIDIA driver is machineDriver ("" when NVML could not be read).
func Lock(ctx context.Context, p *spec.Project, machineDriver string) (*lock.File, error) {
	return unlockedFor(ctx, p, profiles.Builtin().ResolutionLimit(machineDriver, nil))
}

// unlockedFor is Unlocked for a driver limit that knows the machine's GPUs.
func unlockedFor(ctx context.Context, p *spec.Project, lim profiles.DriverLimit) (*lock.File, error) {
	f := &lock.File{Version: lock.SchemaVersion, Project: p.Name}
	cat := profiles.Builtin()
	var errs *multierror.Error
	for _, s := range p.Services {
		res, _, err := lock.ResolveLimited(ctx, p, s, cat, lim)
		if err != nil {
			errs = multierror.Append(errs, err)
			continue
		}
		f.Services = append(f.Services, unlockedService(s, res))
	}
	return f, errs.ErrorOrNil()
}

func unlockedService(s *spec.Service, res profiles.Resolved) lock.Service {
	ls := lock.Service{Name: s.Name, Profile: res.Profile, Custom: res.Custom, Requires: res.Requires,
		Versions: lock.Versions{Spark: res.Spark, Scala: res.Scala, ScalaFull: res.ScalaFull, Java: res.Java,
			Python: res.Python, Rapids: res.Rapids, CUDA: res.CUDA, Release: res.Release, JarClassifier: res.JarClassifier,
			JupyterLab: lock.JupyterLab(s, res, nil)}}
	ref := res.BaseImage
	if res.Profile == profiles.Image {
		ref = s.Image
	}
	if ref != "" {
		ls.Base = &lock.Image{Ref: ref, Digest: "sha256:" + unpinned}
	}
	for _, a := range res.Artifacts {
		ls.Artifacts = append(ls.Artifacts, lock.Artifact{Name: a.Name, URL: a.URL, File: a.File, SHA256: unpinned})
	}
	return ls
}

// Plan plans a project that has no devenv.lock: images by tag, and
// images devenv builds tagged devenv/<project>-<service>:unlocked. The plan
// reads no artifact: an image's tag depends only on the locked checksums.
func Plan(p *spec.Project, h plan.Host, opts plan.Options) (*plan.Plan, error) {
	var driver string
	if h.GPUs != nil {
		driver = h.GPUs.DriverVersion
	}
	lf, err := unlockedFor(opts.Context(), p, profiles.Builtin().ResolutionLimit(driver, h.GPUModels()))
	if err != nil {
		return nil, err
	}
	pl, err := plan.Make(p, lf, h, opts)
	if err != nil {
		return nil, err
	}
	fixUnlocked(pl)
	return pl, nil
}

// fixUnlocked drops the placeholder digests and the meaningless content
// hashes from an unlocked plan.
func fixUnlocked(pl *plan.Plan) {
	suffix := "@sha256:" + unpinned
	for _, s := range pl.Services {
		img := strings.TrimSuffix(s.Image, suffix)
		if s.Build != nil {
			img = images.Tag(pl.Project, s.Name, Tag)
		}
		s.Image, s.Container.Image = img, img
		s.Pull = strings.TrimSuffix(s.Pull, suffix)
		if s.Build != nil {
			s.Build.Base = strings.TrimSuffix(s.Build.Base, suffix)
		}
		delete(s.Container.Labels, labels.ConfigHash)
		s.ConfigHash = ""
	}
	pl.Lock = nil
}
