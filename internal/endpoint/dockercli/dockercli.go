// Package dockercli builds the docker CLI value (docker/cli's DockerCli)
// the Compose SDK runs on, for the engine internal/endpoint resolved. It is
// a package of its own so that only the binary that runs the SDK links
// docker/cli's command package and the moby client (10 MB): devenv's
// engine client needs neither.
package dockercli

import (
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/docker/cli/cli/command"
	cliflags "github.com/docker/cli/cli/flags"
	"github.com/moby/moby/client"
)

// CLIOptions say how the SDK's docker CLI value talks to the user.
type CLIOptions struct {
	Out, Err io.Writer // nil: devenv's standard streams
	// Answer bounds the wait for response headers of calls that are not
	// streams (0: none).
	Answer time.Duration
}

// New is the docker CLI value the Compose SDK runs on
// (compose.NewComposeService takes it), reaching the very engine e names:
// its API client is a moby client on e's address and transport (TLS, or
// the ssh helper's connections), negotiating the API version, and it is
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

// mobyClient is the moby/moby client (the one the Compose SDK is built
// on) for e's address and transport.
func mobyClient(e *endpoint.Endpoint, answer time.Duration) (*client.Client, error) {
	hc, err := e.HTTPClient(answer)
	if err != nil {
		return nil, err
	}
	var opts []client.Opt
	if hc == nil {
		// a plain unix or tcp address: the client's own transport for it
		// (WithHost configures it), with the answer timeout
		hc = &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: answer, MaxIdleConns: 6, IdleConnTimeout: 30 * time.Second}}
		// (no TLS here: cloning the transport would otherwise make it look like https)
		opts = append(opts, client.WithHTTPClient(hc), client.WithHost(e.DialHost()), client.WithScheme("http"))
	} else {
		opts = append(opts, client.WithHost(e.DialHost()))
		opts = append(opts, client.WithHTTPClient(hc))
		if tr, ok := hc.Transport.(*http.Transport); ok && e.Kind == endpoint.SSH {
			opts = append(opts, client.WithDialContext(tr.DialContext))
		}
	}
	opts = append(opts, client.WithAPIVersionFromEnv(), client.WithUserAgent(command.UserAgent()))
	return client.New(opts...)
}
