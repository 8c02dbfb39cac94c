package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/network"
)

// The benchmarks below run devenv and Docker Compose side by side on the
// same stand-in services with images already present, and report each
// one's time per operation, the ratio, and each process's peak RSS:
// no-op up, ps, down (of running services) and up from nothing.
// DEVENV_BENCH_COMPOSE names the compose command ("docker compose" by
// default, else docker-compose); its version is logged.

func composeCommand(b testing.TB) []string {
	if c := os.Getenv("DEVENV_BENCH_COMPOSE"); c != "" {
		return installedCompose(b, strings.Fields(c))
	}
	if exec.Command("docker", "compose", "version").Run() == nil {
		return []string{"docker", "compose"}
	}
	if exec.Command("docker-compose", "version").Run() == nil {
		return []string{"docker-compose"}
	}
	b.Skip("no compose tool (docker compose or docker-compose) to compare with")
	return nil
}

// installedCompose is the Compose program of DEVENV_BENCH_COMPOSE copied
// as devenv's programs are (standin.InstallCopy), when it names a file: a
// docker-compose straight from the Go linker maps 3 to 4 MB fewer pages on
// every run than the same file unpacked from a release, which is how both
// tools reach users.
func installedCompose(b testing.TB, cmd []string) []string {
	if !filepath.IsAbs(cmd[0]) {
		return cmd
	}
	dir, err := os.MkdirTemp("", "devenv-bench-compose-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = os.RemoveAll(dir) })
	dst := filepath.Join(dir, filepath.Base(cmd[0]))
	if err := standin.InstallCopy(cmd[0], dst); err != nil {
		b.Fatal(err)
	}
	return append([]string{dst}, cmd[1:]...)
}

// timed runs a command under GNU time and returns its wall time and the
// peak RSS in KiB of it and the children it waited for (the compose plugin
// under the docker CLI). A direct child of this test process would report
// this process's own RSS: Linux carries the parent's high-water mark across
// fork and exec, so the measured command is started by /usr/bin/time.
func timed(b *testing.B, dir string, env []string, name string, args ...string) (time.Duration, int64) {
	rssFile := filepath.Join(b.TempDir(), "rss")
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", rssFile, name}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	}
	d := time.Since(start)
	data, err := os.ReadFile(rssFile)
	if err != nil {
		b.Fatalf("GNU time wrote no peak RSS (apt-get install time): %v", err)
	}
	rss, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		b.Fatalf("GNU time's output %q: %v", data, err)
	}
	return d, rss
}

type side struct {
	total time.Duration
	rss   int64
}

func (s *side) add(d time.Duration, rss int64) {
	s.total += d
	if rss > s.rss {
		s.rss = rss
	}
}

func report(b *testing.B, dev, comp side, n int) {
	devMS := float64(dev.total.Milliseconds()) / float64(n)
	compMS := float64(comp.total.Milliseconds()) / float64(n)
	b.ReportMetric(devMS, "devenv-ms/op")
	b.ReportMetric(compMS, "compose-ms/op")
	if compMS > 0 {
		b.ReportMetric(devMS/compMS, "x-compose")
	}
	b.ReportMetric(float64(dev.rss)/1024, "devenv-peak-MiB")
	b.ReportMetric(float64(comp.rss)/1024, "compose-peak-MiB")
}

// benchProjects writes the same n services as a devenv project and a compose project.
func benchProjects(b testing.TB, w *world, n int) (devDir, devName, compDir, compName string, compose []string) {
	var dy, cy strings.Builder
	dy.WriteString("services:\n")
	cy.WriteString("services:\n")
	for i := range n {
		fmt.Fprintf(&dy, "  s%d:\n    profile: image\n    image: nvcr.io/%s\n    command: [sleep, infinity]\n    env: {N: \"%d\"}\n", i, plainBase, i)
		// init: true as devenv gives every container, so both stop at once
		fmt.Fprintf(&cy, "  s%d:\n    image: %s\n    init: true\n    command: [sleep, infinity]\n    environment: {N: \"%d\"}\n", i, standin.DebianRef, i)
	}
	devDir, devName = w.project(b, dy.String(), nil)
	compName = devName + "c"
	compDir = standin.Project(b, map[string]string{"compose.yaml": cy.String()})
	standin.CleanupProject(b, compName)
	compose = composeCommand(b)
	b.Cleanup(func() {
		if err := exec.Command(compose[0], append(compose[1:], "-p", compName, "down", "--remove-orphans")...).Run(); err != nil {
			b.Fatal(err)
		}
	})
	out, _ := exec.Command(compose[0], append(compose[1:], "version")...).CombinedOutput()
	b.Logf("compose: %s (%s)", strings.Join(compose, " "), strings.TrimSpace(string(out)))
	w.mustB(b, devDir, "lock")
	w.mustB(b, devDir, "up") // pulls the pinned image once: images are present from here on
	return
}

func BenchmarkUpVsCompose(b *testing.B) {
	w := newWorld(b)
	bin := standin.Devenv(b)
	for _, n := range []int{3, 12} {
		devDir, devName, compDir, compName, compose := benchProjects(b, w, n)
		comp := func(args ...string) []string { return append(append(compose[1:], "-p", compName), args...) }
		b.Run(fmt.Sprintf("noop/services=%d", n), func(b *testing.B) {
			// each side's first up after the setup's is its own warm-up: for
			// devenv it is the one that leaves the receipt (the setup's up
			// pulled and wrote files while it ran, so it left none)
			timed(b, devDir, w.env, bin, "up")
			timed(b, compDir, nil, compose[0], comp("up", "-d")...)
			var dev, cmp side
			for b.Loop() {
				dev.add(timed(b, devDir, w.env, bin, "up"))
				cmp.add(timed(b, compDir, nil, compose[0], comp("up", "-d")...))
			}
			report(b, dev, cmp, b.N)
		})
		b.Run(fmt.Sprintf("ps/services=%d", n), func(b *testing.B) {
			timed(b, devDir, w.env, bin, "up")
			timed(b, compDir, nil, compose[0], comp("up", "-d")...)
			var dev, cmp side
			for b.Loop() {
				dev.add(timed(b, devDir, w.env, bin, "ps"))
				cmp.add(timed(b, compDir, nil, compose[0], comp("ps")...))
			}
			report(b, dev, cmp, b.N)
		})
		b.Run(fmt.Sprintf("down/services=%d", n), func(b *testing.B) {
			var dev, cmp side
			for b.Loop() {
				b.StopTimer()
				timed(b, devDir, w.env, bin, "up")
				timed(b, compDir, nil, compose[0], comp("up", "-d")...)
				b.StartTimer()
				dev.add(timed(b, devDir, w.env, bin, "down"))
				cmp.add(timed(b, compDir, nil, compose[0], comp("down")...))
			}
			report(b, dev, cmp, b.N)
		})
		b.Run(fmt.Sprintf("downfloor/services=%d", n), func(b *testing.B) {
			var floor, cmp side
			for b.Loop() {
				b.StopTimer()
				timed(b, devDir, w.env, bin, "up")
				timed(b, compDir, nil, compose[0], comp("up", "-d")...)
				b.StartTimer()
				floor.add(rawDown(b, devName), 0)
				cmp.add(timed(b, compDir, nil, compose[0], comp("down")...))
			}
			b.ReportMetric(float64(floor.total.Milliseconds())/float64(b.N), "client-floor-ms/op")
			b.ReportMetric(float64(cmp.total.Milliseconds())/float64(b.N), "compose-ms/op")
			b.ReportMetric(float64(floor.total)/float64(cmp.total), "floor-x-compose")
		})
		b.Run(fmt.Sprintf("cold/services=%d", n), func(b *testing.B) {
			var dev, cmp side
			for b.Loop() {
				b.StopTimer()
				timed(b, devDir, w.env, bin, "down")
				timed(b, compDir, nil, compose[0], comp("down")...)
				b.StartTimer()
				dev.add(timed(b, devDir, w.env, bin, "up"))
				cmp.add(timed(b, compDir, nil, compose[0], comp("up", "-d")...))
			}
			report(b, dev, cmp, b.N)
		})
	}
}

// rawDown is the least any client can do for down, timed in this process:
// the Docker client makes only the calls down needs (list the project's
// containers and networks, stop the containers side by side, remove each
// once stopped, remove the network once all have stopped), with no process
// to start. What it takes is the engine's share of down.
func rawDown(b *testing.B, project string) time.Duration {
	cli := standin.Docker(b)
	ctx := b.Context()
	start := time.Now()
	f := filters.NewArgs(filters.Arg("label", labels.Project+"="+project))
	cs, err := cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		b.Fatal(err)
	}
	ns, err := cli.NetworkList(ctx, network.ListOptions{Filters: f})
	if err != nil {
		b.Fatal(err)
	}
	errs := make([]error, len(cs)+1)
	var stopped, all sync.WaitGroup
	stopped.Add(len(cs))
	timeout := 10
	for i, c := range cs {
		all.Go(func() {
			errs[i] = cli.ContainerStop(ctx, c.ID, container.StopOptions{Timeout: &timeout})
			stopped.Done()
			if errs[i] == nil {
				errs[i] = cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{})
			}
		})
	}
	all.Go(func() {
		stopped.Wait()
		for _, n := range ns {
			errs[len(cs)] = cmpOr(errs[len(cs)], cli.NetworkRemove(ctx, n.ID))
		}
	})
	all.Wait()
	d := time.Since(start)
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	return d
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// BenchmarkBuildNoChange: `devenv build` when no input changed sends no build
// to the engine (the JSON result lists no change) and takes under 100 ms.
func BenchmarkBuildNoChange(b *testing.B) {
	w := newWorld(b)
	bin := standin.Devenv(b)
	dir, _ := w.project(b, "services:\n  app:\n    profile: image\n    build: docker/Dockerfile\n    command: [sleep, infinity]\n",
		map[string]string{"docker/Dockerfile": "FROM " + standin.DebianRef + "\nRUN echo built > /built\n"})
	w.mustB(b, dir, "lock")
	w.mustB(b, dir, "build")
	var dev side
	for b.Loop() {
		d, rss := timed(b, dir, w.env, bin, "build", "--json")
		dev.add(d, rss)
	}
	out := w.mustB(b, dir, "build", "--json").Stdout
	if strings.Contains(out, `"built"`) {
		b.Fatalf("an unchanged build built: %s", out)
	}
	b.ReportMetric(float64(dev.total.Microseconds())/1000/float64(b.N), "ms/op")
	b.ReportMetric(float64(dev.rss)/1024, "peak-MiB")
}
