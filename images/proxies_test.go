package images

import (
	"errors"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

var testProxies = map[string]string{
	"HTTP_PROXY": "http://u:s3cret@proxy.corp:3128", "http_proxy": "http://u:s3cret@proxy.corp:3128",
	"NO_PROXY": "localhost", "no_proxy": "localhost",
}

// TestProxiesAreBuildArgsNotInputs: the docker CLI's proxies reach the
// service's build as build arguments (a compose service's own build.args
// win), and leave the image's hash alone: a changed proxy rebuilds nothing.
func TestProxiesAreBuildArgsNotInputs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     func(t *testing.T) Input
		own    string // the build's own HTTP_PROXY, "" for none
		wantIn string // the HTTP_PROXY the build gets
	}{
		{"generated Dockerfile", func(t *testing.T) Input { return buildProject(t) }, "", testProxies["HTTP_PROXY"]},
		{"compose build.args win", func(t *testing.T) Input {
			in := staticBinaryProject(t)
			in.BuildArgs = map[string]string{"HTTP_PROXY": "http://own:3128"}
			return in
		}, "http://own:3128", "http://own:3128"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			eng := &countingEngine{Engine: enginetest.New()}
			before := mustHash(t, in)
			if _, err := Build(t.Context(), eng, in, Options{Proxies: testProxies}, nil); err != nil {
				t.Fatal(err)
			}
			if after := mustHash(t, in); after != before {
				t.Errorf("hash changed with the proxies: %s -> %s", before, after)
			}
			req := eng.requests[len(eng.requests)-1]
			if got := req.BuildArgs["HTTP_PROXY"]; got == nil || *got != tc.wantIn {
				t.Errorf("HTTP_PROXY build arg = %v, want %q", got, tc.wantIn)
			}
			if got := req.BuildArgs["no_proxy"]; got == nil || *got != "localhost" {
				t.Errorf("no_proxy build arg = %v, want localhost", got)
			}
			if strings.Contains(eng.dockerfiles[len(eng.dockerfiles)-1], "proxy.corp") {
				t.Error("the proxy reached the Dockerfile")
			}
			again, err := Build(t.Context(), eng, in, Options{Proxies: map[string]string{"HTTP_PROXY": "http://other:1"}}, nil)
			if err != nil || again.Built {
				t.Errorf("a changed proxy rebuilt the image (%+v, %v)", again, err)
			}
		})
	}
}

// TestLoopbackProxyBuildsOnTheHostNetwork: a proxy on this machine's
// loopback (cntlm, px) is reachable from a build only on the host network.
func TestLoopbackProxyBuildsOnTheHostNetwork(t *testing.T) {
	for proxy, want := range map[string]string{"http://127.0.0.1:3128": "host", "http://proxy.corp:3128": ""} {
		eng := &countingEngine{Engine: enginetest.New()}
		if _, err := Build(t.Context(), eng, buildProject(t), Options{Proxies: map[string]string{"HTTPS_PROXY": proxy}}, nil); err != nil {
			t.Fatal(err)
		}
		if got := eng.requests[len(eng.requests)-1].NetworkMode; got != want {
			t.Errorf("proxy %s: network %q, want %q", proxy, got, want)
		}
	}
}

// TestProxyPasswordMasked: what a build prints of the proxy's password
// (a step that prints its environment) is masked in the progress shown
// and in the failed build's error.
func TestProxyPasswordMasked(t *testing.T) {
	eng := failingStep{Engine: enginetest.New(), cmd: "env", stream: []string{
		"HTTP_PROXY=http://u:s3cret@proxy.corp:3128\n", "token s3cret in plain text\n"}}
	var shown []string
	_, err := Build(t.Context(), eng, buildProject(t), Options{Proxies: testProxies}, func(p engine.Progress) { shown = append(shown, p.Stream) })
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("Build = %v, want a *BuildError", err)
	}
	if all := strings.Join(shown, "") + err.Error(); strings.Contains(all, "s3cret") || !strings.Contains(all, "proxy.corp") {
		t.Errorf("the proxy's password shows, or the proxy does not:\n%s", all)
	}
}
