package app

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/remote"
)

// fakeTunnel records forwards as a Tunnel would hold them.
type fakeTunnel struct {
	mu  sync.Mutex
	now []remote.Forward
}

func (f *fakeTunnel) Forwards() []remote.Forward {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.now)
}

func (f *fakeTunnel) Add(_ context.Context, fs []remote.Forward) ([]remote.Forward, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range fs {
		if fs[i].Local == 0 {
			fs[i].Local = 40000 + fs[i].Remote%1000
		}
	}
	f.now = append(f.now, fs...)
	return fs, nil
}

func (f *fakeTunnel) Remove(_ context.Context, fs []remote.Forward) []remote.Forward {
	f.mu.Lock()
	defer f.mu.Unlock()
	var gone []remote.Forward
	f.now = slices.DeleteFunc(f.now, func(h remote.Forward) bool {
		if slices.ContainsFunc(fs, h.Same) {
			gone = append(gone, h)
			return true
		}
		return false
	})
	return gone
}

func (f *fakeTunnel) services() []string {
	var out []string
	for _, h := range f.Forwards() {
		out = append(out, h.Service)
	}
	slices.Sort(out)
	return out
}

// TestWatchFollowsThePorts: a service started after the watch began gets
// its port forwarded without a new watch, and a stopped one's forward goes.
func TestWatchFollowsThePorts(t *testing.T) {
	const yaml = `name: demo
services:
  web:
    profile: image
    image: busybox:1
    ports: ["127.0.0.1:18080:80"]
  api:
    profile: image
    image: busybox:1
    ports: ["127.0.0.1:18081:81"]
`
	w := newWorld(t, yaml, map[string]string{})
	w.lock(t)
	ctx := t.Context()
	if _, err := w.open(t).Up(ctx, UpOptions{Services: []string{"web"}, SkipGPUCheck: true}); err != nil {
		t.Fatal(err)
	}
	p := w.open(t)
	if _, err := p.Engine(ctx); err != nil {
		t.Fatal(err)
	}
	tun := &fakeTunnel{}
	var mu sync.Mutex
	var told, untold []string
	o := WatchOptions{PortsInterval: 10 * time.Millisecond,
		Forwarded: func(fs []remote.Forward) {
			mu.Lock()
			defer mu.Unlock()
			for _, f := range fs {
				told = append(told, f.Service)
			}
		},
		Unforwarded: func(fs []remote.Forward) {
			mu.Lock()
			defer mu.Unlock()
			for _, f := range fs {
				untold = append(untold, f.Service)
			}
		}}
	stop := p.followPorts(ctx, tun, o)
	defer stop()
	waitUntil(t, "web forwarded", func() bool { return slices.Equal(tun.services(), []string{"web"}) })
	if _, err := w.open(t).Up(ctx, UpOptions{Services: []string{"api"}, SkipGPUCheck: true}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "api forwarded once it started", func() bool { return slices.Equal(tun.services(), []string{"api", "web"}) })
	if _, err := w.open(t).Stop(ctx, ServiceOptions{Services: []string{"web"}}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "web's forward removed once it stopped", func() bool { return slices.Equal(tun.services(), []string{"api"}) })
	stop()
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(told, []string{"web", "api"}) || !slices.Equal(untold, []string{"web"}) {
		t.Errorf("told forwarded %v, unforwarded %v", told, untold)
	}
}

// TestMatchForwardsKeepsTheURLOfAMovedPort: a restart publishes a port
// without a host port on another port of the engine's machine; its forward
// keeps its local port (the URL the user holds), and only ports that no
// container publishes any more are told as gone.
func TestMatchForwardsKeepsTheURLOfAMovedPort(t *testing.T) {
	web := remote.Forward{Service: "web", ContainerPort: 8080, Remote: 32768}
	api := remote.Forward{Service: "api", ContainerPort: 8081, Remote: 32769}
	moved := web
	moved.Remote = 32790
	for _, c := range []struct {
		name      string
		want      []remote.Forward
		local     map[string]int // service: local port afterwards
		told, unt []string
	}{
		{"web moved", []remote.Forward{moved, api}, map[string]int{"web": 40768, "api": 40769}, []string{"web"}, nil},
		{"api stopped", []remote.Forward{web}, map[string]int{"web": 40768}, nil, []string{"api"}},
		{"api moved to web's old port", []remote.Forward{{Service: "api", ContainerPort: 8081, Remote: 32768}}, map[string]int{"api": 40769}, []string{"api"}, []string{"web"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tun := &fakeTunnel{}
			if _, err := tun.Add(t.Context(), []remote.Forward{web, api}); err != nil {
				t.Fatal(err)
			}
			var told, untold []string
			o := WatchOptions{
				Forwarded: func(fs []remote.Forward) {
					for _, f := range fs {
						told = append(told, f.Service)
					}
				},
				Unforwarded: func(fs []remote.Forward) {
					for _, f := range fs {
						untold = append(untold, f.Service)
					}
				}}
			(&Project{}).matchForwards(t.Context(), tun, c.want, o, newFollowState())
			got := map[string]int{}
			for _, f := range tun.Forwards() {
				got[f.Service] = f.Local
			}
			if !maps.Equal(got, c.local) || !slices.Equal(told, c.told) || !slices.Equal(untold, c.unt) {
				t.Errorf("local ports %v (want %v), told forwarded %v (want %v), unforwarded %v (want %v)", got, c.local, told, c.told, untold, c.unt)
			}
		})
	}
}

// TestMatchForwardsKeepsTheURLOfAPortThatCameBack: a restart seen between
// two reads (the first sync's restart of the services, in CI) removes the
// forward, and the next read finds the port again on another port of the
// engine's machine; the forward comes back on the URL it had.
func TestMatchForwardsKeepsTheURLOfAPortThatCameBack(t *testing.T) {
	web := remote.Forward{Service: "web", ContainerPort: 8080, Remote: 32768}
	back := web
	back.Remote = 32790
	tun := &fakeTunnel{}
	if _, err := tun.Add(t.Context(), []remote.Forward{web}); err != nil {
		t.Fatal(err)
	}
	st := newFollowState()
	p := &Project{}
	for _, want := range [][]remote.Forward{nil, {back}} {
		p.matchForwards(t.Context(), tun, want, WatchOptions{}, st)
	}
	fs := tun.Forwards()
	if len(fs) != 1 || fs[0].Local != 40768 || fs[0].Remote != 32790 {
		t.Errorf("forwards after the port came back: %+v; want web on local port 40768 from the engine's 32790", fs)
	}
}

func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not in 5 s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
