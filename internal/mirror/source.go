package mirror

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/devenv-dev/devenv/internal/safefile"
)

// SourceFiles lists the files a mirror source is read from: the file
// itself, or the event log files of an eventlog_v2_* (or Databricks)
// directory in reading order.
func SourceFiles(path string) ([]string, error) {
	return eventLogFiles(path)
}

// SourceDigest is the sha256 of a mirror source's content: of the file, or
// of a directory's event log files (their names and bytes, in reading
// order), so a rolling log that grows by a file changes it. It streams, so
// a multi-gigabyte log costs no memory.
func SourceDigest(path string) (string, error) {
	return SourceDigestContext(context.Background(), path)
}

// SourceDigestContext is SourceDigest that stops reading once ctx is done
// (Ctrl-C), with ctx's error.
func SourceDigestContext(ctx context.Context, path string) (string, error) {
	files, err := SourceFiles(path)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if st.IsDir() {
			fmt.Fprintf(h, "%s\x00", filepath.Base(f))
		}
		if err := hashFile(ctx, h, f); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashFile(ctx context.Context, w io.Writer, path string) error {
	f, err := safefile.Open(path) // a FIFO or a device in a rolling directory is refused, not read forever
	if err != nil {
		return fmt.Errorf("mirror: cannot read %s: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	if _, err := io.Copy(w, safefile.Reader(ctx, f)); err != nil {
		return fmt.Errorf("mirror: cannot read %s: %w", path, err)
	}
	return nil
}
