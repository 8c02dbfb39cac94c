package loader

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/internal/goldenfile"
)

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

// portable replaces the absolute project directory so goldens do not
// depend on where the checkout lives.
func portable(t *testing.T, v any, dir string) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(b), dir, "$PROJECT") + "\n")
}

// writeCompose writes text as compose.yaml in a fresh directory.
func writeCompose(t *testing.T, text string) (dir, file string) {
	t.Helper()
	dir = t.TempDir()
	file = filepath.Join(dir, "compose.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

// loadText loads text as a project's one compose file; the load must succeed.
func loadText(t *testing.T, text string) []compose.Service {
	t.Helper()
	dir, file := writeCompose(t, text)
	svcs, err := Load(t.Context(), []string{file}, dir, "demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	return svcs
}

func stackDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "stack"))
	if err != nil {
		t.Fatal(err)
	}
	// Only .env and the compose file may set variables in these tests.
	for _, k := range []string{"MINIO_ROOT_USER", "MINIO_ROOT_PASSWORD", "POSTGRES_VERSION"} {
		if v, ok := os.LookupEnv(k); ok {
			t.Setenv(k, v)
			if err := os.Unsetenv(k); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

func TestLoadGolden(t *testing.T) {
	dir := stackDir(t)
	files := []string{filepath.Join(dir, "compose.yaml")}
	tests := []struct {
		name     string
		profiles []string
		golden   string
	}{
		{"default profiles", nil, "stack.golden.json"},
		{"debug profile", []string{"debug"}, "stack-debug.golden.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svcs, err := Load(t.Context(), files, dir, "demo", tt.profiles)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.golden, portable(t, svcs, dir))
		})
	}
}

func TestLoadInterpolatesFromEnvironmentOverDotEnv(t *testing.T) {
	dir := stackDir(t)
	t.Setenv("POSTGRES_VERSION", "17.5")
	t.Setenv("MINIO_ROOT_PASSWORD", "from-env")
	svcs, err := Load(t.Context(), []string{filepath.Join(dir, "compose.yaml")}, dir, "demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]compose.Service{}
	for _, s := range svcs {
		byName[s.Name] = s
	}
	if got := byName["postgres"].Image; got != "postgres:17.5-bookworm" {
		t.Errorf("postgres image = %q, want the environment's POSTGRES_VERSION over .env's", got)
	}
	if env := byName["minio"].Config.Service.Environment; value(env["MINIO_ROOT_PASSWORD"]) != "from-env" || value(env["MINIO_ROOT_USER"]) != "devenv" {
		t.Errorf("minio env = %v, want the password from the environment and the user from .env", env)
	}
}

func TestLoadReportsEveryProblemWithItsPlace(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "bad"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load(t.Context(), []string{filepath.Join(dir, "compose.yaml")}, dir, "demo", nil)
	if err == nil {
		t.Fatal("Load accepted network_mode: host, privileged and two GPU requests")
	}
	golden(t, "bad.golden.txt", []byte(strings.ReplaceAll(err.Error(), dir, "$PROJECT")+"\n"))
}

func TestLoadNoFiles(t *testing.T) {
	svcs, err := Load(t.Context(), nil, t.TempDir(), "demo", nil)
	if err != nil || svcs != nil {
		t.Fatalf("Load(no files) = %v, %v; want nothing and no error", svcs, err)
	}
}

func TestLoadBrokenFileNamesIt(t *testing.T) {
	dir, f := writeCompose(t, "services:\n  web:\n    image: [not, a, string]\n")
	_, err := Load(t.Context(), []string{f}, dir, "demo", nil)
	// the file as the project names it, with the line and column
	if err == nil || !strings.Contains(err.Error(), "compose.yaml:3:5: services.web.image: must be a string") {
		t.Fatalf("error = %v; want it to name compose.yaml:3:5 and the bad key", err)
	}
}

func TestLoadProfiles(t *testing.T) {
	dir := stackDir(t)
	files := []string{filepath.Join(dir, "compose.yaml")}
	tests := []struct {
		name      string
		env       string // COMPOSE_PROFILES
		profiles  []string
		wantDebug bool
	}{
		{"none active", "", nil, false},
		{"COMPOSE_PROFILES enables it", "debug", nil, true},
		{"COMPOSE_PROFILES with others", "other, debug", nil, true},
		{"an explicit list wins over COMPOSE_PROFILES", "debug", []string{"other"}, false},
		{"every profile", "", []string{"*"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("COMPOSE_PROFILES", tt.env)
			svcs, err := Load(t.Context(), files, dir, "demo", tt.profiles)
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, s := range svcs {
				got = got || s.Name == "debug-shell"
			}
			if got != tt.wantDebug {
				t.Errorf("debug-shell loaded = %v, want %v", got, tt.wantDebug)
			}
		})
	}
}

// Binding the Docker socket or the host's root into a compose service hands
// it the machine: devenv runs it, and says so.
func TestLoadWarnsAboutRiskyBinds(t *testing.T) {
	for _, c := range []struct{ volume, want string }{
		{"/var/run/docker.sock:/var/run/docker.sock", "binds the Docker socket (root on the host)"},
		{"/run/docker.sock:/sock:ro", "binds the Docker socket (root on the host)"},
		{"/:/host:ro", "binds the host's whole filesystem"},
		{"./data:/data", ""},
	} {
		svcs := loadText(t, "services:\n  agent:\n    image: alpine:3\n    volumes: [\""+c.volume+"\"]\n")
		warns := strings.Join(svcs[0].Warnings, "\n")
		if c.want == "" && warns != "" || !strings.Contains(warns, c.want) || c.want != "" && !strings.Contains(warns, "compose.yaml:4") {
			t.Errorf("%s: warnings %q, want %q with its line", c.volume, warns, c.want)
		}
	}
}

// TestLoadDependsOnConditionsWithoutWarning: every depends_on condition is
// Compose's to wait for (the SDK's start waits for it, exit 0 of a one-shot
// included), so none is warned about; service_healthy is also devenv's own
// wait.
func TestLoadDependsOnConditionsWithoutWarning(t *testing.T) {
	for _, cond := range []string{"service_started", "service_healthy", "service_completed_successfully"} {
		svcs := loadText(t, "services:\n  app:\n    image: alpine:3\n    depends_on: {init: {condition: "+cond+"}}\n  init:\n    image: alpine:3\n")
		for _, s := range svcs {
			if len(s.Warnings) > 0 {
				t.Errorf("%s: service %s warns %q, want no warning", cond, s.Name, s.Warnings)
			}
		}
	}
}

// TestLoadWarnsAboutBuildKeysNotApplied: devenv builds a compose service's
// image itself, from context, dockerfile, args and target; every other
// build key it is given is named once, at the service's build: line.
func TestLoadWarnsAboutBuildKeysNotApplied(t *testing.T) {
	for _, c := range []struct{ build, want string }{
		{"{context: ., ssh: [default]}", "build.ssh is not applied"},
		{"{context: ., cache_from: [x], cache_to: [y]}", "build.cache_from is not applied|build.cache_to is not applied"},
		{"{context: ., no_cache: true, pull: true}", "build.no_cache is not applied|build.pull is not applied"},
		{"{context: ., platforms: [linux/arm64], tags: [x:1]}", "build.platforms is not applied"},
		{"{context: ., network: host, shm_size: 1g, extra_hosts: [a=1.2.3.4]}", "build.network is not applied|build.extra_hosts is not applied|build.shm_size is not applied"},
		{"{context: ., args: {A: b}, target: t, dockerfile: Dockerfile}", ""},
	} {
		svcs := loadText(t, "services:\n  app:\n    image: alpine:3\n    build: "+c.build+"\n")
		var got []string
		for _, w := range svcs[0].Warnings {
			if !strings.HasPrefix(w, `compose.yaml:4:5: service "app": build.`) {
				t.Errorf("%s: warning %q is not at the build: line", c.build, w)
			}
			got = append(got, strings.SplitN(strings.TrimPrefix(w, `compose.yaml:4:5: service "app": `), ":", 2)[0])
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: warnings %q, want %q", c.build, got, c.want)
		}
	}
}

// TestLoadWarnsAboutDefaultNetworkSettings: the project network is
// devenv's unless the file declares networks.default external; the other
// settings written for it are named, once each, for each service on it.
func TestLoadWarnsAboutDefaultNetworkSettings(t *testing.T) {
	for _, c := range []struct{ network, want string }{
		{"{driver: bridge, driver_opts: {a: b}}", "networks.default.driver is not applied|networks.default.driver_opts is not applied"},
		{"{ipam: {config: [{subnet: 10.9.0.0/16}]}, enable_ipv6: true}", "networks.default.ipam is not applied|networks.default.enable_ipv6 is not applied"},
		{"{labels: {a: b}, internal: true}", "networks.default.internal is not applied|networks.default.labels is not applied"},
		{"{name: corp}", ""},
		{"{external: true, name: corp}", ""},
	} {
		svcs := loadText(t, "services:\n  app:\n    image: alpine:3\n  solo:\n    image: alpine:3\n    network_mode: none\nnetworks:\n  default: "+c.network+"\n")
		for _, svc := range svcs {
			var got []string
			for _, w := range svc.Warnings {
				got = append(got, strings.SplitN(strings.TrimPrefix(w, `compose.yaml:2:3: service "app": `), ":", 2)[0])
			}
			want := c.want
			if svc.Name == "solo" {
				want = "" // not on the default network
			}
			if strings.Join(got, "|") != want {
				t.Errorf("%s, %s: warnings %q, want %q", c.network, svc.Name, svc.Warnings, want)
			}
		}
	}
}

// TestLoadKeepsDevelopWatch: develop.watch's rules come through in order
// (sync+exec's exec: with its user, working_dir and environment)
// with paths absolute against the compose file's directory (deploy/, not
// devenv.yaml's), as `docker compose -f deploy/compose.yaml` resolves every
// relative path of the file (build contexts too).
func TestLoadKeepsDevelopWatch(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "deploy")
	if err := os.MkdirAll(filepath.Join(sub, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	yaml := `services:
  app:
    image: busybox:1
    develop:
      watch:
        - path: ./src
          action: sync
          target: /app/src
          ignore: ["*.tmp", "cache/"]
        - path: ./src/conf
          action: sync+restart
          target: /etc/app
        - path: ./requirements.txt
          action: rebuild
        - path: ./src/jobs
          action: sync+exec
          target: /app/jobs
          exec:
            command: ["python", "-m", "compileall", "."]
            user: "1000"
            working_dir: /app/jobs
            environment:
              MODE: check
              LEVEL: "2"
`
	if err := os.WriteFile(filepath.Join(sub, "compose.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	svcs, err := Load(t.Context(), []string{filepath.Join(sub, "compose.yaml")}, dir, "demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(svcs) != 1 || svcs[0].Config == nil || svcs[0].Config.Service.Develop == nil {
		t.Fatalf("services %+v: want app with its develop section", svcs)
	}
	// what Compose's Watch is handed: compose-go's own rules, as loaded
	var got []string
	for _, r := range svcs[0].Config.Service.Develop.Watch {
		got = append(got, fmt.Sprintf("%s %s %s %v %v %s %s %v", r.Path, r.Action, r.Target, r.Ignore,
			[]string(r.Exec.Command), r.Exec.User, r.Exec.WorkingDir, r.Exec.Environment.ToMapping().Values()))
	}
	want := []string{
		filepath.Join(sub, "src") + " sync /app/src [*.tmp cache/] []   []",
		filepath.Join(sub, "src", "conf") + " sync+restart /etc/app [] []   []",
		filepath.Join(sub, "requirements.txt") + " rebuild  [] []   []",
		filepath.Join(sub, "src", "jobs") + " sync+exec /app/jobs [] [python -m compileall .] 1000 /app/jobs [LEVEL=2 MODE=check]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("watch rules\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLoadWarnsAboutHostAccess: keys that hand a container the host
// (privileged, the host's pid, ipc or user namespace, another container's
// network, /dev/mem, SYS_ADMIN or ALL capabilities) get the warning a bind
// of / or of the Docker socket gets, naming the key, the service and its
// line (issue 29, class 7).
func TestLoadWarnsAboutHostAccess(t *testing.T) {
	for _, c := range []struct{ key, want string }{
		{"privileged: true", "privileged: true"},
		{"pid: host", "pid: host"},
		{"ipc: host", "ipc: host"},
		{"userns_mode: host", "userns_mode: host"},
		{"network_mode: host", "network_mode: host"},
		{"network_mode: \"container:other\"", "network_mode: container:other"},
		{"devices: [\"/dev/mem:/dev/mem\"]", "devices /dev/mem"},
		{"cap_add: [SYS_ADMIN]", "cap_add SYS_ADMIN"},
		{"cap_add: [ALL]", "cap_add ALL"},
		{"cap_add: [NET_ADMIN]", ""},
		{"pid: \"\"", ""},
	} {
		svcs := loadText(t, "services:\n  agent:\n    image: alpine:3\n    "+c.key+"\n")
		warns := strings.Join(svcs[0].Warnings, "\n")
		if c.want == "" && warns != "" || !strings.Contains(warns, c.want) ||
			c.want != "" && (!strings.Contains(warns, "compose.yaml:4") || !strings.Contains(warns, "agent") || !strings.Contains(warns, "take over this machine")) {
			t.Errorf("%s: warnings %q, want %q with its line and service", c.key, warns, c.want)
		}
	}
}

func value(v *string) string {
	if v == nil {
		return "(unset)"
	}
	return *v
}
