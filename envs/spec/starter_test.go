package spec

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestStarterLoads(t *testing.T) {
	for _, profile := range append([]string{""}, BuiltinProfiles...) {
		t.Run("profile="+profile, func(t *testing.T) {
			data, err := Starter("demo-project", profile)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := Load(path)
			if err != nil {
				t.Fatalf("starter does not load:\n%v\n---\n%s", err, data)
			}
			want := profile
			if want == "" {
				want = BuiltinProfiles[0]
			}
			if p.Name != "demo-project" || len(p.Services) != 1 || p.Services[0].Profile != want {
				t.Errorf("got name %q, %d services, first %+v", p.Name, len(p.Services), p.Services[0])
			}
			if profile != "" {
				golden(t, filepath.Join("testdata", "starter-"+profile+".golden.yaml"), data)
			}
		})
	}
}

// Every key the decoder knows is explained in the spark-rapids starter,
// written or commented out, so that devenv init teaches the whole format.
func TestStarterExplainsEveryKey(t *testing.T) {
	data, err := Starter("demo", "")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, keys := range [][]string{slices.Sorted(maps.Keys(topKeys)), slices.Sorted(maps.Keys(serviceKeys)), slices.Sorted(maps.Keys(mirrorKeys)), slices.Sorted(maps.Keys(customKeys))} {
		for _, k := range keys {
			if k == "image" || k == "build" || k == "release" {
				continue // image and rapids/triton keys: in those starters
			}
			if !strings.Contains(text, k+":") {
				t.Errorf("the spark-rapids starter never mentions %s:", k)
			}
		}
	}
}

func TestStarterRefusesBadInput(t *testing.T) {
	for _, c := range []struct{ name, profile, want string }{
		{"demo", "sprak-rapids", `did you mean "spark-rapids"`},
		{"demo", "custom", "choose one of: spark-rapids, rapids, triton, image"},
		{"My Project", "", `e.g. "my-project"`},
	} {
		_, err := Starter(c.name, c.profile)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Starter(%q, %q) = %v, want an error containing %q", c.name, c.profile, err, c.want)
		}
	}
}

// A comment explains one thing once: a starter that repeats a comment
// (as the ports comment once was) reads as if two keys were meant.
func TestStarterCommentsOnce(t *testing.T) {
	for _, profile := range BuiltinProfiles {
		data, err := Starter("demo", profile)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for i, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "#") || len(line) < 20 {
				continue
			}
			if first, dup := seen[line]; dup {
				t.Errorf("%s starter: line %d repeats line %d: %s", profile, i+1, first, line)
			}
			seen[line] = i + 1
		}
	}
}

// devenv mounts the project at /workspace itself; a starter that lists it
// again makes the engine refuse the container after minutes of building.
func TestStarterMountsNothingDevenvMounts(t *testing.T) {
	for _, profile := range BuiltinProfiles {
		data, err := Starter("demo", profile)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(FileName, data, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range p.Services[0].Volumes {
			if _, reserved := reservedTargets[v.Target]; reserved {
				t.Errorf("%s starter mounts %s at %s", profile, v.Source, v.Target)
			}
		}
	}
}

// TestStarterNameStaysAString: a starter for a project whose name YAML
// would read as something else (a directory called 002, true, null, 1e3)
// writes the name so that it reads back as that string, and loads.
func TestStarterNameStaysAString(t *testing.T) {
	for _, name := range []string{"002", "123", "1e3", "0x1f", "true", "null", "no", "demo-project", "1_000"} {
		t.Run(name, func(t *testing.T) {
			data, err := Starter(name, "image")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), FileName)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := Load(path)
			if err != nil {
				t.Fatalf("starter named %s does not load: %v", name, err)
			}
			if p.Name != name {
				t.Errorf("name = %q, want %q", p.Name, name)
			}
		})
	}
}

// TestStarterRunsWithoutAGPU: every starter that asks for a GPU says
// gpu: optional, so that the README's first commands come up on a machine
// without one (up, ps and config then say it runs on the CPU) instead of
// ending at exit 4; a GPU machine still gets its GPU.
func TestStarterRunsWithoutAGPU(t *testing.T) {
	for _, profile := range BuiltinProfiles {
		data, err := Starter("demo", profile)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(FileName, data, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range p.Services {
			if s.GPUs.Wants() && s.GPU != "optional" {
				t.Errorf("%s starter: service %s asks for GPUs with gpu: %q; want optional", profile, s.Name, s.GPU)
			}
		}
	}
}
