package enginetest

import (
	"slices"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/engine"
)

// TestRunProjectReadsTheProject: the fake converges the project it is
// given, as the Compose SDK does, with no second description of the
// containers: what a service of the project says (environment, ports,
// volumes by their engine names, the network and Compose's implicit
// alias, GPU reservations, labels, generated files as configs) is what
// its container has.
func TestRunProjectReadsTheProject(t *testing.T) {
	f := New()
	f.AddImage("img:1", nil)
	f.AddNetwork("demo", nil)
	mode := types.FileMode(0o444)
	v := "1"
	web := types.ServiceConfig{Name: "web"}
	// compose-go embeds most fields (its container-spec layering): set one by one
	web.ContainerName, web.Image = "demo-web", "img:1"
	web.Environment = types.MappingWithEquals{"B": &v, "A": &v, "PASSED": nil}
	web.Labels, web.CustomLabels = types.Labels{"team": "data"}, types.Labels{"com.docker.compose.project": "demo"}
	web.Ports = []types.ServicePortConfig{{HostIP: "127.0.0.1", Published: "8080", Target: 80}}
	web.Volumes = []types.ServiceVolumeConfig{{Type: types.VolumeTypeVolume, Source: "cache", Target: "/cache"},
		{Type: types.VolumeTypeBind, Source: "/src", Target: "/work", ReadOnly: true}, {Type: types.VolumeTypeTmpfs, Target: "/tmp"}}
	web.Networks = map[string]*types.ServiceNetworkConfig{"default": {Aliases: []string{"www"}}}
	web.Configs = []types.ServiceConfigObjConfig{{Source: "web_conf", Target: "/etc/app.conf", Mode: &mode}}
	web.Deploy = &types.DeployConfig{Resources: types.Resources{Reservations: &types.Resource{
		Devices: []types.DeviceRequest{{Capabilities: []string{"gpu", "utility"}, Count: 1, Driver: "nvidia"}}}}}
	proj := &types.Project{Name: "demo", Services: types.Services{"web": web},
		Networks: types.Networks{"default": {Name: "demo"}}, Volumes: types.Volumes{"cache": {Name: "demo_cache"}},
		Configs: types.Configs{"web_conf": {Content: "k=v\n"}}}
	if _, err := f.RunProject(t.Context(), engine.ProjectRun{Project: proj, NoStart: true}); err != nil {
		t.Fatal(err)
	}
	creates := f.CallsTo("Create")
	if len(creates) != 1 {
		t.Fatalf("%d creates, want 1", len(creates))
	}
	got := creates[0].Arg.(engine.ContainerSpec)
	for _, c := range []struct {
		what      string
		ok        bool
		got, want any
	}{
		{"name", got.Name == "demo-web", got.Name, "demo-web"},
		{"environment", slices.Equal(got.Env, []string{"A=1", "B=1", "PASSED"}), got.Env, "A=1 B=1 PASSED"},
		{"labels", got.Labels["team"] == "data" && got.Labels["com.docker.compose.project"] == "demo" && got.Labels["com.docker.compose.config-hash"] != "", got.Labels, "the file's, Compose's and the config hash"},
		{"ports", slices.Equal(got.Ports, []engine.PortBinding{{HostIP: "127.0.0.1", HostPort: 8080, ContainerPort: 80, Protocol: "tcp"}}), got.Ports, "127.0.0.1:8080->80/tcp"},
		{"mounts", slices.Equal(got.Mounts, []engine.Mount{{Type: engine.MountVolume, Source: "demo_cache", Target: "/cache"}, {Type: engine.MountBind, Source: "/src", Target: "/work", ReadOnly: true}}), got.Mounts, "the volume by its engine name, the bind"},
		{"network", got.Network == "demo" && slices.Equal(got.Aliases, []string{"web", "www"}), []any{got.Network, got.Aliases}, "demo, aliases web www"},
		{"gpu", got.GPU != nil && got.GPU.Count == 1 && got.GPU.Driver == "nvidia" && slices.Equal(got.GPU.Capabilities, []string{"utility"}), got.GPU, "1 nvidia GPU with utility"},
		{"files", len(got.Files) == 1 && got.Files[0].Path == "/etc/app.conf" && string(got.Files[0].Data) == "k=v\n" && got.Files[0].Mode == 0o444, got.Files, "/etc/app.conf 0444 k=v"},
	} {
		if !c.ok {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	delete(proj.Configs, "web_conf")
	if _, err := f.RunProject(t.Context(), engine.ProjectRun{Project: proj, Forced: []string{"web"}}); err == nil {
		t.Error("a service naming a config the project lacks was run")
	}
}

// TestRunProjectDryRun: a dry run decides as the run does (created,
// unchanged, started, recreated when forced) and changes nothing: no
// engine call but reads.
func TestRunProjectDryRun(t *testing.T) {
	f := New()
	f.AddImage("img:1", nil)
	f.AddNetwork("demo", nil)
	web := types.ServiceConfig{Name: "web"}
	web.ContainerName, web.Image = "demo-web", "img:1"
	proj := &types.Project{Name: "demo", Services: types.Services{"web": web}, Networks: types.Networks{"default": {Name: "demo"}}}
	writes := func() int {
		n := 0
		for _, c := range f.Calls() {
			if c.Method != "Inspect" && c.Method != "List" {
				n++
			}
		}
		return n
	}
	steps := []struct {
		what   string
		run    engine.ProjectRun
		dryRun string // the dry run's decision
	}{
		{"nothing there", engine.ProjectRun{Project: proj, NoStart: true}, engine.DecidedCreated},
		{"created, stopped", engine.ProjectRun{Project: proj}, engine.DecidedStarted},
		{"running", engine.ProjectRun{Project: proj}, engine.DecidedUnchanged},
		{"running, forced", engine.ProjectRun{Project: proj, Forced: []string{"web"}}, engine.DecidedRecreated},
	}
	for _, s := range steps {
		before := writes()
		dry := s.run
		dry.DryRun = true
		got, err := f.RunProject(t.Context(), dry)
		if err != nil {
			t.Fatalf("%s: dry run: %v", s.what, err)
		}
		if got["web"] != s.dryRun {
			t.Errorf("%s: the dry run decides %q, want %q", s.what, got["web"], s.dryRun)
		}
		if n := writes() - before; n != 0 {
			t.Errorf("%s: the dry run made %d engine calls that change things: %v", s.what, n, f.Calls()[len(f.Calls())-n:])
		}
		did, err := f.RunProject(t.Context(), s.run)
		if err != nil {
			t.Fatalf("%s: run: %v", s.what, err)
		}
		if did["web"] != s.dryRun {
			t.Errorf("%s: the run did %q, its dry run said %q", s.what, did["web"], s.dryRun)
		}
	}
}
