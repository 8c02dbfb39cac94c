package engine

import (
	"context"
	"errors"
	"net/http"
	"os"
	"sort"
	"time"

	"github.com/docker/docker/client"

	"github.com/devenv-dev/devenv/internal/endpoint"
)

// docker is the Engine backed by the Docker Engine API.
type docker struct {
	cli       *client.Client
	raw       *client.Client // no answer cap: hijacked connections (exec attach)
	ep        *endpoint.Endpoint
	host      string // the engine as messages name it: context and address
	engineAPI string // the newest API version the engine speaks
}

// Connect reaches the Docker Engine the docker CLI would use (ConnectTo
// with no flags).
func Connect(ctx context.Context) (Engine, error) { return ConnectTo(ctx, endpoint.Options{}) }

// ConnectTo reaches the engine that docker/cli's resolution picks for o
// (--context, --host, DOCKER_HOST with DOCKER_TLS_VERIFY and DOCKER_CERT_PATH,
// DOCKER_CONTEXT, `docker context use`, else the local socket; ssh:// through
// docker/cli's ssh helper), pings it and negotiates the API version, so both
// old (API 1.41) and new engines work. An engine that does not answer yields
// ErrUnreachable naming the context and address.
func ConnectTo(ctx context.Context, o endpoint.Options) (Engine, error) {
	ep, err := endpoint.Resolve(o)
	if err != nil {
		return nil, &Error{Op: opFind, Kind: ErrUnreachable, Err: err,
			Hint: "Check `docker context ls`, DOCKER_CONTEXT, DOCKER_HOST, DOCKER_CERT_PATH and DOCKER_TLS_VERIFY."}
	}
	cli, err := newClient(ep, true)
	if err != nil {
		return nil, &Error{Op: "configure the Docker client", Kind: ErrUnreachable, Err: err, Where: ep.String(), Endpoint: ep,
			Hint: "Check DOCKER_HOST, DOCKER_CERT_PATH and DOCKER_TLS_VERIFY, or the context's TLS material (`docker context inspect`)."}
	}
	raw, err := newClient(ep, false)
	if err != nil {
		return nil, &Error{Op: "configure the Docker client", Kind: ErrUnreachable, Err: err, Where: ep.String(), Endpoint: ep}
	}
	d := &docker{cli: cli, raw: raw, ep: ep, host: ep.String()}
	pingCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	ping, err := cli.Ping(pingCtx)
	if err != nil {
		_ = cli.Close()
		_ = raw.Close()
		if ctx.Err() == nil && pingCtx.Err() != nil {
			err = &Error{Op: "connect to the Docker Engine", Kind: ErrUnreachable, Err: pingCtx.Err(), Hint: hintFor(ep), Where: d.host, Endpoint: ep}
			return nil, err
		}
		return nil, d.wrapUnreachable("connect to the Docker Engine", err)
	}
	cli.NegotiateAPIVersionPing(ping)
	raw.NegotiateAPIVersionPing(ping)
	d.engineAPI = ping.APIVersion
	return d, nil
}

// newClient is the Docker client for ep: its address, its transport (TLS, or
// the ssh helper's connections), DOCKER_API_VERSION, version negotiation and
// the answer timeout.
// newClient makes a client of ep. With capped, answers that are not streams
// are cut off by size and time (answerlimit.go); the wrapped transport is no
// *http.Transport, so the client could not dial a hijacked connection (exec
// attach) over TLS or ssh: those go through an uncapped client.
func newClient(ep *endpoint.Endpoint, capped bool) (*client.Client, error) {
	hc, err := ep.HTTPClient(AnswerTimeout())
	if err != nil {
		return nil, err
	}
	opts := []client.Opt{client.WithHost(ep.DialHost())}
	if hc != nil {
		opts = append(opts, client.WithHTTPClient(hc))
		if d, ok := hc.Transport.(*http.Transport); ok && ep.Kind == endpoint.SSH {
			opts = append(opts, client.WithDialContext(d.DialContext))
		}
	}
	var kept *http.Client
	opts = append(opts, client.WithVersionFromEnv(), client.WithAPIVersionNegotiation(), withAnswerTimeout(AnswerTimeout()), keepHTTPClient(&kept))
	cli, err := client.NewClientWithOpts(opts...)
	if err == nil && capped {
		capAnswers(kept, MaxAnswer, AnswerTimeout())
	}
	return cli, err
}

// Endpoint is the engine's address and what it is (local or not, its
// context, its ssh target).
func (d *docker) Endpoint() *endpoint.Endpoint { return d.ep }

// EndpointOf is the endpoint of e when it knows one (the Docker adapter and
// fakes that set one), else a local unix socket.
func EndpointOf(e Engine) *endpoint.Endpoint {
	if h, ok := e.(interface{ Endpoint() *endpoint.Endpoint }); ok && h.Endpoint() != nil {
		return h.Endpoint()
	}
	return &endpoint.Endpoint{Context: endpoint.DefaultContext, Host: "unix:///var/run/docker.sock", Kind: endpoint.Unix, Local: true, Source: "the default socket"}
}

// AnswerTimeout is how long devenv waits for the engine to start answering a
// request: DEVENV_ENGINE_TIMEOUT (a Go duration), else 2 minutes. Streams
// that have started (build output, logs) are not limited by it.
func AnswerTimeout() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("DEVENV_ENGINE_TIMEOUT")); err == nil && d > 0 {
		return d
	}
	return 2 * time.Minute
}

// withAnswerTimeout bounds the wait for the engine's response headers, so an
// engine that accepts a request and never answers fails the call (as
// unreachable) instead of hanging devenv. It must follow client.FromEnv,
// which makes the transport.
func withAnswerTimeout(d time.Duration) client.Opt {
	return func(c *client.Client) error {
		if tr, ok := c.HTTPClient().Transport.(*http.Transport); ok {
			tr.ResponseHeaderTimeout = d
		}
		return nil
	}
}

// wrapUnreachable is wrap for calls whose every failure means the engine
// could not be reached (like the initial ping).
func (d *docker) wrapUnreachable(op string, err error) error {
	w := wrap(op, d.host, err)
	var e *Error
	if errors.As(w, &e) {
		if e.Kind == nil {
			e.Kind, e.Hint, e.Where = ErrUnreachable, hintFor(d.ep), d.host
		}
		if errors.Is(e.Kind, ErrUnreachable) {
			e.Endpoint = d.ep
			if NotThisMachine(e) {
				e.Hint = hintFor(d.ep)
			}
		}
	}
	return w
}

// wrap maps err to the package's sentinels.
func (d *docker) wrap(op string, err error) error { return wrap(op, d.host, err) }

// Close releases the client's connections.
// hijacker is the client for hijacked connections: the uncapped one when
// there is one.
func (d *docker) hijacker() *client.Client {
	if d.raw != nil {
		return d.raw
	}
	return d.cli
}

func (d *docker) Close() error {
	if d.raw != nil {
		_ = d.raw.Close()
	}
	return d.cli.Close()
}

// Info asks the engine about itself.
func (d *docker) Info(ctx context.Context) (Info, error) {
	in, err := d.cli.Info(ctx)
	if err != nil {
		return Info{}, d.wrap("ask the Docker Engine for its info", err)
	}
	runtimes := make([]string, 0, len(in.Runtimes))
	for name := range in.Runtimes {
		runtimes = append(runtimes, name)
	}
	sort.Strings(runtimes)
	_, nvidia := in.Runtimes["nvidia"]
	var devices []string
	for _, dev := range in.DiscoveredDevices {
		devices = append(devices, dev.Source+":"+dev.ID)
	}
	return Info{
		ServerVersion:     in.ServerVersion,
		APIVersion:        d.cli.ClientVersion(),
		EngineAPI:         d.engineAPI,
		OS:                in.OperatingSystem,
		OSType:            in.OSType,
		Architecture:      in.Architecture,
		DockerRootDir:     in.DockerRootDir,
		NCPU:              in.NCPU,
		MemTotal:          in.MemTotal,
		Runtimes:          runtimes,
		DefaultRuntime:    in.DefaultRuntime,
		CDISpecDirs:       in.CDISpecDirs,
		NvidiaRuntime:     nvidia || in.DefaultRuntime == "nvidia",
		DiscoveredDevices: devices,
	}, nil
}
