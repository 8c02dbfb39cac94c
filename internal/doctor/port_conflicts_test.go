package doctor

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	cproject "github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/plan/plantest"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

func TestPortConflicts(t *testing.T) {
	busy := func(ports ...int) func(string, int) bool {
		return func(_ string, p int) bool {
			for _, b := range ports {
				if b == p {
					return false
				}
			}
			return true
		}
	}
	want := func(svc string, port int) PortWant {
		return PortWant{Service: svc, Where: "devenv.yaml", HostIP: "127.0.0.1", HostPort: port, Protocol: "tcp"}
	}
	tests := []struct {
		name  string
		eng   func() engine.Engine
		wants []PortWant
		free  func(string, int) bool
		got   []string // "service port holder twin suggest"
	}{
		{"all free", goodEngineE, []PortWant{want("a", 8888)}, busy(), nil},
		{"another program", goodEngineE, []PortWant{want("a", 8888)}, busy(8888, 8889), []string{"a 8888 - - 8890"}},
		{"another project's container, named", func() engine.Engine {
			return withRunning(goodEngine(), "other-web", map[string]string{labels.Project: "other"}, 8888)
		}, []PortWant{want("a", 8888)}, busy(), []string{"a 8888 other-web - 8889"}},
		{"an unlabelled container, named", func() engine.Engine {
			return withRunning(goodEngine(), "someones-db", nil, 5432)
		}, []PortWant{want("db", 5432)}, busy(), []string{"db 5432 someones-db - 5433"}},
		{"own running container is not a conflict", func() engine.Engine {
			return withRunning(goodEngine(), "demo-a", map[string]string{labels.Project: "demo"}, 8888)
		}, []PortWant{want("a", 8888)}, busy(8888), nil},
		{"two services of the project", goodEngineE, []PortWant{want("a", 8888), want("b", 8888)}, busy(), []string{"b 8888 - a 8889"}},
		{"same port on two addresses", goodEngineE, []PortWant{want("a", 8888), {Service: "b", Where: "devenv.yaml", HostIP: "127.0.0.2", HostPort: 8888}}, busy(), nil},
		{"suggestions skip wanted and held ports", func() engine.Engine {
			return withRunning(goodEngine(), "other-web", map[string]string{labels.Project: "other"}, 8889)
		}, []PortWant{want("a", 8888), want("b", 8890)}, busy(8888), []string{"a 8888 - - 8891"}},
		{"ephemeral host port is never checked", goodEngineE, []PortWant{want("a", 0)}, busy(0), nil},
		{"no engine: the probe alone", func() engine.Engine { return nil }, []PortWant{want("a", 8888)}, busy(8888), []string{"a 8888 - - 8889"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := PortConflicts(t.Context(), tt.eng(), "demo", tt.wants, tt.free, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cs {
				got = append(got, strings.Join([]string{c.Service, strconv.Itoa(c.HostPort), dash(c.Holder), dash(c.Twin), strconv.Itoa(c.Suggest)}, " "))
			}
			if strings.Join(got, "|") != strings.Join(tt.got, "|") {
				t.Errorf("conflicts = %q, want %q", got, tt.got)
			}
		})
	}
}

func goodEngineE() engine.Engine { return goodEngine() }

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func TestPortPreflightMessage(t *testing.T) {
	f := withRunning(goodEngine(), "other-web", map[string]string{labels.Project: "other"}, 9000)
	pl := &plan.Plan{Project: "demo", Services: []*plan.Service{
		portService("minio", 9000, labels.ComposeFile, "compose.yaml"), portService("spark", 8888),
	}}
	err := PortPreflight(t.Context(), f, pl, rendered(t, pl), nil, func(string, int) bool { return true }, nil)
	if err == nil {
		t.Fatal("PortPreflight passed with 9000 held by other-web")
	}
	for _, part := range []string{"service minio", "127.0.0.1:9000", "container other-web", "docker stop other-web", "compose.yaml", "9001 is free", "nothing was built or created"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error lacks %q:\n%v", part, err)
		}
	}
	if strings.Contains(err.Error(), "spark") {
		t.Errorf("error names spark, whose port is free:\n%v", err)
	}
	if err := PortPreflight(t.Context(), f, pl, rendered(t, pl), []string{"spark"}, func(string, int) bool { return true }, nil); err != nil {
		t.Errorf("up spark alone must not check minio's port: %v", err)
	}
	pl.Services[1].DependsOn = []string{"minio"}
	if err := PortPreflight(t.Context(), f, pl, rendered(t, pl), []string{"spark"}, func(string, int) bool { return true }, nil); err == nil {
		t.Error("up spark starts minio, its dependency: minio's port must be checked")
	}
}

// TestDoctorChecksComposePorts: doctor checks the compose services' host
// ports as up does, naming the compose file to change.
func TestDoctorChecksComposePorts(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte("services:\n  minio:\n    image: minio/minio:1\n    ports: [\"9000:9000\", \"9001:9001\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &spec.Project{Version: 1, Name: "demo", Dir: dir, File: filepath.Join(dir, "devenv.yaml"),
		Compose: []string{filepath.Join(dir, "compose.yaml")}}
	in := Inputs{Engine: withRunning(goodEngine(), "other-s3", map[string]string{labels.Project: "other"}, 9001), Project: p, Host: goodHost()}
	var got *Check
	for _, c := range Run(t.Context(), in).Checks {
		if c.ID == IDPorts && c.Service == "minio" {
			c := c
			got = &c
		}
	}
	if got == nil {
		t.Fatal("doctor has no port check for the compose service minio")
	}
	if got.Status != Fail || !strings.Contains(got.Message, "container other-s3") || !strings.Contains(got.Fix, "compose.yaml") {
		t.Errorf("minio's port check = %+v; want a failure naming other-s3 and compose.yaml", got)
	}
	// the file names no address: devenv publishes on 127.0.0.1 (as up renders it)
	if !strings.Contains(got.Message, "127.0.0.1:9001") {
		t.Errorf("minio's port check = %q; want the port as devenv publishes it, 127.0.0.1:9001", got.Message)
	}
}

// rendered is pl as the Compose project up runs.
func rendered(t *testing.T, pl *plan.Plan) *types.Project {
	t.Helper()
	proj, err := cproject.FromPlan(pl, cproject.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return proj
}

// portService is a planned service publishing port on 127.0.0.1, with
// the labels kv (key, value, ...).
func portService(name string, port uint32, kv ...string) *plan.Service {
	s := plantest.Service("demo", name, "img", "h")
	s.Container.Ports = []types.ServicePortConfig{{Mode: "ingress", HostIP: "127.0.0.1", Published: strconv.Itoa(int(port)), Target: port, Protocol: "tcp"}}
	for i := 0; i+1 < len(kv); i += 2 {
		s.Container.Labels[kv[i]] = kv[i+1]
	}
	return s
}
