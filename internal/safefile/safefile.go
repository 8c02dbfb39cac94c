// Package safefile is how devenv opens the files it reads: devenv.yaml,
// devenv.lock, profile, compose and env files, mirror sources and the files
// under .devenv. Each must be a regular file (a FIFO would block the open
// or the read forever, a device such as /dev/zero never ends), and a file
// read whole must fit a size limit, so a wrong path gives a clear error
// naming the file instead of a hang or an unbounded read. Reads of long
// files (event logs) stop when their context is cancelled (Ctrl-C).
package safefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Limits for files read whole. Hand-written files are small; these leave
// two orders of magnitude of room and still bound what one read can cost.
const (
	MaxConfig int64 = 8 << 20  // devenv.yaml, profile files, compose files, env files, requirements, CA files
	MaxLock   int64 = 32 << 20 // devenv.lock
	MaxSource int64 = 64 << 20 // mirror sources read whole (cluster descriptions, confs)
	MaxState  int64 = 1 << 20  // files devenv keeps under .devenv (token, hashes, job records)
)

var (
	// ErrNotRegular means the path names a FIFO, a device, a socket or a
	// directory (itself or behind a link).
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge means the file is over the limit of what it is.
	ErrTooLarge = errors.New("file too large")
	// ErrLink means a path devenv does not follow through a link is one.
	ErrLink = errors.New("symbolic link")
)

// IsRefused reports whether err is a refusal of this package (not a regular
// file, too large, outside), rather than a system error such as a missing file.
func IsRefused(err error) bool {
	return errors.Is(err, ErrNotRegular) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrOutside) || errors.Is(err, ErrLink)
}

// Error says which file was refused and why; Err is one of the sentinel
// errors above or the system's.
type Error struct {
	Path    string
	Problem string
	Err     error
}

func (e *Error) Error() string { return e.Path + " " + e.Problem }
func (e *Error) Unwrap() error { return e.Err }

// Kind names what a file of mode m is ("a FIFO (named pipe)"), for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

func notRegular(path string, m fs.FileMode) error {
	return &Error{Path: path, Problem: "is " + Kind(m) + ", not a regular file: devenv reads only regular files; point it at the file itself", Err: ErrNotRegular}
}

func tooLarge(path string, limit int64) error {
	return &Error{Path: path, Problem: fmt.Sprintf("is over %s, more than devenv reads for this kind of file; is it the right file?", human(limit)), Err: ErrTooLarge}
}

func human(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Open opens path for reading when it is a regular file (a link to one is
// followed). It looks before opening, so a FIFO or a device is never
// opened, and opens without blocking and checks again, so one swapped in
// between is refused too.
func Open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, st.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	return checkOpened(path, f)
}

// checkOpened refuses an opened file that is not regular.
func checkOpened(path string, f *os.File) (*os.File, error) {
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		_ = f.Close()
		return nil, notRegular(path, st.Mode())
	}
	return f, nil
}

// ReadFile reads the regular file at path whole, refusing one over limit
// bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	return ReadAll(path, f, limit)
}

// ReadAll reads r up to limit bytes; one more is an error naming path.
func ReadAll(path string, r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(path, limit)
	}
	return data, nil
}

// Reader returns r that fails with ctx's error once ctx is done, so a long
// scan stops on Ctrl-C within one read.
func Reader(ctx context.Context, r io.Reader) io.Reader {
	if ctx == nil || ctx.Done() == nil {
		return r
	}
	return &ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
