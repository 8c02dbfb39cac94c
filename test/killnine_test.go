package e2e

// kill -9 at random points of up, lock, down and watch: after each kill the
// next run of the same command converges (exit 0, the state it promises),
// and what the killed run left is reused or removed by it: no second
// network of the project's name, no container, volume or image beyond the
// project's, no temporary file, no partial download in the cache.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/volume"

	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/test/standin"
)

// killRuns is how many kills TestFaultKillNineAnywhereConverges makes:
// DEVENV_FAULT_KILLS, else a few (make e2e's time budget); the
// README's figures are from DEVENV_FAULT_KILLS=50.
func killRuns(t *testing.T) int {
	if v := os.Getenv("DEVENV_FAULT_KILLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("DEVENV_FAULT_KILLS=%q: want a positive count", v)
		}
		return n
	}
	return 4
}

const killCompose = `services:
  site:
    build: .
    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]
    volumes: [data:/data]
    develop:
      watch:
        - path: ./site
          action: sync
          target: /srv/site
volumes:
  data: {}
`

// TestFaultKillNineAnywhereConverges kills devenv with SIGKILL at a random
// moment of up, lock, down or watch (the first 150 ms of up weighted: a
// network is created there), then runs the command again and checks that
// it converges, leaving nothing the next run neither reuses nor removes.
func TestFaultKillNineAnywhereConverges(t *testing.T) {
	t.Parallel()
	base := standin.Debian(t)
	w := newWorld(t)
	dir, name := w.project(t, "compose: [compose.yaml]\n"+oneSpark+`  box:
    profile: image
    image: nvcr.io/`+plainBase+`
    command: ["sleep", "infinity"]
`, map[string]string{"compose.yaml": killCompose, "Dockerfile": "FROM " + base + "\n", "site/index.html": "v1\n"})
	cache := filepath.Join(t.TempDir(), "cache")
	env := append(append([]string{}, w.env...), "DEVENV_CACHE="+cache)
	run := func(args ...string) standin.Result { return standin.Run(t, dir, env, args...) }
	if r := run("lock"); r.Code != 0 {
		t.Fatalf("lock: exit %d\n%s", r.Code, r.Stderr)
	}
	n := killRuns(t)
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("DEVENV_FAULT_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	rnd := rand.New(rand.NewPCG(seed, seed))
	t.Logf("%d kills, DEVENV_FAULT_SEED=%d, load %s", n, seed, loadAverage())
	cmds := []string{"up", "lock", "down", "watch"}
	tally := map[string]int{}
	start := time.Now()
	for i := range n {
		cmd := cmds[i%len(cmds)]
		if i >= len(cmds) {
			cmd = cmds[rnd.IntN(len(cmds))]
		}
		delay := time.Duration(rnd.IntN(3000)) * time.Millisecond
		if cmd == "up" && rnd.IntN(2) == 0 {
			delay = time.Duration(rnd.IntN(150)) * time.Millisecond
		}
		prepare(t, cmd, dir, cache, run)
		out := killAfter(t, dir, env, delay, cmd)
		tally[cmd]++
		r := run(converging(cmd)...)
		if r.Code != 0 {
			t.Fatalf("kill %d (%s after %s): the next %s exits %d\nkilled run:\n%s\nnext run:\n%s", i+1, cmd, delay, cmd, r.Code, out, r.Stderr)
		}
		if problems := leftovers(t, cmd, name, dir, cache); len(problems) > 0 {
			t.Fatalf("kill %d (%s after %s): after the next %s:\n  %s\nkilled run:\n%s\nnext run:\n%s", i+1, cmd, delay, cmd,
				strings.Join(problems, "\n  "), out, r.Stderr)
		}
		t.Logf("kill %d of %d: %s after %s converged (%s in all)", i+1, n, cmd, delay, time.Since(start).Round(time.Second))
	}
	t.Logf("%d kills (%v) converged, each on the next run, in %s; load %s", n, tally, time.Since(start).Round(time.Second), loadAverage())
	if r := run("down", "--volumes", "--rmi"); r.Code != 0 {
		t.Fatalf("final down: exit %d\n%s", r.Code, r.Stderr)
	}
	if c := countObjects(t, name); c != (objectCount{}) {
		t.Errorf("after down --volumes --rmi: %+v left", c)
	}
}

// prepare makes the killed command have work to do: up and watch from a
// project that is down, lock with no lock and no cached artifacts (so the
// kill can land in a download), down of a project that is up.
func prepare(t *testing.T, cmd, dir, cache string, run func(...string) standin.Result) {
	t.Helper()
	var r standin.Result
	switch cmd {
	case "up", "watch":
		r = run("down")
	case "down":
		r = run("up")
	case "lock":
		if err := os.Remove(filepath.Join(dir, "devenv.lock")); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.RemoveAll(filepath.Join(cache, "artifacts", "sha256")); err != nil {
			t.Fatal(err)
		}
		return
	}
	if r.Code != 0 {
		t.Fatalf("preparing a kill of %s: exit %d\n%s", cmd, r.Code, r.Stderr)
	}
}

// converging is the run after a kill of cmd that must converge: the
// command again (watch's state is up's: it is checked by an up).
func converging(cmd string) []string {
	if cmd == "watch" {
		return []string{"up"}
	}
	return []string{cmd}
}

// killAfter starts devenv cmd and sends it SIGKILL after delay (or lets it
// end first); it returns what the killed run printed.
func killAfter(t *testing.T, dir string, env []string, delay time.Duration, cmd string) string {
	t.Helper()
	c := exec.Command(standin.Devenv(t), cmd)
	c.Dir, c.Env = dir, append(os.Environ(), env...)
	var out bytes.Buffer
	c.Stdout, c.Stderr = io.Discard, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-time.After(delay):
		_ = c.Process.Kill()
		_ = <-done // killed: the exit status says only that
	case err := <-done: // ended before the kill, successfully or not: the next run converges either way
		_ = err
	}
	return out.String()
}

type objectCount struct{ Containers, Networks, Volumes, Images int }

// countObjects counts the project's objects: containers, volumes and
// images by its label, networks by its name (a duplicate might carry none).
func countObjects(t *testing.T, name string) objectCount {
	t.Helper()
	cli := standin.Docker(t)
	ctx := t.Context()
	f := filters.NewArgs(filters.Arg("label", labels.ProjectFilter(name)))
	var c objectCount
	cs, err := cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		t.Fatal(err)
	}
	c.Containers = len(cs)
	ns, err := cli.NetworkList(ctx, network.ListOptions{Filters: filters.NewArgs(filters.Arg("name", name))})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range ns {
		if n.Name == name || strings.HasPrefix(n.Name, name+"_") {
			c.Networks++
		}
	}
	vs, err := cli.VolumeList(ctx, volume.ListOptions{Filters: f})
	if err != nil {
		t.Fatal(err)
	}
	c.Volumes = len(vs.Volumes)
	is, err := cli.ImageList(ctx, image.ListOptions{Filters: f})
	if err != nil {
		t.Fatal(err)
	}
	c.Images = len(is)
	return c
}

// leftovers names what a converged run of cmd should not have left: the
// project's objects beyond what its state needs, temporary files in the
// project, partial downloads or corrupt blobs in the artifact cache.
func leftovers(t *testing.T, cmd, name, dir, cache string) []string {
	t.Helper()
	var out []string
	c := countObjects(t, name)
	switch cmd {
	case "up", "watch", "lock":
		// lock leaves the project as prepare left it: up, or down after an up/watch prepare.
		if cmd != "lock" && c.Containers != 3 {
			out = append(out, fmt.Sprintf("%d containers, want 3 (spark, box, site)", c.Containers))
		}
		if c.Networks > 1 || (cmd != "lock" && c.Networks != 1) {
			out = append(out, fmt.Sprintf("%d networks named %s, want 1", c.Networks, name))
		}
	case "down":
		if c.Containers != 0 || c.Networks != 0 {
			out = append(out, fmt.Sprintf("after down: %d containers and %d networks, want none", c.Containers, c.Networks))
		}
	}
	if c.Volumes > 1 {
		out = append(out, fmt.Sprintf("%d volumes, want at most the one the project declares", c.Volumes))
	}
	if c.Images > 2 {
		out = append(out, fmt.Sprintf("%d images labelled for the project, want at most the 2 it builds (spark, site)", c.Images))
	}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".tmp-") {
			out = append(out, "temporary file left: "+p)
		}
		return nil
	})
	art := filepath.Join(cache, "artifacts")
	if partials, _ := filepath.Glob(filepath.Join(art, ".download-*")); len(partials) > 0 {
		out = append(out, fmt.Sprintf("partial downloads left in the cache: %v", partials))
	}
	blobs, _ := filepath.Glob(filepath.Join(art, "sha256", "*"))
	for _, b := range blobs {
		if sum, err := fileSHA256(b); err != nil || sum != filepath.Base(b) {
			out = append(out, fmt.Sprintf("cache entry %s does not hash to its name (%s, %v)", b, sum, err))
		}
	}
	return out
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
