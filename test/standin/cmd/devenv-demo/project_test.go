package main

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/test/standin"
)

// TestMirrorsBlockIsReplacedNotAdded: a second run's mirrors block takes
// the first one's place (the file stays the same when the ports do), the
// ports it names are read back, and a devenv.yaml with mirrors: of its own
// is not make demo's.
func TestMirrorsBlockIsReplacedNotAdded(t *testing.T) {
	starter, err := spec.Starter("devenv-demo", "")
	if err != nil {
		t.Fatal(err)
	}
	w := &world{registry: "127.0.0.1:5101", base: base{ref: standin.DebianRef}}
	if w.artifacts, err = standin.NewArtifacts(); err != nil {
		t.Fatal(err)
	}
	if w.pypi, err = standin.NewPyPI(); err != nil {
		t.Fatal(err)
	}
	w.stops = append(w.stops, w.artifacts.Serve(listenT(t)), w.pypi.Serve(listenT(t)))
	defer w.stop()
	write := func(text string) string {
		body, ok := withoutBlock(text)
		if !ok {
			t.Fatalf("withoutBlock refused make demo's own file:\n%s", text)
		}
		return strings.TrimRight(body, "\n") + "\n\n" + mirrorsBlock(w)
	}
	once := write(string(starter))
	twice := write(once)
	if once != twice {
		t.Errorf("a second run changed devenv.yaml:\n--- once\n%s\n--- twice\n%s", once, twice)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, spec.FileName), []byte(twice), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := previousPorts(dir), w.ports(); got != want {
		t.Errorf("previousPorts = %+v, want %+v", got, want)
	}
	if _, err := spec.Parse(spec.FileName, []byte(twice), dir); err != nil {
		t.Errorf("the demo's devenv.yaml does not load: %v\n%s", err, twice)
	}
	if _, ok := withoutBlock(string(starter) + "mirrors:\n  maven: \"https://repo.example.com/maven2\"\n"); ok {
		t.Error("a devenv.yaml with its own mirrors: was taken for make demo's")
	}
}

// TestFreeHostPortsMovesOnlyTakenPorts: a starter host port something
// holds moves to a free one; a free one stays.
func TestFreeHostPortsMovesOnlyTakenPorts(t *testing.T) {
	held := listenT(t)
	defer func() { _ = held.Close() }()
	taken := port(held.Addr().String())
	free := listenT(t)
	freePort := port(free.Addr().String())
	_ = free.Close()
	text := `    ports: ["` + strconv.Itoa(taken) + `:8888", "` + strconv.Itoa(freePort) + `:4040"]`
	got := freeHostPorts(text)
	if strings.Contains(got, `"`+strconv.Itoa(taken)+`:8888"`) || !strings.Contains(got, `"`+strconv.Itoa(freePort)+`:4040"`) || !strings.Contains(got, `:8888"`) {
		t.Errorf("freeHostPorts(%q) = %q: want the taken port moved, the free one kept", text, got)
	}
}

func listenT(t *testing.T) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}
