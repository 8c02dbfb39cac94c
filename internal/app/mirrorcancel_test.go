package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/envs/lock"
)

// bigEventLog is a generated event log of about 22 MB: Spark 3.5.1's
// start, then 200,000 task ends, long enough that reading it to the end is
// seen.
func bigEventLog() string {
	line := `{"Event":"SparkListenerTaskEnd","Stage ID":1,"Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":1}}` + "\n"
	return `{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}` + "\n" + strings.Repeat(line, 200_000)
}

// TestCancelStopsReadingAMirroredEventLog: lock, lock --check, config and
// the plan up runs read the service's mirror: (its digest, prod's versions
// and packages, prod's confs); a cancelled command (Ctrl-C, SIGTERM) stops
// that read at once with context.Canceled, writing no lock.
func TestCancelStopsReadingAMirroredEventLog(t *testing.T) {
	yaml := optionalSpark + "    mirror: prod/app-1\n"
	w := newWorld(t, yaml, map[string]string{"prod/app-1": bigEventLog()})
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	stops := func(what string, run func(context.Context) error) {
		t.Helper()
		start := time.Now()
		err := run(cancelled)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s after Ctrl-C: %v, want context.Canceled", what, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s took %s to stop", what, d)
		}
	}
	stops("lock", func(ctx context.Context) error { _, err := w.open(t).Lock(ctx, LockOptions{}); return err })
	if _, err := os.Stat(filepath.Join(w.dir, "devenv.lock")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a cancelled lock wrote devenv.lock (%v)", err)
	}
	if _, err := w.open(t).Lock(t.Context(), LockOptions{}); err != nil {
		t.Fatalf("the same lock without a cancel: %v", err)
	}
	stops("lock --check", func(ctx context.Context) error { _, err := w.open(t).Lock(ctx, LockOptions{Check: true}); return err })
	stops("config", func(ctx context.Context) error { _, err := w.open(t).Config(ctx, nil); return err })
	stops("the plan", func(ctx context.Context) error {
		_, err := w.open(t).Plan(ctx, PlanOptions{Lock: mustReadLock(t, w)})
		return err
	})
}

func mustReadLock(t *testing.T, w *world) *lock.File {
	t.Helper()
	lf, err := w.open(t).ReadLock()
	if err != nil || lf == nil {
		t.Fatalf("read devenv.lock: %v", err)
	}
	return lf
}
