// Command standin-prepare makes the Debian stand-in images that the
// end-to-end tests wait for (the base every test's registry serves, the
// install test's releases), so that `make test` can debootstrap them while
// the unit tests compile: debootstrap waits on deb.debian.org and the disk,
// the compiler on the CPU. What it makes is what the tests would make
// (same cache, same locks); a test that finds an image made uses it, one
// that finds this program still at work waits on its lock. It exits 1 when
// an image could not be made; the tests then try again and fail with the
// reason.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/client"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "standin-prepare: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		return err
	}
	defer func() { _ = cli.Close() }()
	dir, err := standin.CacheDirectory()
	if err != nil {
		return err
	}
	logf := func(f string, a ...any) { fmt.Printf("standin-prepare: "+f+"\n", a...) }
	start := time.Now()
	jobs := []func() error{func() error { _, err := standin.DebianImage(ctx, cli, dir, logf); return err }}
	for _, suite := range standin.InstallSuites {
		jobs = append(jobs, func() error {
			_, err := standin.DebianSuiteImage(ctx, cli, dir, suite, standin.InstallPackages, logf)
			return err
		})
	}
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Go(func() { errs[i] = job() })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	logf("the Debian stand-ins are in the engine (%s)", time.Since(start).Round(time.Second))
	return nil
}
