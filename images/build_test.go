package images

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/labels"
)

// countingEngine counts the builds reaching the engine it wraps and keeps
// each build's request and context file names.
type countingEngine struct {
	engine.Engine
	mu          sync.Mutex
	builds      int
	requests    []engine.BuildRequest
	contexts    [][]string
	dockerfiles []string
}

// dockerfileOf is the Dockerfile of a build context.
func dockerfileOf(data []byte) string {
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		hdr, err := tr.Next()
		if err != nil {
			return ""
		}
		if hdr.Name == "Dockerfile" {
			b, _ := io.ReadAll(tr)
			return string(b)
		}
	}
}

func (c *countingEngine) Build(ctx context.Context, req engine.BuildRequest, progress func(engine.Progress)) (string, error) {
	data, err := io.ReadAll(req.Context)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	c.builds++
	c.requests = append(c.requests, req)
	c.contexts = append(c.contexts, tarNamesNoCheck(bytes.NewReader(data)))
	c.dockerfiles = append(c.dockerfiles, dockerfileOf(data))
	c.mu.Unlock()
	req.Context = bytes.NewReader(data)
	return c.Engine.Build(ctx, req, progress)
}

func (c *countingEngine) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.builds
}

// buildProject is a valid spark-rapids input with its files on disk.
func buildProject(t *testing.T) Input {
	t.Helper()
	return hashProject(t, t.TempDir())
}

func TestBuildOnlyWhenMissing(t *testing.T) {
	ctx := t.Context()
	eng := &countingEngine{Engine: enginetest.New()}
	in := buildProject(t)
	hash := mustHash(t, in)
	steps := []struct {
		name      string
		opts      Options
		wantBuilt bool
		builds    int
	}{
		// two artifact images (Spark, the RAPIDS jar) and the service's
		{"first build", Options{Labels: map[string]string{"extra": "x", labels.Project: "spoofed"}}, true, 3},
		{"same inputs: no build", Options{}, false, 3},
		{"no cache: rebuild", Options{NoCache: true}, true, 6},
	}
	for _, s := range steps {
		res, err := Build(ctx, eng, in, s.opts, nil)
		if err != nil {
			t.Fatalf("%s: Build: %v", s.name, err)
		}
		if want := Tag("etl", "spark", hash); res.Tag != want || res.Built != s.wantBuilt {
			t.Errorf("%s: Build = %+v, want Tag %s Built %v", s.name, res, want, s.wantBuilt)
		}
		if eng.count() != s.builds {
			t.Errorf("%s: %d builds reached the engine, want %d", s.name, eng.count(), s.builds)
		}
	}
	first, rebuild := eng.serviceBuilds()[0], eng.serviceBuilds()[1]
	req := eng.requests[first]
	// One LABEL instruction: the classic builder makes a step of each label
	// of the request.
	wantLabels := map[string]string{"extra": "x", labels.Project: "etl", labels.Service: "spark", labels.ConfigHash: hash}
	df := eng.dockerfiles[first]
	_, last, _ := strings.Cut(df, "\nLABEL ")
	for k, v := range wantLabels {
		if !strings.Contains(last, fmt.Sprintf("%q=%q", k, v)) {
			t.Errorf("label %s=%q is not in the Dockerfile's last instruction:\nLABEL %s", k, v, last)
		}
	}
	if len(req.Labels) != 0 || strings.Count(df, "\nLABEL ") != 1 {
		t.Errorf("labels %v in the request, or not one LABEL instruction:\n%s", req.Labels, df)
	}
	if req.Dockerfile != "Dockerfile" || !eng.requests[rebuild].NoCache || req.BuildArgs != nil {
		t.Errorf("request Dockerfile %q, NoCache of the rebuild %v, build args %v", req.Dockerfile, eng.requests[rebuild].NoCache, req.BuildArgs)
	}
	if !slices.Contains(eng.contexts[first], "Dockerfile") || slices.Contains(eng.contexts[first], ".env") {
		t.Errorf("context sent = %v", eng.contexts[first])
	}
}

// serviceBuilds are the indexes of the builds of service images (not of
// artifact images).
func (c *countingEngine) serviceBuilds() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []int
	for i, r := range c.requests {
		if !strings.HasPrefix(r.Tags[0], "devenv/artifact:") {
			out = append(out, i)
		}
	}
	return out
}

// TestBuildSendsEachArtifactOnce: artifacts reach the engine in their own
// images, once each; a jar added later sends that jar alone, a service
// build sends no artifact, and another project on the engine reuses them.
func TestBuildSendsEachArtifactOnce(t *testing.T) {
	eng := &countingEngine{Engine: enginetest.New()}
	in := buildProject(t)
	res, err := Build(t.Context(), eng, in, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantContexts := [][]string{
		{"Dockerfile", "spark-3.5.1-bin-hadoop3.tgz"},
		{"Dockerfile", "rapids-4-spark_2.12-25.06.0.jar"},
		{"Dockerfile", "extra/getGpusResources.sh", "requirements.txt", "certs/00-corp.crt"},
	}
	checkContexts(t, "first build", eng.contexts, wantContexts)
	if len(res.Artifacts) != 2 || !res.Artifacts[0].Built || res.Artifacts[0].Bytes == 0 || res.ContextBytes == 0 {
		t.Errorf("first build's result %+v does not report two artifact images built and the bytes sent", res)
	}

	jar := filepath.Join(in.ProjectDir, "dl", "delta.jar")
	writeFiles(t, in.ProjectDir, map[string]string{"dl/delta.jar": "PK jar"})
	in.Files = append(in.Files, File{Name: "delta-spark_2.12-3.2.0.jar", Path: jar, SHA256: shaJar})
	res, err = Build(t.Context(), eng, in, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkContexts(t, "a jar added", eng.contexts[3:], [][]string{{"Dockerfile", "delta-spark_2.12-3.2.0.jar"}, wantContexts[2]})
	if len(res.Artifacts) != 3 || res.Artifacts[0].Built || res.Artifacts[1].Built || !res.Artifacts[2].Built {
		t.Errorf("after adding a jar, the result %+v does not say only the jar's image was built", res.Artifacts)
	}

	other := in
	other.Project = "other"
	if _, err := Build(t.Context(), eng, other, Options{}, nil); err != nil {
		t.Fatal(err)
	}
	checkContexts(t, "another project", eng.contexts[5:], [][]string{wantContexts[2]})
}

func checkContexts(t *testing.T, step string, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d builds reached the engine (%v), want %d (%v)", step, len(got), got, len(want), want)
	}
	for i := range want {
		g, w := slices.Sorted(slices.Values(got[i])), slices.Sorted(slices.Values(want[i]))
		if !slices.Equal(g, w) {
			t.Errorf("%s: build %d was sent %v, want %v", step, i, got[i], want[i])
		}
	}
}

func TestBuildPlainImage(t *testing.T) {
	fake := enginetest.New()
	in := Input{Project: "etl", Service: "db", Base: "postgres:16@sha256:" + shaJar}
	in.Resolved.Profile = "image"
	res, err := Build(t.Context(), fake, in, Options{}, nil)
	if err != nil || res.Tag != in.Base || res.Built {
		t.Errorf("Build = %+v, %v; want the image itself, not built", res, err)
	}
	if calls := fake.Calls(); len(calls) != 0 {
		t.Errorf("a plain image made engine calls: %v", calls)
	}
}

func TestBuildCredentialsNeverReachTheEngine(t *testing.T) {
	eng := &countingEngine{Engine: enginetest.New()}
	in := buildProject(t)
	in.PipIndexURL = "https://user:secret@pypi.corp.example/simple"
	if _, err := Build(t.Context(), eng, in, Options{}, nil); err != nil {
		t.Fatal(err)
	}
	i := eng.serviceBuilds()[0]
	req := eng.requests[i]
	seen := fmt.Sprintf("%v %v %v %v", req.Labels, req.Tags, req.Dockerfile, eng.contexts[i])
	for k, v := range req.BuildArgs {
		seen += " " + k + "=" + *v
	}
	if strings.Contains(seen, "secret") {
		t.Errorf("the mirror's password reached the engine: %s", seen)
	}
	arg := req.BuildArgs["PIP_INDEX_URL"]
	if arg == nil || !strings.HasPrefix(*arg, "http://127.0.0.1:") || !strings.HasSuffix(*arg, "/simple") || req.NetworkMode != "host" {
		t.Fatalf("PIP_INDEX_URL = %v on network %q, want devenv's loopback proxy on the host network", arg, req.NetworkMode)
	}
	if resp, err := http.Get(*arg + "/x/"); err == nil {
		_ = resp.Body.Close()
		t.Error("the credential proxy still runs after the build")
	}
	df, _ := Render(in)
	if bytes.Contains(df, []byte("secret")) {
		t.Errorf("the Dockerfile holds the mirror's credentials:\n%s", df)
	}
}

func TestBuildEngineFailure(t *testing.T) {
	fake := enginetest.New()
	boom := errors.New("step 3/9 failed")
	fake.Fail = map[string]error{"Build": boom}
	in := buildProject(t)
	_, err := Build(t.Context(), fake, in, Options{}, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("Build error = %v, want it to wrap the engine's", err)
	}
	if want := Tag("etl", "spark", mustHash(t, in)); !bytes.Contains([]byte(err.Error()), []byte(want)) {
		t.Errorf("error %q does not name the image %s", err, want)
	}
}

func TestBuildInvalidInputMakesNoEngineCall(t *testing.T) {
	fake := enginetest.New()
	in := buildProject(t)
	in.Resolved.Java = ""
	if _, err := Build(t.Context(), fake, in, Options{}, nil); err == nil {
		t.Fatal("Build with no Java: want an error")
	}
	if calls := fake.Calls(); len(calls) != 0 {
		t.Errorf("invalid input reached the engine: %v", calls)
	}
}

func TestBuildNetworkForLoopbackMirrors(t *testing.T) {
	for url, want := range map[string]string{
		"":                                 "",
		"http://127.0.0.1:8081/simple":     "host",
		"http://localhost/simple":          "host",
		"http://[::1]:3141/root/pypi":      "host",
		"https://pypi.corp.example/simple": "",
		"https://user:pw@10.1.2.3/simple":  "",
	} {
		if got := buildNetwork(url); got != want {
			t.Errorf("buildNetwork(%q) = %q, want %q", url, got, want)
		}
	}
}

// goneEngine reads a little of the build context, then fails the way the
// Docker client does when the engine goes away mid-build: the request body
// is closed (the context writer sees a closed pipe) and the call returns
// the connection error.
type goneEngine struct{ engine.Engine }

var errEngineGone = &engine.Error{Op: "build", Kind: engine.ErrUnreachable, Err: errors.New("connection reset by peer")}

func (goneEngine) Build(_ context.Context, req engine.BuildRequest, _ func(engine.Progress)) (string, error) {
	_, _ = req.Context.Read(make([]byte, 10))
	if c, ok := req.Context.(io.Closer); ok {
		_ = c.Close()
	}
	return "", errEngineGone
}

func TestBuildEngineGoneMidContextSaysSo(t *testing.T) {
	_, err := Build(t.Context(), goneEngine{enginetest.New()}, buildProject(t), Options{}, nil)
	if !errors.Is(err, engine.ErrUnreachable) {
		t.Fatalf("Build = %v, want the engine's unreachable error (exit 3), not the context writer's closed pipe", err)
	}
}

func TestLocalEngine(t *testing.T) {
	for host, want := range map[string]bool{
		"":                            true,
		"unix:///var/run/docker.sock": true,
		"npipe:////./pipe/docker":     true,
		"tcp://127.0.0.1:2375":        true,
		"tcp://localhost:2376":        true,
		"tcp://10.0.0.5:2376":         false,
		"ssh://me@buildbox":           false,
	} {
		if got := localEngine(host); got != want {
			t.Errorf("localEngine(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestBuildCredentialsRefusedOnARemoteEngine(t *testing.T) {
	t.Setenv("DOCKER_HOST", "tcp://10.0.0.5:2376")
	eng := &countingEngine{Engine: enginetest.New()}
	in := buildProject(t)
	in.PipIndexURL = "https://user:secret@pypi.corp.example/simple"
	_, err := Build(t.Context(), eng, in, Options{}, nil)
	if err == nil || !strings.Contains(err.Error(), "10.0.0.5") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("Build = %v, want a refusal naming the remote engine without the password", err)
	}
	if eng.count() != 0 {
		t.Error("the build reached the remote engine")
	}
}

func TestHostUser(t *testing.T) {
	if runtime.GOOS != "linux" {
		if HostUser(true) != nil {
			t.Error("HostUser off Linux, where Docker Desktop maps file ownership itself, is not nil")
		}
		return
	}
	if got := HostUser(true); got == nil || got.UID != os.Getuid() || got.GID != os.Getgid() {
		t.Errorf("HostUser(local) = %v, want this process's ids", got)
	}
	if got := HostUser(false); got != nil {
		t.Errorf("HostUser(remote) = %v, want nil: the image's default user", got)
	}
}
