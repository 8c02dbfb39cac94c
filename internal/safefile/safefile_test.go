//go:build unix

package safefile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadFileRefusesWhatIsNotARegularFile: every kind of path that used
// to hang or read without end is refused at once, naming the file.
func TestReadFileRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "ok.yaml"), "a: 1\n")
	write(t, filepath.Join(dir, "big.yaml"), strings.Repeat("x", 2048))
	mkfifo(t, filepath.Join(dir, "fifo.yaml"))
	link(t, "/dev/zero", filepath.Join(dir, "zero.yaml"))
	link(t, "fifo.yaml", filepath.Join(dir, "tofifo.yaml"))
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file string
		want       error // nil: reads
		says       string
	}{
		{"a regular file", "ok.yaml", nil, ""},
		{"a FIFO", "fifo.yaml", ErrNotRegular, "is a FIFO"},
		{"a link to a FIFO", "tofifo.yaml", ErrNotRegular, "is a FIFO"},
		{"/dev/zero behind a link", "zero.yaml", ErrNotRegular, "character device"},
		{"a directory", "sub", ErrNotRegular, "is a directory"},
		{"over the limit", "big.yaml", ErrTooLarge, "is over 1024 bytes"},
		{"/dev/null itself", "/dev/null", ErrNotRegular, "/dev/null is a character device"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.file
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			_, err := within(t, func() error { _, err := ReadFile(p, 1024); return err })
			check(t, err, tt.want, p, tt.says)
		})
	}
}

// TestRootRefusesWhatLeadsOutside: through the project's root, links out,
// absolute links and ".." are refused before anything is read; links that
// stay inside are followed.
func TestRootRefusesWhatLeadsOutside(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "secret"), "password=hunter2\n")
	write(t, filepath.Join(project, "compose.yaml"), "services: {}\n")
	link(t, filepath.Join(outside, "secret"), filepath.Join(project, "abs-link.env"))
	rel, _ := filepath.Rel(project, filepath.Join(outside, "secret"))
	link(t, rel, filepath.Join(project, "rel-link.env"))
	link(t, "compose.yaml", filepath.Join(project, "inside-link.yaml"))
	link(t, "compose.yaml", filepath.Join(project, "sub-target"))
	mkfifo(t, filepath.Join(project, "fifo.env"))
	link(t, outside, filepath.Join(project, "outdir"))
	r, err := OpenRoot(project)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = r.Close() }()
	tests := []struct {
		name, file string
		want       error
		says       string
	}{
		{"a file", "compose.yaml", nil, ""},
		{"a link that stays inside", "inside-link.yaml", nil, ""},
		{"an absolute link out", "abs-link.env", ErrOutside, "leads outside the project"},
		{"a relative link out", "rel-link.env", ErrOutside, "leads outside the project"},
		{"a directory link out", "outdir/secret", ErrOutside, "leads outside the project"},
		{"dot-dot", "../" + filepath.Base(outside) + "/secret", ErrOutside, "is outside the project"},
		{"an absolute path elsewhere", filepath.Join(outside, "secret"), ErrOutside, "is outside the project"},
		{"a FIFO inside", "fifo.env", ErrNotRegular, "is a FIFO"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := within(t, func() error { _, err := r.ReadFile(tt.file, MaxConfig); return err })
			_ = data
			check(t, err, tt.want, "", tt.says)
			if err != nil && strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error shows the file's content: %v", err)
			}
		})
	}
}

// TestReaderStopsWhenCancelled: a scan of an endless source ends once its
// context is cancelled.
func TestReaderStopsWhenCancelled(t *testing.T) {
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip("no /dev/zero here:", err)
	}
	defer func() { _ = f.Close() }()
	ctx, cancel := context.WithCancel(t.Context())
	r := Reader(ctx, f)
	time.AfterFunc(20*time.Millisecond, cancel)
	buf := make([]byte, 1<<16)
	_, err = within(t, func() error {
		for {
			if _, err := r.Read(buf); err != nil {
				return err
			}
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("read ended with %v, want context.Canceled", err)
	}
}

// within runs fn and fails the test when it takes over 5 s (a hang).
func within(t *testing.T, fn func() error) ([]byte, error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return nil, err
	case <-time.After(5 * time.Second):
		t.Fatal("hung for 5 s")
		return nil, nil
	}
}

func check(t *testing.T, err, want error, path, says string) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("error %v, want none", err)
		}
		return
	}
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), says) {
		t.Errorf("error %q does not name %q and say %q", err, path, says)
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, at string) {
	t.Helper()
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("cannot make a FIFO here:", err)
	}
}
