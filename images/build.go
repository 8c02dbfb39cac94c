package images

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/internal/credproxy"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	urlredact "github.com/devenv-dev/devenv/internal/redact"
)

// Options tune Build.
type Options struct {
	NoCache bool              // build even when the image exists, without the build cache
	Pull    bool              // have the engine pull newer base images
	Labels  map[string]string // extra image labels; devenv's own labels win
	// Proxies are build arguments from the docker CLI's proxies
	// (dockerproxy.BuildArgs): passed to the build as docker build passes
	// them, a compose service's own build.args winning; never part of the
	// image's hash, so a changed proxy rebuilds nothing.
	Proxies map[string]string
}

// Result says which image a service runs and what it took to make it.
type Result struct {
	Tag   string // image reference to run
	Built bool   // an image was built by this call
	// Artifacts says, for each artifact the image copies, whether its
	// artifact image was built (the file sent to the engine) by this call.
	Artifacts []ArtifactResult
	// ContextBytes is the size of the service's own build context sent.
	ContextBytes int64
}

// UnbuildableTag stands for the content hash of a build whose inputs
// cannot be read, in the image name a plan shows for it.
const UnbuildableTag = "unbuildable"

// TagPrefix begins every name Tag gives.
const TagPrefix = "devenv/"

// Tag names a service's image: devenv/<project>-<service>:<hash[:12]>.
func Tag(project, service, hash string) string {
	if len(hash) > 12 {
		hash = hash[:12]
	}
	return strings.ToLower(fmt.Sprintf(TagPrefix+"%s-%s:%s", project, service, hash))
}

// Build makes the service's image and returns its tag. It builds only when no
// image has that tag yet (or with opts.NoCache); a plain image (profile image
// without build:) needs no build and its reference is returned as it is. A
// sealed input (Seal) is built from what Seal read, under the tag Seal
// computed; any other input is read once here, for both.
// Engine progress messages go to progress, which may be nil.
func Build(ctx context.Context, eng engine.Engine, in Input, opts Options, progress func(engine.Progress)) (Result, error) {
	if !in.needsBuild() {
		if in.Base == "" {
			return Result{}, fmt.Errorf("service %q has no image reference; set image: in devenv.yaml and run `devenv lock`", in.Service)
		}
		return Result{Tag: in.Base}, nil
	}
	sealed, err := in.sealing()
	if err != nil {
		return Result{}, err
	}
	hash := sealed.hash
	tag := Tag(in.Project, in.Service, hash)
	if !opts.NoCache {
		exists, err := eng.ImageExists(ctx, tag)
		if err != nil {
			return Result{}, fmt.Errorf("checking for image %s: %w", tag, err)
		}
		if exists {
			return Result{Tag: tag}, TagAs(ctx, eng, tag, in.Tags)
		}
	}
	entries, arts, err := sealed.context(in)
	if err != nil {
		return Result{}, err
	}
	req := engine.BuildRequest{Dockerfile: contextDockerfile(in), Tags: []string{tag},
		Labels: imageLabels(in, hash, opts.Labels), NoCache: opts.NoCache, Pull: opts.Pull,
		NetworkMode: buildNetwork(in.PipIndexURL)}
	if in.userBuild() {
		if err := userBuildRequest(in, &req, entries); err != nil {
			return Result{}, err
		}
	} else {
		entries[0].data = withLabels(entries[0].data, req.Labels)
		req.Labels = nil
	}
	stop, err := pipIndexProxy(in, &req)
	if err != nil {
		return Result{}, err
	}
	defer stop()
	withProxies(&req, opts.Proxies)
	res := Result{Tag: tag}
	if err := withArtifacts(ctx, eng, in, arts, opts, &req, &res, progress); err != nil {
		return res, fmt.Errorf("building image %s for service %q: %w", tag, in.Service, err)
	}
	sent, err := buildStreaming(ctx, eng, req, entries, masked(progress, opts.Proxies))
	var be *BuildError
	if errors.As(err, &be) {
		be.Hint = failureHint(in, be.Err.Error(), be.step)
	}
	if err != nil {
		return res, fmt.Errorf("building image %s for service %q: %w", tag, in.Service, err)
	}
	res.Built, res.ContextBytes = true, sent
	return res, TagAs(ctx, eng, tag, in.Tags)
}

// TagAs gives the image tag the other names Compose gives it (image:,
// build.tags), each every time, so a name another image took meanwhile
// is the build's again.
func TagAs(ctx context.Context, eng engine.Engine, tag string, names []string) error {
	for _, name := range names {
		if err := eng.TagImage(ctx, tag, name); err != nil {
			return fmt.Errorf("image %s: %w", tag, err)
		}
	}
	return nil
}

// withArtifacts makes the artifact images the service's Dockerfile copies
// from. They are this engine's own, which the classic builder would look for
// in a registry when asked to pull: so with Pull the base is pulled here and
// the build itself pulls nothing.
func withArtifacts(ctx context.Context, eng engine.Engine, in Input, arts []artifactImage, opts Options,
	req *engine.BuildRequest, res *Result, progress func(engine.Progress)) error {
	if len(arts) == 0 {
		return nil
	}
	if req.Pull {
		if err := eng.Pull(ctx, in.Base, progress); err != nil {
			return err
		}
		req.Pull = false
	}
	var err error
	res.Artifacts, err = ensureArtifacts(ctx, eng, in, arts, opts, progress)
	return err
}

// errBuildReturned tells the context writer that the engine stopped reading.
var errBuildReturned = errors.New("the engine stopped reading the build context")

// buildStreaming streams the context to the engine as it builds and
// returns how many bytes of it the engine read.
func buildStreaming(ctx context.Context, eng engine.Engine, req engine.BuildRequest, entries []entry, out *maskedProgress) (int64, error) {
	pr, pw := io.Pipe()
	written := make(chan error, 1)
	var sent countingWriter
	go func() {
		sent.w = pw
		err := writeTar(&sent, entries)
		pw.CloseWithError(err)
		written <- err
	}()
	req.Context = pr
	var tail outputTail
	report := func(p engine.Progress) {
		p = out.mask(p)
		tail.add(p)
		if out.to != nil {
			out.to(p)
		}
	}
	_, err := eng.Build(ctx, req, report)
	pr.CloseWithError(errBuildReturned)
	werr := <-written
	// A closed pipe means the engine's side stopped reading (the engine
	// went away mid-build): its error says why, the writer's does not.
	if werr != nil && !errors.Is(werr, errBuildReturned) && (err == nil || !errors.Is(werr, io.ErrClosedPipe)) {
		return sent.n, werr
	}
	if err != nil && ctx.Err() == nil {
		if out := tail.String(); out != "" {
			return sent.n, &BuildError{Err: err, Tail: out, step: &tail.step}
		}
	}
	return sent.n, err
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// BuildError is a failed build with the last lines of its output, which
// hold the real cause (the classic builder's own error only says which
// command returned non-zero).
type BuildError struct {
	Err  error
	Tail string // the last lines of build output, indented, colour codes removed
	// Hint says what to set when the failed step could not reach its
	// package index (failureHint); "" when there is nothing to say.
	Hint string
	step *stepOutput
}

func (e *BuildError) Error() string {
	msg := e.Err.Error() + "\nlast lines of the build output:\n" + e.Tail +
		"\n(`devenv build --verbose` shows all of it)"
	if h := e.hint(); h != "" {
		msg += "\n\thint: " + h
	}
	return msg
}

// hint is what Build found of the failed step (failureHint, which knows
// the service's mirrors and whether the Dockerfile is devenv's), else, for
// a BuildError Build did not classify, what the output alone says
// (buildHint).
func (e *BuildError) hint() string {
	if e.Hint != "" || e.step != nil {
		return e.Hint
	}
	return buildHint(e.Err, e.Tail)
}

func (e *BuildError) Unwrap() error { return e.Err }

func contextDockerfile(in Input) string {
	if in.userBuild() {
		return in.userDockerfileName()
	}
	return dockerfileName
}

func imageLabels(in Input, hash string, extra map[string]string) map[string]string {
	lbl := make(map[string]string, len(extra)+3)
	for k, v := range extra {
		lbl[k] = v
	}
	lbl[labels.Project] = in.Project
	lbl[labels.Service] = in.Service
	lbl[labels.ConfigHash] = hash
	return lbl
}

// withLabels ends a generated Dockerfile with one LABEL instruction holding
// lbl. The classic builder makes a step (a container and a commit) of each
// build-request label, after every changed step: one instruction is one.
func withLabels(dockerfile []byte, lbl map[string]string) []byte {
	if len(lbl) == 0 {
		return dockerfile
	}
	keys := make([]string, 0, len(lbl))
	for k := range lbl {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.Write(dockerfile)
	b.WriteString("LABEL")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(" \\\n     ")
		}
		b.WriteString(" " + envQuote(k) + "=" + envQuote(lbl[k]))
	}
	b.WriteString("\n")
	return []byte(b.String())
}

// pipIndexProxy serves a PyPI mirror whose URL carries credentials through a
// credential proxy on loopback for the length of the build, and gives the
// build only the proxy's URL: the classic builder records build argument
// values in the image history, so a password must never be one. It returns
// the function that stops the proxy.
func pipIndexProxy(in Input, req *engine.BuildRequest) (func(), error) {
	if in.userBuild() || in.PipIndexURL == "" {
		return func() {}, nil
	}
	if u, err := url.Parse(in.PipIndexURL); err != nil || u.User == nil {
		return func() {}, nil
	}
	if host := os.Getenv("DOCKER_HOST"); !localEngine(host) {
		return nil, fmt.Errorf("service %q: the PyPI mirror %s needs credentials, which devenv serves to builds only on this machine's loopback, "+
			"but the engine is at %s: run devenv on the engine's machine, or use a mirror without credentials there", in.Service, redact(in.PipIndexURL), host)
	}
	p, err := credproxy.Start(in.PipIndexURL)
	if err != nil {
		return nil, fmt.Errorf("service %q: %w", in.Service, err)
	}
	v := p.URL()
	if req.BuildArgs == nil {
		req.BuildArgs = map[string]*string{}
	}
	req.BuildArgs["PIP_INDEX_URL"] = &v
	req.NetworkMode = buildNetwork(v)
	return func() { _ = p.Close() }, nil
}

// withProxies adds the proxies to the build's arguments where the build
// does not set the same name itself.
func withProxies(req *engine.BuildRequest, proxies map[string]string) {
	for k, v := range proxies {
		if req.BuildArgs == nil {
			req.BuildArgs = map[string]*string{}
		}
		if _, set := req.BuildArgs[k]; !set {
			req.BuildArgs[k] = &v
		}
		if !strings.EqualFold(k, "NO_PROXY") && buildNetwork(v) == "host" {
			req.NetworkMode = "host" // a proxy on this machine's loopback (cntlm, px)
		}
	}
}

// masked hides what the build prints of a URL's password, and of the
// proxies' passwords anywhere (a step that prints its environment), before
// progress and the failed build's tail see it.
func masked(progress func(engine.Progress), proxies map[string]string) *maskedProgress {
	m := &maskedProgress{to: progress}
	for _, v := range proxies {
		if u, err := url.Parse(v); err == nil && u.User != nil {
			if pw, ok := u.User.Password(); ok && pw != "" {
				m.secrets = append(m.secrets, pw)
			}
		}
	}
	return m
}

type maskedProgress struct {
	to      func(engine.Progress)
	secrets []string
}

func (m *maskedProgress) mask(p engine.Progress) engine.Progress {
	if p.Stream != "" {
		p.Stream = urlredact.URLs(p.Stream)
		for _, s := range m.secrets {
			p.Stream = strings.ReplaceAll(p.Stream, s, "xxxxx")
		}
	}
	return p
}

// localEngine reports whether DOCKER_HOST names an engine on this machine,
// whose host-network builds can reach this machine's loopback.
func localEngine(dockerHost string) bool {
	u, err := url.Parse(dockerHost)
	switch {
	case dockerHost == "":
		return true
	case err != nil:
		return false
	case u.Scheme == "unix" || u.Scheme == "npipe":
		return true
	case u.Scheme == "tcp":
		h := u.Hostname()
		return h == "localhost" || strings.HasPrefix(h, "127.") || h == "::1"
	}
	return false
}

// buildNetwork is "host" when the PyPI index is on this machine's loopback
// (a local devpi, a test stand-in, devenv's credential proxy): on the
// default bridge network the build's RUN steps would look for it inside the
// build container.
func buildNetwork(index string) string {
	u, err := url.Parse(index)
	if err != nil || u.Host == "" {
		return ""
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1" {
		return "host"
	}
	return ""
}
