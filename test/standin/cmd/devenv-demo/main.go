// Command devenv-demo is `make demo`: it brings devenv's default starter
// (spark-rapids) up on a machine with a Docker engine and no route to
// nvcr.io, Maven, Apache or PyPI, no NGC key and no GPU.
//
// It starts local stand-ins for those (an OCI registry, an artifact server
// with the Maven and Apache layouts, a PyPI index: the ones devenv's
// end-to-end tests use, from ./test/standin), writes a demo project outside
// the source checkout whose devenv.yaml points its ordinary mirrors: at
// them, and runs the built devenv's init, lock and up there. The stand-ins
// live only while lock and up run: the project they leave behind is a
// normal devenv project that ps, up and down work in without them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/docker/docker/client"

	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/test/standin"
)

func main() {
	var o options
	flag.StringVar(&o.devenv, "devenv", "bin/devenv", "the devenv program to run (make demo passes the one it built)")
	flag.StringVar(&o.dir, "dir", os.Getenv("DEVENV_DEMO_DIR"), "the demo project's directory (default: $DEVENV_DEMO_DIR, else devenv-demo/devenv-demo in the user cache directory)")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "devenv-demo: no arguments expected, got %q\n", flag.Args())
		os.Exit(exitcode.Usage)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, o, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

type options struct {
	devenv string // path of the built devenv
	dir    string // the demo project's directory; "" for the default
}

// run is the demo; it returns the exit code.
func run(ctx context.Context, o options, stdout, stderr io.Writer) int {
	d, err := newDemo(ctx, o, stdout, stderr)
	if err == nil {
		err = d.run(ctx)
	}
	if err != nil {
		fmt.Fprintf(stderr, "devenv-demo: %v\n", err)
		return codeOf(err)
	}
	return 0
}

// codeOf is the exit code err carries (devenv's own, or one set here).
func codeOf(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() > 0 {
		return ee.ExitCode()
	}
	if c := exitcode.Of(err); c > 0 {
		return c
	}
	return exitcode.Failure
}

// demo is one run of make demo.
type demo struct {
	devenv string // absolute path of the devenv program
	dir    string // absolute path of the demo project
	cli    *client.Client
	cache  string // standin's cache (the Debian base's tarball, pushed images)
	out    io.Writer
	errw   io.Writer
}

func newDemo(ctx context.Context, o options, stdout, stderr io.Writer) (*demo, error) {
	bin, err := filepath.Abs(o.devenv)
	if err == nil {
		_, err = os.Stat(bin)
	}
	if err != nil {
		return nil, exitcode.Newf(exitcode.Usage, "no devenv program at %s (%v): run `make demo`, which builds it first", o.devenv, err)
	}
	dir, err := projectDir(o.dir)
	if err != nil {
		return nil, err
	}
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err == nil {
		_, err = cli.Ping(ctx)
	}
	if err != nil {
		return nil, exitcode.Newf(exitcode.Engine, "make demo needs a running Docker engine (DOCKER_HOST or /var/run/docker.sock): %v", err)
	}
	cache, err := standin.CacheDirectory()
	if err != nil {
		return nil, err
	}
	return &demo{devenv: bin, dir: dir, cli: cli, cache: cache, out: stdout, errw: stderr}, nil
}

// projectDir is the demo project's absolute directory: dir, else
// devenv-demo/devenv-demo under the user cache directory (the project is
// named after the directory). It refuses one inside devenv's checkout,
// as devenv init does.
func projectDir(dir string) (string, error) {
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", exitcode.Newf(exitcode.Usage, "no user cache directory to put the demo project in (%v): set DEVENV_DEMO_DIR", err)
		}
		dir = filepath.Join(base, "devenv-demo", "devenv-demo")
	}
	return filepath.Abs(dir)
}

func (d *demo) run(ctx context.Context) error {
	res, err := d.resolve(ctx)
	if err != nil {
		return err
	}
	base, err := d.chooseBase(ctx, res.BaseImage)
	if err != nil {
		return err
	}
	prev := previousPorts(d.dir)
	w, err := d.startWorld(ctx, res, base, prev)
	if err != nil {
		return err
	}
	defer w.stop()
	d.sayStandins(w)
	if err := d.writeProject(ctx, w); err != nil {
		return err
	}
	for _, args := range [][]string{{"lock"}, {"up", "--wait", "--wait-timeout", "10m"}} {
		if err := d.devenvRun(ctx, args...); err != nil {
			return fmt.Errorf("devenv %v in %s failed (above); the stand-ins stop now: %w", args, d.dir, err)
		}
	}
	w.stop()
	d.sayNext(w)
	return nil
}

// devenvRun runs the built devenv in the demo project, its output passed on.
func (d *demo) devenvRun(ctx context.Context, args ...string) error {
	fmt.Fprintf(d.out, "\n$ cd %s && %s %s\n", d.dir, d.devenv, strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, d.devenv, args...)
	cmd.Dir = d.dir
	cmd.Stdout, cmd.Stderr = d.out, d.errw
	return cmd.Run()
}
