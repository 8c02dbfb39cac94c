// Package filelock is devenv's one inter-process lock: an exclusive
// advisory lock on a file (github.com/gofrs/flock: flock on Unix,
// LockFileEx on Windows) whose wait follows a context and an optional
// timeout, with a holder file beside it that says who holds it.
//
// The operating system frees the lock when its process ends, so a devenv
// that dies never leaves a project locked; the holder file it leaves behind
// is only read while the lock is held by someone.
package filelock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// Holder says who holds a lock; written to <lock>.holder when taken.
type Holder struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
}

// String reads "pid 123 (devenv up) since 15:04:05"; parts not known are left out.
func (h Holder) String() string {
	if h.PID == 0 {
		return "an unknown process"
	}
	s := fmt.Sprintf("pid %d", h.PID)
	if h.Command != "" {
		s += " (" + h.Command + ")"
	}
	if !h.Since.IsZero() {
		s += " since " + h.Since.Local().Format("15:04:05")
	}
	return s
}

// Options tune Acquire. The zero value waits until ctx ends.
type Options struct {
	// Timeout ends the wait with a *TimeoutError; 0 waits as long as ctx.
	Timeout time.Duration
	// Waiting is called once, with the holder, when the lock is held.
	Waiting func(Holder)
	// Poll is how often a waiting Acquire retries; 100ms when 0.
	Poll time.Duration
	// Command is recorded in the holder file; this process's arguments when "".
	Command string
	// PID is recorded in the holder file; this process's when 0.
	PID int
	// NoHolder skips the holder file: for a probe that takes the lock only
	// to see whether it is free, and must hold it as briefly as possible.
	NoHolder bool
}

// Lock is a held lock.
type Lock struct {
	fl     *flock.Flock
	holder string
}

// TimeoutError is returned when Options.Timeout passed with the lock still held.
type TimeoutError struct {
	Path   string
	Waited time.Duration
	Holder Holder
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("gave up after %s waiting for the lock %s, held by %s: let it finish, or stop that process if it is stuck",
		e.Waited.Round(time.Millisecond), e.Path, e.Holder)
}

// ErrHeld is returned by TryAcquire when another process holds the lock.
var ErrHeld = errors.New("held by another process")

// HolderPath is the file beside lockPath that names the holder.
func HolderPath(lockPath string) string { return lockPath + ".holder" }

// Acquire takes the exclusive lock on path (creating it and its directory),
// waiting while another process holds it until ctx ends (ctx.Err() is
// returned, wrapped) or opt.Timeout passes (*TimeoutError).
func Acquire(ctx context.Context, path string, opt Options) (*Lock, error) {
	l, err := TryAcquire(path, opt)
	if err == nil || !errors.Is(err, ErrHeld) {
		return l, err
	}
	if opt.Waiting != nil {
		opt.Waiting(ReadHolder(path))
	}
	wctx, cancel := ctx, context.CancelFunc(func() {})
	if opt.Timeout > 0 {
		wctx, cancel = context.WithTimeout(ctx, opt.Timeout)
	}
	defer cancel()
	start := time.Now()
	fl := flock.New(path)
	ok, err := fl.TryLockContext(wctx, cmp(opt.Poll, 100*time.Millisecond))
	if ok {
		return held(fl, path, opt), nil
	}
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("waiting for the lock %s, held by %s: %w", path, ReadHolder(path), ctx.Err())
	case wctx.Err() != nil:
		return nil, &TimeoutError{Path: path, Waited: time.Since(start), Holder: ReadHolder(path)}
	}
	return nil, fmt.Errorf("lock %s: %w", path, err)
}

// TryAcquire takes the lock on path without waiting; ErrHeld (wrapped, with
// the holder) when another process holds it. Only opt.Command and opt.PID
// are used.
func TryAcquire(path string, opt Options) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the directory for the lock %s: %w", path, err)
	}
	fl := flock.New(path)
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("cannot lock %s: %w", path, err)
	}
	if !ok {
		return nil, fmt.Errorf("%s is %w: %s", path, ErrHeld, ReadHolder(path))
	}
	return held(fl, path, opt), nil
}

func held(fl *flock.Flock, path string, opt Options) *Lock {
	l := &Lock{fl: fl, holder: HolderPath(path)}
	if opt.NoHolder {
		l.holder = ""
		return l
	}
	h := Holder{PID: opt.PID, Command: opt.Command, Since: time.Now().UTC()}
	if h.PID == 0 {
		h.PID = os.Getpid()
	}
	if h.Command == "" {
		h.Command = commandLine()
	}
	removeAbandonedHolders(l.holder)
	data, _ := json.Marshal(h)
	// Best effort: the holder file only helps people waiting to understand.
	// Only its owner reads it: the command line may carry the user's values.
	_ = atomicfile.WriteFile(l.holder, append(data, '\n'), 0o600)
	return l
}

// removeAbandonedHolders removes the temporary files (atomicfile's
// ".tmp-<name>*") a holder of this lock killed while writing its holder
// file left: only the lock's holder writes that file, and the caller holds
// the lock now, so no writer of them is alive.
func removeAbandonedHolders(holder string) {
	tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(holder), ".tmp-"+filepath.Base(holder)+"*"))
	for _, t := range tmps {
		_ = os.Remove(t)
	}
}

// Release removes the holder file and lets the lock go. Safe on nil.
func (l *Lock) Release() error {
	if l == nil || l.fl == nil {
		return nil
	}
	if l.holder != "" {
		_ = os.Remove(l.holder)
	}
	path := l.fl.Path()
	err := l.fl.Unlock()
	l.fl = nil
	if err != nil {
		return fmt.Errorf("cannot unlock %s: %w", path, err)
	}
	return nil
}

// ReadHolder returns who holds the lock at path as its holder file says; a
// zero Holder when the file is missing or unreadable.
func ReadHolder(path string) Holder {
	var h Holder
	if data, err := safefile.ReadFile(HolderPath(path), safefile.MaxState); err == nil { // a FIFO planted there is refused, not waited on
		_ = json.Unmarshal(data, &h)
	}
	return h
}

func commandLine() string {
	args := append([]string{filepath.Base(os.Args[0])}, os.Args[1:]...)
	s := strings.Join(args, " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

func cmp(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
