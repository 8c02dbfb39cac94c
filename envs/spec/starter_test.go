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
