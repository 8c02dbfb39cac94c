package reconcile

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/images"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// BuildOptions force work that is normally skipped.
type BuildOptions struct {
	NoCache bool // rebuild without the build cache
	Pull    bool // pull base images again
	// NeverPull refuses to pull an image the engine lacks (Compose's
	// --pull never): the images must be there already.
	NeverPull bool
	// NoBuild refuses to build an image the engine lacks (Compose's up
	// --no-build): it must have been built already.
	NoBuild bool
}

// Images makes sure every selected service's image exists: a plain image is
// pulled by its pinned digest when absent; a built image is built only when
// no image carries its content-hash tag.
func (r *Runner) Images(ctx context.Context, svcs []*plan.Service, opts BuildOptions) ([]Change, error) {
	present, err := r.present(ctx, svcs, opts)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, s := range svcs {
		if present[s.Image] {
			// pinned, local or built: the engine has it; a build carries
			// Compose's names again, in case one was removed or taken since
			if s.Build != nil {
				if err := images.TagAs(ctx, r.Eng, s.Image, s.Build.Tags); err != nil {
					return changes, fmt.Errorf("service %s: %w", s.Name, err)
				}
			}
			continue
		}
		c, err := r.image(ctx, s, opts)
		if err != nil {
			return changes, fmt.Errorf("service %s: %w", s.Name, err)
		}
		if c != nil {
			changes = append(changes, *c)
		}
	}
	return changes, nil
}

// present asks the engine about every distinct image of svcs side by
// side (one round trip's wait, not one per service) and says which it has.
// With Pull or NoCache nothing counts as present: each image is pulled or
// built as asked.
func (r *Runner) present(ctx context.Context, svcs []*plan.Service, opts BuildOptions) (map[string]bool, error) {
	if opts.Pull || opts.NoCache {
		return nil, nil
	}
	var refs []string
	for _, s := range svcs {
		if !slices.Contains(refs, s.Image) {
			refs = append(refs, s.Image)
		}
	}
	has := make([]bool, len(refs))
	errs := make([]error, len(refs))
	var wg sync.WaitGroup
	for i, ref := range refs {
		wg.Go(func() { has[i], errs[i] = r.Eng.ImageExists(ctx, ref) })
	}
	wg.Wait()
	out := make(map[string]bool, len(refs))
	for i, ref := range refs {
		out[ref] = has[i]
	}
	return out, cmp.Or(errs...)
}

func (r *Runner) image(ctx context.Context, s *plan.Service, opts BuildOptions) (*Change, error) {
	if s.Build == nil && s.Pull == "" && s.Profile == lock.ComposeProfile {
		return nil, r.localImage(ctx, s)
	}
	if s.Build == nil {
		return r.pull(ctx, s.Name, s.Image, opts)
	}
	if s.BuildErr != nil {
		return nil, s.BuildErr
	}
	if !opts.NoCache && !opts.Pull {
		ok, err := r.Eng.ImageExists(ctx, s.Image)
		if err != nil {
			return nil, err
		}
		if ok {
			return nil, images.TagAs(ctx, r.Eng, s.Image, s.Build.Tags)
		}
	}
	if opts.NoBuild {
		return nil, errNoBuild(s)
	}
	if s.Pull != "" {
		if _, err := r.pull(ctx, s.Name, s.Pull, opts); err != nil {
			return nil, err
		}
	}
	if err := r.buildBases(ctx, s, opts); err != nil {
		return nil, err
	}
	in, err := r.withArtifacts(ctx, *s.Build)
	if err != nil {
		return nil, err
	}
	task := "build " + s.Name
	r.Out.Step(task, "building "+s.Image)
	res, err := images.Build(ctx, r.Eng, in, images.Options{NoCache: opts.NoCache, Proxies: r.Proxies, Labels: r.composeImageLabels(s)},
		func(p engine.Progress) { r.Out.Progress(task, p) })
	if err != nil {
		return nil, err
	}
	if !res.Built {
		return nil, nil
	}
	r.Out.Step(task, "built "+res.Tag)
	return &Change{Service: s.Name, Action: Built, Detail: res.Tag}, nil
}

// composeImageLabels are the labels Compose gives the image of a compose
// service's build: the file's build.labels, then its builder (the
// engine's classic one, which devenv uses), version, project and service;
// nil for devenv's own services. They are not in the image's tag: an
// image built before keeps its tag and is not built again.
func (r *Runner) composeImageLabels(s *plan.Service) map[string]string {
	if s.Compose == nil {
		return nil
	}
	out := map[string]string{}
	if c := s.Compose.Config; c != nil && c.Service.Build != nil {
		maps.Copy(out, c.Service.Build.Labels)
	}
	out[labels.ComposeImageBuilder] = "classic"
	if r.ComposeVersion != "" {
		out[labels.ComposeVersion] = r.ComposeVersion
	}
	out[labels.ComposeProject] = s.Build.Project
	out[labels.ComposeService] = s.Name
	return out
}

// buildBases makes the images a compose service's Dockerfile builds FROM
// present as devenv's own bases are: each pinned one pulled by digest
// through the mirror (the Dockerfile sent names that reference, so the
// build pulls nothing), each pinned by a local image ID checked to be
// that image still.
func (r *Runner) buildBases(ctx context.Context, s *plan.Service, opts BuildOptions) error {
	for _, ref := range slices.Sorted(maps.Values(s.Build.Pins)) {
		if _, err := r.pull(ctx, s.Name, ref, opts); err != nil {
			return err
		}
	}
	if r.Lock == nil {
		return nil
	}
	for _, b := range r.Lock.Service(s.Name).LocalBuildBases() {
		id, err := r.Eng.ImageID(ctx, b.Ref)
		switch {
		case err != nil:
			return err
		case id == "":
			return fmt.Errorf("its Dockerfile builds FROM %s, which devenv.lock pins by its local image ID %s, and this engine no longer has it: build or load %s again, then run devenv lock", b.Ref, b.Digest, b.Ref)
		case id != b.Digest:
			return fmt.Errorf("its Dockerfile builds FROM %s, which is image %s on this engine now, not the %s devenv.lock pins: run devenv lock to pin it", b.Ref, id, b.Digest)
		}
	}
	return nil
}

// localImage checks a compose service's image that no registry has (locked
// by its image ID): it is never pulled, so it must be here.
func (r *Runner) localImage(ctx context.Context, s *plan.Service) error {
	ok, err := r.Eng.ImageExists(ctx, s.Image)
	if err != nil || ok {
		return err
	}
	return fmt.Errorf("its image %s is local (pinned in devenv.lock by image ID) and this engine no longer has it: rebuild or load the image, then run devenv lock", s.Image)
}

func (r *Runner) pull(ctx context.Context, service, ref string, opts BuildOptions) (*Change, error) {
	if !opts.Pull {
		ok, err := r.Eng.ImageExists(ctx, ref)
		if err != nil || ok {
			return nil, err
		}
		if opts.NeverPull {
			return nil, fmt.Errorf("image %s is not on the engine, and --pull never forbids pulling it: pull or load it, or run up without --pull never", ref)
		}
	}
	task := "pull " + service
	r.Out.Step(task, "pulling "+ref)
	if err := r.Eng.Pull(ctx, ref, func(p engine.Progress) { r.Out.Progress(task, p) }); err != nil {
		return nil, err
	}
	return &Change{Service: service, Action: Pulled, Detail: ref}, nil
}

// withArtifacts fetches the locked artifacts (through the mirrors, checking
// their sha256) into the cache and points the build input at them.
func (r *Runner) withArtifacts(ctx context.Context, in images.Input) (images.Input, error) {
	if len(in.Files) == 0 {
		return in, nil
	}
	urls := r.artifactURLs(in)
	files := make([]images.File, len(in.Files))
	for i, f := range in.Files {
		path, err := r.Cache.Get(ctx, r.Mirrors.URL(urls[f.SHA256]), f.SHA256)
		if err != nil {
			return in, err
		}
		f.Path = path
		files[i] = f
	}
	in.Files = files
	return in, nil
}

// artifactURLs maps locked sha256 to canonical URL for this service.
func (r *Runner) artifactURLs(in images.Input) map[string]string {
	out := map[string]string{}
	for _, a := range r.lockedArtifacts(in.Service) {
		out[a.SHA256] = a.URL
	}
	return out
}

func (r *Runner) lockedArtifacts(service string) []lock.Artifact {
	if r.Lock == nil {
		return nil
	}
	if ls := r.Lock.Service(service); ls != nil {
		return ls.Artifacts
	}
	return nil
}

// errNoBuild is --no-build's refusal of an image that is not built.
func errNoBuild(s *plan.Service) error {
	return fmt.Errorf("its image %s is not built, and --no-build forbids building it: run devenv build %s, or up without --no-build", s.Image, s.Name)
}
