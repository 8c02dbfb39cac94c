package fastup

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeEngine answers the three questions of the check from its fields,
// on a unix socket, as the Engine API does.
type fakeEngine struct {
	containers []listed
	images     map[string]string
	machine    Machine
	huge       bool // answer the listing with more than maxAnswer bytes
	filters    []string
}

func (f *fakeEngine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/containers/json":
		f.filters = append(f.filters, r.URL.Query().Get("filters"))
		if f.huge {
			_, _ = w.Write([]byte("[" + strings.Repeat(" ", maxAnswer) + "]"))
			return
		}
		_ = json.NewEncoder(w).Encode(f.containers)
	case r.URL.Path == "/info":
		_ = json.NewEncoder(w).Encode(map[string]any{"NCPU": f.machine.CPUs, "MemTotal": f.machine.Memory})
	case strings.HasPrefix(r.URL.Path, "/images/") && strings.HasSuffix(r.URL.Path, "/json"):
		ref := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/images/"), "/json")
		id, ok := f.images[ref]
		if !ok {
			http.Error(w, `{"message":"No such image"}`, http.StatusNotFound)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"Id": id})
	default:
		http.NotFound(w, r)
	}
}

func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "e.sock")
	l, err := net.Listen("unix", sock)
	must(t, err)
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return sock
}

func running(id, name, image, netID string) listed {
	var l listed
	l.ID, l.Names, l.Image, l.State = id, []string{"/" + name}, image, "running"
	l.NetworkSettings.Networks = map[string]struct {
		NetworkID string `json:"NetworkID"`
	}{"p": {NetworkID: netID}}
	return l
}

// receiptFor is a receipt of a project with two containers of one image,
// on the engine at sock, whose inputs are one file in dir.
func receiptFor(t *testing.T, sock, dir string) *Receipt {
	t.Helper()
	write(t, dir+"/devenv.yaml", "name: p\n")
	st, err := Fingerprint([]string{dir + "/devenv.yaml"}, nil, nil, nil)
	must(t, err)
	return &Receipt{Version: Version, Project: "p", File: dir + "/devenv.yaml", WorkDir: dir, Program: "prog 1", Env: EnvDigest([]string{"A=1"}),
		Socket: sock, Files: []string{dir + "/devenv.yaml"}, Inputs: st.Digest, Machine: &Machine{CPUs: 4, Memory: 8 << 30},
		Containers: []Container{{ID: "c1", Name: "p-app", Image: "img:1", Networks: map[string]string{"p": "n1"}},
			{ID: "c2", Name: "p-side", Image: "img:1", Networks: map[string]string{"p": "n1"}}},
		Images: map[string]string{"img:1": "sha256:aaa"}}
}

func TestCheck(t *testing.T) {
	world := func(dir string) World { return World{WorkDir: dir, Environ: []string{"A=1"}, Program: "prog 1"} }
	tests := []struct {
		name   string
		change func(e *fakeEngine, w *World, dir string)
		want   string // in the error; "" for nothing changed
	}{
		{"nothing changed", func(*fakeEngine, *World, string) {}, ""},
		{"another directory", func(_ *fakeEngine, w *World, _ string) { w.WorkDir = "/elsewhere" }, "the last up ran in"},
		{"another devenv", func(_ *fakeEngine, w *World, _ string) { w.Program = "prog 2" }, "devenv changed"},
		{"another environment", func(_ *fakeEngine, w *World, _ string) { w.Environ = []string{"A=2"} }, "environment changed"},
		{"an input edited", func(_ *fakeEngine, _ *World, dir string) { write(t, dir+"/devenv.yaml", "name: q\n") }, "a file devenv plans from changed"},
		{"a container stopped", func(e *fakeEngine, _ *World, _ string) { e.containers[0].State = "exited" }, "p-app is exited"},
		{"a container gone", func(e *fakeEngine, _ *World, _ string) { e.containers = e.containers[1:] }, "has 1 containers"},
		{"a container more", func(e *fakeEngine, _ *World, _ string) {
			e.containers = append(e.containers, running("c3", "p-orphan", "img:1", "n1"))
		}, "has 3 containers"},
		{"a container replaced", func(e *fakeEngine, _ *World, _ string) { e.containers[1].ID = "c9" }, "not one the last up left"},
		{"a container renamed", func(e *fakeEngine, _ *World, _ string) { e.containers[1].Names = []string{"/x"} }, "renamed"},
		{"a network replaced", func(e *fakeEngine, _ *World, _ string) { e.containers[0] = running("c1", "p-app", "img:1", "n2") }, "networks changed"},
		{"an image retagged", func(e *fakeEngine, _ *World, _ string) { e.images["img:1"] = "sha256:bbb" }, "image img:1 changed"},
		{"an image removed", func(e *fakeEngine, _ *World, _ string) { delete(e.images, "img:1") }, "404"},
		{"the machine resized", func(e *fakeEngine, _ *World, _ string) { e.machine.CPUs = 8 }, "CPUs or memory"},
		{"an endless answer", func(e *fakeEngine, _ *World, _ string) { e.huge = true }, "over 8388608 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &fakeEngine{containers: []listed{running("c1", "p-app", "img:1", "n1"), running("c2", "p-side", "img:1", "n1")},
				images: map[string]string{"img:1": "sha256:aaa"}, machine: Machine{CPUs: 4, Memory: 8 << 30}}
			dir := t.TempDir()
			r := receiptFor(t, serve(t, e), dir)
			w := world(dir)
			tt.change(e, &w, dir)
			err := Check(t.Context(), r, w)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Check: %v, want nothing changed", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Check: %v, want an error with %q", err, tt.want)
			}
			if len(e.filters) > 0 && !strings.Contains(e.filters[0], `"dev.devenv.project=p"`) {
				t.Errorf("the listing's filter %s is not the project's label", e.filters[0])
			}
		})
	}
}

func TestCheckNoEngine(t *testing.T) {
	dir := t.TempDir()
	r := receiptFor(t, filepath.Join(dir, "none.sock"), dir)
	if err := Check(t.Context(), r, World{WorkDir: dir, Environ: []string{"A=1"}, Program: "prog 1"}); err == nil {
		t.Fatal("Check with no engine at the socket: nil")
	}
}

func TestReceiptRoundTrip(t *testing.T) {
	state := t.TempDir() + "/.devenv"
	if r, err := Read(state); r != nil || err != nil {
		t.Fatalf("Read of no receipt = %v, %v; want nil, nil", r, err)
	}
	want := &Receipt{Project: "p", Text: "p is up: 1 unchanged\n", JSON: "{}\n", Images: map[string]string{}}
	must(t, Write(state, want))
	got, err := Read(state)
	must(t, err)
	if got == nil || got.Project != "p" || got.Text != want.Text || got.Version != Version {
		t.Fatalf("Read = %+v", got)
	}
	if fi, err := os.Stat(Path(state)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("receipt mode: %v %v, want 0600", fi.Mode(), err)
	}
	must(t, Remove(state))
	must(t, Remove(state)) // removing none is fine
	if r, _ := Read(state); r != nil {
		t.Fatal("the receipt is still there")
	}
}

func TestReadRefuses(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, state string)
		err   bool
	}{
		{"another version", func(t *testing.T, state string) { write(t, Path(state), `{"version": 99}`) }, false},
		{"not JSON", func(t *testing.T, state string) { write(t, Path(state), "garbage") }, true},
		{"a link", func(t *testing.T, state string) {
			other := filepath.Join(t.TempDir(), "r.json")
			write(t, other, `{"version": 1}`)
			must(t, os.MkdirAll(state, 0o755))
			must(t, os.Symlink(other, Path(state)))
		}, true},
		{"too large", func(t *testing.T, state string) { write(t, Path(state), strings.Repeat(" ", maxReceipt+1)) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := t.TempDir() + "/.devenv"
			tt.setup(t, state)
			r, err := Read(state)
			if r != nil || (err != nil) != tt.err {
				t.Fatalf("Read = %v, %v; want no receipt and error %v", r, err, tt.err)
			}
		})
	}
}
