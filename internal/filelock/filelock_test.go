package filelock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestTryAcquireWhileHeld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "run.lock")
	l, err := TryAcquire(path, Options{Command: "devenv up"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = TryAcquire(path, Options{Command: "devenv down"})
	if !errors.Is(err, ErrHeld) {
		t.Fatalf("second TryAcquire = %v, want ErrHeld", err)
	}
	for _, want := range []string{path, "pid " + strconv.Itoa(os.Getpid()), "(devenv up)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if st, err := os.Stat(HolderPath(path)); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("holder file mode %v (%v), want 0600: the command line may carry the user's values", st.Mode().Perm(), err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(HolderPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("holder file after Release: %v, want it removed", err)
	}
	l2, err := TryAcquire(path, Options{Command: "devenv down"})
	if err != nil {
		t.Fatalf("TryAcquire after Release: %v", err)
	}
	if err := l2.Release(); err != nil {
		t.Fatal(err)
	}
}

func TestAcquireWaitsForRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.lock")
	first, err := TryAcquire(path, Options{Command: "devenv up"})
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan Holder, 1)
	got := make(chan error, 1)
	go func() {
		l, err := Acquire(t.Context(), path, Options{Poll: 5 * time.Millisecond, Command: "devenv down",
			Waiting: func(h Holder) { waiting <- h }})
		if err == nil {
			err = l.Release()
		}
		got <- err
	}()
	h := <-waiting
	if h.PID != os.Getpid() || h.Command != "devenv up" || h.Since.IsZero() {
		t.Errorf("Waiting got holder %+v, want this pid, devenv up and a time", h)
	}
	select {
	case err := <-got:
		t.Fatalf("Acquire returned %v while the lock was held", err)
	default:
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatalf("Acquire after release: %v", err)
	}
}

func TestAcquireEnds(t *testing.T) {
	tests := []struct {
		name    string
		opt     Options
		cancel  bool
		check   func(error) bool
		wantMsg string
	}{
		{"cancelled", Options{}, true, func(err error) bool { return errors.Is(err, context.Canceled) }, "held by pid"},
		{"timeout", Options{Timeout: 30 * time.Millisecond}, false, func(err error) bool {
			var te *TimeoutError
			return errors.As(err, &te) && te.Holder.Command == "devenv up"
		}, "gave up after"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.lock")
			held, err := TryAcquire(path, Options{Command: "devenv up"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = held.Release() })
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			opt := tt.opt
			opt.Poll = time.Hour // the end must not wait for a retry
			if tt.cancel {
				opt.Waiting = func(Holder) { cancel() }
			}
			start := time.Now()
			l, err := Acquire(ctx, path, opt)
			if err == nil {
				_ = l.Release()
				t.Fatal("Acquire succeeded while the lock was held")
			}
			if !tt.check(err) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("Acquire = %v (%T), want a %s error saying %q", err, err, tt.name, tt.wantMsg)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("Acquire took %s to end", d)
			}
		})
	}
}

func TestHolderString(t *testing.T) {
	since := time.Date(2026, 11, 30, 15, 4, 5, 0, time.Local)
	tests := []struct {
		h    Holder
		want string
	}{
		{Holder{}, "an unknown process"},
		{Holder{PID: 42}, "pid 42"},
		{Holder{PID: 42, Command: "devenv up"}, "pid 42 (devenv up)"},
		{Holder{PID: 42, Command: "devenv up", Since: since}, "pid 42 (devenv up) since 15:04:05"},
	}
	for _, tt := range tests {
		if got := tt.h.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.h, got, tt.want)
		}
	}
}

func TestReleaseNil(t *testing.T) {
	var l *Lock
	if err := l.Release(); err != nil {
		t.Errorf("nil Release = %v", err)
	}
}

// TestAbandonedHolderTempFilesAreRemoved: a holder killed while writing the
// holder file leaves atomicfile's temporary file; the next holder removes
// it (no writer of it can be alive: only the holder writes there).
func TestAbandonedHolderTempFilesAreRemoved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.lock")
	tmp := filepath.Join(filepath.Dir(path), ".tmp-run.lock.holder428398216")
	if err := os.WriteFile(tmp, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(filepath.Dir(path), ".tmp-devenv.lock123")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := TryAcquire(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Release() }()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("the killed holder's temporary file is still there (%v)", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another file's temporary file was removed: %v", err)
	}
}
