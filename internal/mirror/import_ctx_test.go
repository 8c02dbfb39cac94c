//go:build unix

package mirror

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

// TestImportStopsWhenCancelled: a full scan of an event log ends with the
// context's error once it is cancelled (Ctrl-C), instead of reading on
// and returning a profile.
func TestImportStopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app-1")
	line := `{"Event":"SparkListenerTaskEnd","Stage ID":1,"Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":1}}` + "\n"
	data := `{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}` + "\n" + strings.Repeat(line, 200_000)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	start := time.Now()
	p, err := ImportContext(ctx, path, Options{Full: true})
	if !errors.Is(err, context.Canceled) || p != nil {
		t.Fatalf("ImportContext after cancel = %v, %v; want context.Canceled", p, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s to stop", d)
	}
	if _, err := ImportContext(t.Context(), path, Options{Full: true}); err != nil {
		t.Fatalf("the same log without a cancel: %v", err)
	}
}

// TestImportRefusesWhatIsNotAFile: a FIFO as the source, or among the
// files of a rolling event log directory, is refused at once, naming it.
func TestImportRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "prod.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	rolling := filepath.Join(dir, "eventlog_v2_app-1")
	if err := os.Mkdir(rolling, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(rolling, "events_1_app-1"), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, says := range map[string]string{fifo: "is a FIFO", rolling: "without event log files"} { // a FIFO in a directory is never opened
		done := make(chan error, 1)
		go func() { _, err := Import(p, Options{}); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), says) {
				t.Errorf("Import(%s) = %v, want it refused saying %q", p, err, says)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Import(%s) hung on a FIFO", p)
		}
	}
}

// TestSourceDigestStopsWhenCancelled: the digest lock and lock --check
// take of a mirror: source stops reading once the command is cancelled.
func TestSourceDigestStopsWhenCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app-1")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 8<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if sum, err := SourceDigestContext(ctx, path); !errors.Is(err, context.Canceled) {
		t.Fatalf("SourceDigestContext after cancel = %q, %v; want context.Canceled", sum, err)
	}
	if _, err := SourceDigestContext(t.Context(), path); err != nil {
		t.Fatalf("the same source without a cancel: %v", err)
	}
}
