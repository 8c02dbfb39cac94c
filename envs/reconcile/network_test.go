package reconcile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

// TestUpRepairsTheProjectNetwork: a network removed or a container
// disconnected behind devenv's back is repaired by the next up, which
// recreates the containers on the project's network.
func TestUpRepairsTheProjectNetwork(t *testing.T) {
	tests := []struct {
		name    string
		tamper  func(t *testing.T, f *enginetest.Fake)
		noStart bool
		want    map[string]string
	}{
		{"untouched", func(*testing.T, *enginetest.Fake) {}, false,
			map[string]string{"db": Unchanged, "app": Unchanged}},
		{"network removed while stopped", func(t *testing.T, f *enginetest.Fake) {
			ctx := t.Context()
			for _, c := range []string{"p-db", "p-app"} {
				must(t, f.Stop(ctx, c, 0))
			}
			must(t, f.Remove(ctx, engine.Networks, "p", false))
		}, false, map[string]string{"db": Recreated, "app": Recreated}},
		{"running container disconnected", func(t *testing.T, f *enginetest.Fake) {
			must(t, f.Disconnect("p-app", "p"))
		}, false, map[string]string{"db": Unchanged, "app": Recreated}},
		{"network removed, --no-start", func(t *testing.T, f *enginetest.Fake) {
			ctx := t.Context()
			must(t, f.Disconnect("p-db", "p"))
			must(t, f.Disconnect("p-app", "p"))
			must(t, f.Remove(ctx, engine.Networks, "p", false))
		}, true, map[string]string{"db": Recreated, "app": Recreated}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := enginetest.New()
			r := newRunner(t, f)
			ctx := t.Context()
			if _, err := r.Up(ctx, testPlan(), UpOptions{}); err != nil {
				t.Fatal(err)
			}
			tt.tamper(t, f)
			res, err := r.Up(ctx, testPlan(), UpOptions{NoStart: tt.noStart})
			if err != nil {
				t.Fatalf("second up: %v", err)
			}
			if a := actionsOf(res.Changes); a["db"] != tt.want["db"] || a["app"] != tt.want["app"] {
				t.Fatalf("second up: %v, want %v", a, tt.want)
			}
			nets, _ := f.List(ctx, engine.Networks, nil)
			if len(nets) != 1 {
				t.Fatalf("networks after up: %v", nets)
			}
			for _, c := range []string{"p-db", "p-app"} {
				st, err := f.Inspect(ctx, c)
				if err != nil || st.NetworkIDs["p"] != nets[0].ID {
					t.Errorf("%s on networks %v, want p (%s)", c, st.NetworkIDs, nets[0].ID)
				}
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestUpRefusesLinksUnderDevenv: a generated directory, or a mounted path
// under .devenv, that is a symbolic link stops up before any container is
// created, and nothing is written through it.
func TestUpRefusesLinksUnderDevenv(t *testing.T) {
	tests := []struct {
		name      string
		generated bool // the service has generated files (else only the mount)
	}{
		{"generated files", true},
		{"mount only", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := enginetest.New()
			r := newRunner(t, f)
			outside := t.TempDir()
			gen := plan.GeneratedDir(r.StateDir, "db")
			must(t, os.MkdirAll(filepath.Dir(gen), 0o755))
			must(t, os.Symlink(outside, gen))
			pl := testPlan()
			db := pl.Services[0]
			if tt.generated {
				db.Generated = map[string][]byte{"spark-defaults.conf": []byte("x\n")}
			} else {
				db.Container.Volumes = append(db.Container.Volumes, types.ServiceVolumeConfig{Type: types.VolumeTypeBind, Source: gen, Target: "/opt/devenv/conf", ReadOnly: true})
			}
			_, err := r.Up(t.Context(), pl, UpOptions{})
			if err == nil || !strings.Contains(err.Error(), "symbolic link") {
				t.Fatalf("Up = %v, want a refusal naming the link", err)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Errorf("wrote through the link: %v", entries)
			}
			for _, c := range f.CallsTo("Create") {
				if c.Arg.(engine.ContainerSpec).Name == "p-db" {
					t.Errorf("created p-db with a linked mount")
				}
			}
		})
	}
}

// TestUpWritesGeneratedFilesPrivately: the host copy of a generated file is
// written 0600 (one an older devenv left 0644 is rewritten), and the
// container gets its own copy through its spec, not through a mount.
func TestUpWritesGeneratedFilesPrivately(t *testing.T) {
	f := enginetest.New()
	r := newRunner(t, f)
	pl := testPlan()
	db := pl.Services[0]
	conf := []byte("spark.sql.shuffle.partitions 64\n")
	db.Generated = map[string][]byte{"spark-defaults.conf": conf}
	db.Files = []plan.File{{Path: "/opt/devenv/conf/spark-defaults.conf", Mode: plan.GeneratedMode, Data: conf}}
	plan.PlaceFiles(&db.Container, db.Files)
	host := filepath.Join(plan.GeneratedDir(r.StateDir, "db"), "spark-defaults.conf")
	for i, before := range []os.FileMode{0, 0o644} {
		if before != 0 {
			must(t, os.Chmod(host, before))
		}
		if _, err := r.Up(t.Context(), pl, UpOptions{}); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(host)
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("up %d: %s has mode %v (%v), want 0600", i+1, host, st.Mode().Perm(), err)
		}
		if got, _ := os.ReadFile(host); string(got) != string(conf) {
			t.Errorf("up %d: host copy holds %q", i+1, got)
		}
	}
	creates := f.CallsTo("Create")
	if len(creates) == 0 {
		t.Fatal("db was not created")
	}
	spec := creates[0].Arg.(engine.ContainerSpec)
	if len(spec.Files) != 1 || string(spec.Files[0].Data) != string(conf) {
		t.Errorf("db created with files %+v, want its spark-defaults.conf", spec.Files)
	}
	for _, m := range spec.Mounts {
		if strings.HasPrefix(m.Source, r.StateDir) {
			t.Errorf("db mounts %+v from .devenv", m)
		}
	}
}

// TestUpRepairsADuplicateNetwork: two networks of the project's name (an
// engine before API 1.44 lets racing creators make both) are repaired by
// the next up: the one the containers use stays, devenv's labelled
// duplicate goes; a duplicate devenv did not make is named, not removed.
func TestUpRepairsADuplicateNetwork(t *testing.T) {
	f := enginetest.New()
	r := newRunner(t, f)
	ctx := t.Context()
	if _, err := r.Up(ctx, testPlan(), UpOptions{}); err != nil {
		t.Fatal(err)
	}
	nets, _ := f.List(ctx, engine.Networks, nil)
	kept := nets[0].ID
	f.AddNetwork("p", nets[0].Labels)
	res, err := r.Up(ctx, testPlan(), UpOptions{})
	if err != nil {
		t.Fatalf("up with a duplicate network: %v", err)
	}
	if a := actionsOf(res.Changes); a["db"] != Unchanged || a["app"] != Unchanged {
		t.Errorf("up: %v, want both unchanged on the kept network", a)
	}
	nets, _ = f.List(ctx, engine.Networks, nil)
	if len(nets) != 1 || nets[0].ID != kept {
		t.Errorf("networks after the repair: %+v, want only %s", nets, kept)
	}
	f.AddNetwork("p", map[string]string{"made-by": "hand"})
	_, err = r.Up(ctx, testPlan(), UpOptions{})
	if err == nil || !strings.Contains(err.Error(), "was not created by devenv") || !strings.Contains(err.Error(), "docker network rm") {
		t.Fatalf("a foreign duplicate: %v", err)
	}
	if nets, _ = f.List(ctx, engine.Networks, nil); len(nets) != 2 {
		t.Errorf("the foreign duplicate was touched: %+v", nets)
	}
}
