package engine

import (
	"context"
	"errors"
	"net/http"
	"os"
	"sort"
	"time"

	"github.com/docker/docker/client"
)

// docker is the Engine backed by the Docker Engine API.
type docker struct {
	cli       *client.Client
	host      string
	engineAPI string // the newest API version the engine speaks
}

// Connect reaches the Docker Engine the way the docker CLI does (DOCKER_HOST,
// DOCKER_TLS_VERIFY, DOCKER_CERT_PATH, DOCKER_API_VERSION, else the local
// socket), pings it and negotiates the API version, so both old (API 1.41)
// and new engines work. An engine that does not answer yields ErrUnreachable.
func Connect(ctx context.Context) (Engine, error) {
	var hc *http.Client
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation(), withAnswerTimeout(AnswerTimeout()), keepHTTPClient(&hc))
	if err != nil {
		return nil, &Error{Op: "configure the Docker client", Kind: ErrUnreachable, Err: err,
			Hint: "Check DOCKER_HOST, DOCKER_CERT_PATH and DOCKER_TLS_VERIFY."}
	}
	capAnswers(hc, MaxAnswer, AnswerTimeout()) // answers that are not streams end (answerlimit.go)
	d := &docker{cli: cli, host: cli.DaemonHost()}
	pingCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	ping, err := cli.Ping(pingCtx)
	if err != nil {
		_ = cli.Close()
		if ctx.Err() == nil && pingCtx.Err() != nil {
			err = &Error{Op: "connect to the Docker Engine", Kind: ErrUnreachable, Err: pingCtx.Err(), Hint: hintUnreachable, Where: d.host}
			return nil, err
		}
		return nil, d.wrapUnreachable("connect to the Docker Engine", err)
	}
	cli.NegotiateAPIVersionPing(ping)
	d.engineAPI = ping.APIVersion
	return d, nil
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
	if errors.As(w, &e) && e.Kind == nil {
		e.Kind, e.Hint, e.Where = ErrUnreachable, hintUnreachable, d.host
	}
	return w
}

// wrap maps err to the package's sentinels.
func (d *docker) wrap(op string, err error) error { return wrap(op, d.host, err) }

// Close releases the client's connections.
func (d *docker) Close() error { return d.cli.Close() }

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
	return Info{
		ServerVersion:  in.ServerVersion,
		APIVersion:     d.cli.ClientVersion(),
		EngineAPI:      d.engineAPI,
		OS:             in.OperatingSystem,
		OSType:         in.OSType,
		Architecture:   in.Architecture,
		DockerRootDir:  in.DockerRootDir,
		NCPU:           in.NCPU,
		MemTotal:       in.MemTotal,
		Runtimes:       runtimes,
		DefaultRuntime: in.DefaultRuntime,
		CDISpecDirs:    in.CDISpecDirs,
		NvidiaRuntime:  nvidia || in.DefaultRuntime == "nvidia",
	}, nil
}
