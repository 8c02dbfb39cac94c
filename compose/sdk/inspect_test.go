package sdk

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/docker/cli/cli"
	"github.com/docker/compose/v5/pkg/api"
	"github.com/moby/moby/client"
)

// TestFromSummary: ps shows the ports a running container publishes,
// not those it only exposes, with the summary's state, health and code.
func TestFromSummary(t *testing.T) {
	got := fromSummary(api.ContainerSummary{ID: "c1", Name: "p-app", Image: "img:1", State: "running", Health: "healthy",
		Labels: map[string]string{"k": "v"},
		Publishers: api.PortPublishers{
			{URL: "127.0.0.1", TargetPort: 8080, PublishedPort: 18080, Protocol: "tcp"},
			{TargetPort: 9000, Protocol: "tcp"}, // EXPOSE only
		}})
	want := engine.ContainerState{ID: "c1", Name: "p-app", Image: "img:1", Status: "running", Running: true, Health: "healthy",
		Labels: map[string]string{"k": "v"},
		Ports:  []engine.PortBinding{{HostIP: "127.0.0.1", HostPort: 18080, ContainerPort: 8080, Protocol: "tcp"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fromSummary:\n%+v\nwant\n%+v", got, want)
	}
	if got := fromSummary(api.ContainerSummary{State: "exited", ExitCode: 137}); got.Running || got.ExitCode != 137 || got.Status != "exited" {
		t.Errorf("an exited container: %+v", got)
	}
}

// TestExecResult: a command's non-zero exit is its code, not an error;
// the SDK finding no running container is ErrNotFound (exec's hint to
// run up); an ended context stays the context's error.
func TestExecResult(t *testing.T) {
	x := New(&endpoint.Endpoint{Host: "unix:///var/run/docker.sock"}, endpoint.Options{}, nil)
	for _, c := range []struct {
		name    string
		err     error
		code    int
		wantErr bool
		is      error // the result is this error, when set
	}{
		{"success", nil, 0, false, nil},
		{"a non-zero exit", cli.StatusError{StatusCode: 3}, 3, false, nil},
		{"the connection lost before the exit code", cli.StatusError{StatusCode: -1}, 0, true, nil},
		{"no running container", fmt.Errorf(`service "db" is not running`), 0, true, engine.ErrNotFound},
		{"Ctrl-C", context.Canceled, 0, true, context.Canceled},
		{"the engine refused", errors.New("boom"), 0, true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, err := x.execResult("run", "db", c.err)
			if code != c.code || (err != nil) != c.wantErr || (c.is != nil && !errors.Is(err, c.is)) {
				t.Errorf("exit %d, %v; want exit %d, an error %v (%v)", code, err, c.code, c.wantErr, c.is)
			}
		})
	}
}

// pings answers pings, failing from the nth on (0: never).
type pings struct {
	failFrom int
	n        atomic.Int32
}

func (p *pings) Ping(ctx context.Context, _ client.PingOptions) (client.PingResult, error) {
	if n := int(p.n.Add(1)); p.failFrom > 0 && n >= p.failFrom {
		return client.PingResult{}, errors.New("timeout awaiting response headers")
	}
	return client.PingResult{}, ctx.Err()
}

// TestWatch: a stream under the watchdog ends with its own result while
// the engine answers pings; when a ping fails the stream's context is
// cancelled and the result is the silent-engine error; a caller's
// cancel is never reported as a silent engine.
func TestWatch(t *testing.T) {
	silent := errors.New("the engine stopped answering")
	untilCancelled := func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
	t.Run("answered pings", func(t *testing.T) {
		own := errors.New("the stream's own end")
		p := &pings{}
		// the stream ends once the watchdog has pinged twice, however long
		// a loaded machine takes to run its ticker: no timing is assumed
		err := watchEngine(t.Context(), p, time.Second, time.Millisecond, func(ctx context.Context) error {
			for p.n.Load() < 2 {
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(time.Millisecond):
				}
			}
			return own
		}, func() error { return silent })
		if !errors.Is(err, own) || p.n.Load() == 0 {
			t.Errorf("err %v after %d pings, want the stream's own", err, p.n.Load())
		}
	})
	t.Run("a failed ping", func(t *testing.T) {
		err := watchEngine(t.Context(), &pings{failFrom: 3}, time.Second, time.Millisecond, untilCancelled, func() error { return silent })
		if !errors.Is(err, silent) {
			t.Errorf("err %v, want the silent engine's", err)
		}
	})
	t.Run("the caller cancels", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
		defer cancel()
		err := watchEngine(ctx, &pings{}, time.Second, time.Millisecond, untilCancelled, func() error { return silent })
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err %v, want the caller's deadline", err)
		}
	})
}
