// Package dockercli builds the docker CLI value (docker/cli's DockerCli)
// the Compose SDK runs on, for the engine internal/endpoint resolved. It is
// a package of its own so that only the binary that runs the SDK links
// docker/cli's command package and the moby client (10 MB): devenv's
// engine client needs neither.
package dockercli

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/docker/cli/cli/command"
	cliflags "github.com/docker/cli/cli/flags"
	"github.com/docker/go-connections/sockets"
	"github.com/moby/moby/client"
)

// CLIOptions say how the SDK's docker CLI value talks to the user.
type CLIOptions struct {
	Out, Err io.Writer // nil: devenv's standard streams
	// Answer bounds the wait for response headers of calls that are not
	// streams, and the reading of their answers (0: none). Those answers
	// are read at most engine.MaxAnswer bytes either way.
	Answer time.Duration
}

// New is the docker CLI value the Compose SDK runs on
// (compose.NewComposeService takes it), reaching the very engine e names:
// its API client is a moby client on e's address and transport (TLS, or
// the ssh helper's connections), negotiating the API version, its answers
// capped as devenv's own client's are (sdkClient), and it is
// initialized with e's context (or its --host address), so the SDK reads
// the same config.json and context store as the docker CLI and devenv.
// o is what e was resolved with (its ConfigDir).
func New(e *endpoint.Endpoint, o endpoint.Options, co CLIOptions) (*command.DockerCli, error) {
	api, err := mobyClient(e, co.Answer)
	if err != nil {
		return nil, fmt.Errorf("Docker client for %s: %w", e, err)
	}
	ops := []command.CLIOption{command.WithAPIClient(api)}
	if co.Out != nil {
		ops = append(ops, command.WithOutputStream(co.Out))
	}
	if co.Err != nil {
		ops = append(ops, command.WithErrorStream(co.Err))
	}
	cli, err := command.NewDockerCli(ops...)
	if err != nil {
		_ = api.Close()
		return nil, fmt.Errorf("docker CLI for %s: %w", e, err)
	}
	if err := cli.Initialize(clientOptions(e, o)); err != nil {
		_ = api.Close()
		return nil, fmt.Errorf("docker CLI for %s: %w", e, err)
	}
	return cli, nil
}

// clientOptions are the docker CLI's flags that pick e: its context, or
// for the default context its address, so docker/cli's own resolution
// (which reads the environment again) cannot land elsewhere.
func clientOptions(e *endpoint.Endpoint, o endpoint.Options) *cliflags.ClientOptions {
	opts := cliflags.NewClientOptions()
	opts.ConfigDir = o.ConfigDir
	if e.Context != endpoint.DefaultContext {
		opts.Context = e.Context
		return opts
	}
	opts.Hosts = []string{e.Host}
	return opts
}

// sdkClient is the SDK's client of the engine: each answer that is not a
// stream is capped as devenv's own client's are (engine.CapAnswers), so a
// broken or hostile engine cannot make devenv read without end. The moby
// client dials hijacked connections (attach, exec) from its own
// *http.Transport, which the cap wraps away; those go through hijack, an
// uncapped client of the same engine (they are streams, which the cap
// leaves alone anyway).
type sdkClient struct {
	*client.Client
	capped *http.Client // Client's, to close its idle connections
	hijack *client.Client
}

func (c *sdkClient) ContainerAttach(ctx context.Context, id string, o client.ContainerAttachOptions) (client.ContainerAttachResult, error) {
	return c.hijack.ContainerAttach(ctx, id, o)
}

func (c *sdkClient) ExecAttach(ctx context.Context, id string, o client.ExecAttachOptions) (client.ExecAttachResult, error) {
	return c.hijack.ExecAttach(ctx, id, o)
}

func (c *sdkClient) DialHijack(ctx context.Context, url, proto string, meta map[string][]string) (net.Conn, error) {
	return c.hijack.DialHijack(ctx, url, proto, meta)
}

func (c *sdkClient) Dialer() func(context.Context) (net.Conn, error) { return c.hijack.Dialer() }

func (c *sdkClient) Close() error {
	c.capped.CloseIdleConnections()
	return c.hijack.Close()
}

// mobyClient is the moby/moby client (the one the Compose SDK is built on)
// for e's address and transport, its answers capped.
func mobyClient(e *endpoint.Endpoint, answer time.Duration) (*sdkClient, error) {
	tr, err := transport(e, answer)
	if err != nil {
		return nil, err
	}
	scheme := "http"
	if tr.TLSClientConfig != nil {
		scheme = "https"
	}
	capped := &http.Client{Transport: engine.CapAnswers(tr, answer)}
	// WithHost before WithHTTPClient, which takes (a copy of) tr as it
	// is: WithHost would configure the transport for the address again
	// and drop the ssh helper's dialer.
	c, err := client.New(client.WithHost(e.DialHost()), client.WithHTTPClient(capped), client.WithScheme(scheme),
		client.WithAPIVersionFromEnv(), client.WithUserAgent(command.UserAgent()))
	if err != nil {
		return nil, err
	}
	hijack, err := client.New(client.WithHost(e.DialHost()), client.WithHTTPClient(&http.Client{Transport: tr}),
		client.WithAPIVersionFromEnv(), client.WithUserAgent(command.UserAgent()))
	if err != nil {
		return nil, err
	}
	return &sdkClient{Client: c, capped: capped, hijack: hijack}, nil
}

// transport is the HTTP transport for e: TLS or the ssh helper's
// connections as e says, else the moby client's own for a unix or tcp
// address; ResponseHeaderTimeout is answer.
func transport(e *endpoint.Endpoint, answer time.Duration) (*http.Transport, error) {
	hc, err := e.HTTPClient(answer)
	if err != nil {
		return nil, err
	}
	if hc != nil {
		if tr, ok := hc.Transport.(*http.Transport); ok {
			return tr, nil
		}
		return nil, fmt.Errorf("unexpected HTTP transport %T", hc.Transport)
	}
	u, err := client.ParseHostURL(e.DialHost())
	if err != nil {
		return nil, err
	}
	tr := &http.Transport{ResponseHeaderTimeout: answer}
	if err := sockets.ConfigureTransport(tr, u.Scheme, u.Host); err != nil {
		return nil, err
	}
	return tr, nil
}
