package reconcile

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/filelock"
)

func TestLockSerialises(t *testing.T) {
	dir := t.TempDir()
	release, err := Lock(t.Context(), dir, LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 2)
	go func() {
		rel2, err := Lock(t.Context(), dir, LockOptions{Waiting: func(h filelock.Holder) { got <- "waiting for " + strconv.Itoa(h.PID) }})
		if err == nil {
			got <- "locked"
			rel2()
		}
	}()
	if s, want := <-got, "waiting for "+strconv.Itoa(os.Getpid()); s != want {
		t.Fatalf("second lock: %q, want %q", s, want)
	}
	release()
	if s := <-got; s != "locked" {
		t.Fatalf("second lock after release: %q", s)
	}
}

// A wait for the project lock ends on Ctrl-C (exit 130 upstream) and after
// --wait-timeout, each saying who holds the project.
func TestLockWaitEnds(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		cancel  bool
		want    []string
		is      error
	}{
		{"interrupted", 0, true, []string{"stopped waiting", "pid " + strconv.Itoa(os.Getpid())}, context.Canceled},
		{"timed out", 20 * time.Millisecond, false, []string{"still was after 20ms", "pid " + strconv.Itoa(os.Getpid()), "--wait-timeout"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			release, err := Lock(t.Context(), dir, LockOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			opt := LockOptions{Timeout: tt.timeout}
			if tt.cancel {
				opt.Waiting = func(filelock.Holder) { cancel() }
			}
			rel2, err := Lock(ctx, dir, opt)
			if err == nil {
				rel2()
				t.Fatal("Lock succeeded while another held it")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
		})
	}
}
