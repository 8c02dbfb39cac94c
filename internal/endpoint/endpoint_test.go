package endpoint

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	dcontext "github.com/docker/cli/cli/context"
	"github.com/docker/cli/cli/context/store"
)

// env is a Getenv over a map.
func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// writeContext stores a context as `docker context create NAME --docker
// host=HOST` does, with docker/cli's own store.
func writeContext(t *testing.T, dir, name, host string, skipTLS bool) {
	t.Helper()
	s := store.New(filepath.Join(dir, "contexts"), store.NewConfig(
		func() any { return &map[string]any{} },
		store.EndpointTypeGetter(dockerEndpoint, func() any { return &dcontext.EndpointMetaBase{} }),
	))
	err := s.CreateOrUpdate(store.Metadata{Name: name, Endpoints: map[string]any{
		dockerEndpoint: dcontext.EndpointMetaBase{Host: host, SkipTLSVerify: skipTLS},
	}})
	if err != nil {
		t.Fatal(err)
	}
}

func writeConfig(t *testing.T, dir, current string) {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"currentContext": current})
	if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	writeContext(t, dir, "gpu", "ssh://me@gpubox:2222", false)
	writeContext(t, dir, "lab", "tcp://10.1.2.3:2376", true)
	writeConfig(t, dir, "lab")
	tests := []struct {
		name       string
		opts       Options
		env        map[string]string
		ctx, host  string
		source     string
		kind       string
		local, tls bool
		ssh        *SSHTarget
	}{
		{name: "flag wins over everything", opts: Options{Context: "gpu"}, env: map[string]string{"DOCKER_HOST": "tcp://x:1", "DOCKER_CONTEXT": "lab"},
			ctx: "gpu", host: "ssh://me@gpubox:2222", source: "--context", kind: SSH, ssh: &SSHTarget{User: "me", Host: "gpubox", Port: "2222"}},
		{name: "DOCKER_HOST wins over DOCKER_CONTEXT", env: map[string]string{"DOCKER_HOST": "tcp://127.0.0.1:2375", "DOCKER_CONTEXT": "gpu"},
			ctx: "default", host: "tcp://127.0.0.1:2375", source: "DOCKER_HOST", kind: TCP, local: true},
		{name: "DOCKER_CONTEXT over config.json", env: map[string]string{"DOCKER_CONTEXT": "gpu"},
			ctx: "gpu", host: "ssh://me@gpubox:2222", source: "DOCKER_CONTEXT", kind: SSH, ssh: &SSHTarget{User: "me", Host: "gpubox", Port: "2222"}},
		{name: "docker context use", ctx: "lab", host: "tcp://10.1.2.3:2376", source: "docker context use", kind: TCP, tls: true},
		{name: "ssh DOCKER_HOST with a socket path", env: map[string]string{"DOCKER_HOST": "ssh://root@127.0.0.1/run/docker.sock"},
			ctx: "default", host: "ssh://root@127.0.0.1/run/docker.sock", source: "DOCKER_HOST", kind: SSH, ssh: &SSHTarget{User: "root", Host: "127.0.0.1", Path: "/run/docker.sock"}},
		{name: "default context by name", opts: Options{Context: "default"}, ctx: "default", host: "unix:///var/run/docker.sock", source: "--context", kind: Unix, local: true},
		{name: "remote unix socket by the variable", env: map[string]string{"DOCKER_HOST": "unix:///tmp/fwd.sock", "DEVENV_ENGINE_REMOTE": "1"},
			ctx: "default", host: "unix:///tmp/fwd.sock", source: "DOCKER_HOST", kind: Unix},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.opts
			o.ConfigDir, o.Getenv = dir, env(tt.env)
			e, err := Resolve(o)
			if err != nil {
				t.Fatal(err)
			}
			if e.Context != tt.ctx || e.Host != tt.host || e.Source != tt.source || e.Kind != tt.kind || e.Local != tt.local || e.TLS != tt.tls {
				t.Errorf("got context %q host %q source %q kind %q local %v tls %v", e.Context, e.Host, e.Source, e.Kind, e.Local, e.TLS)
			}
			if (tt.ssh == nil) != (e.SSH == nil) || (tt.ssh != nil && *tt.ssh != *e.SSH) {
				t.Errorf("ssh target %+v, want %+v", e.SSH, tt.ssh)
			}
			if tt.kind == SSH && (e.DialHost() == e.Host || e.dialer == nil) {
				t.Errorf("an ssh engine needs docker/cli's connection helper: dial host %q", e.DialHost())
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, "gone")
	tests := []struct {
		name string
		opts Options
		env  map[string]string
		want string
	}{
		{"a current context that is not there", Options{}, nil, `docker context "gone" (from docker context use)`},
		{"both flags", Options{Context: "a", Host: "tcp://b:1"}, nil, "both --context and --host"},
		{"a bad scheme", Options{}, map[string]string{"DOCKER_HOST": "ftp://x"}, `unknown scheme "ftp"`},
		{"no scheme", Options{}, map[string]string{"DOCKER_HOST": "gpubox"}, "not a URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.opts
			o.ConfigDir, o.Getenv = dir, env(tt.env)
			_, err := Resolve(o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestResolveMatchesDockerCLI lets the docker CLI itself create and select
// contexts, then checks devenv resolves the same name and host as `docker
// context inspect` of the CLI's current context.
func TestResolveMatchesDockerCLI(t *testing.T) {
	docker, err := exec.LookPath("docker")
	if err != nil {
		t.Skip("no docker CLI on PATH to compare with")
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command(docker, append([]string{"--config", dir}, args...)...)
		cmd.Env = append(os.Environ(), "DOCKER_HOST=", "DOCKER_CONTEXT=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("docker %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("context", "create", "gpu", "--docker", "host=ssh://me@gpubox:2222")
	run("context", "create", "lab", "--docker", "host=tcp://10.1.2.3:2376,skip-tls-verify=true")
	for _, name := range []string{"gpu", "lab", "default"} {
		run("context", "use", name)
		want := run("context", "inspect", "--format", "{{.Name}} {{.Endpoints.docker.Host}}")
		e, err := Resolve(Options{ConfigDir: dir, Getenv: env(nil)})
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Context + " " + e.Host; got != want {
			t.Errorf("devenv resolved %q, the docker CLI %q", got, want)
		}
	}
}

func TestTLSFromCertPathNeedsFiles(t *testing.T) {
	dir := t.TempDir()
	e, err := Resolve(Options{ConfigDir: dir, Getenv: env(map[string]string{"DOCKER_HOST": "tcp://10.0.0.5:2376", "DOCKER_TLS_VERIFY": "1", "DOCKER_CERT_PATH": dir})})
	if err != nil {
		t.Fatal(err)
	}
	if !e.TLS {
		t.Fatal("DOCKER_TLS_VERIFY set but TLS off")
	}
	if _, err := e.HTTPClient(0); err == nil || !strings.Contains(err.Error(), "DOCKER_CERT_PATH") {
		t.Fatalf("missing ca.pem: error %v, want one naming DOCKER_CERT_PATH", err)
	}
}
