package tty

import (
	"bytes"
	"os"
	"testing"
)

func TestNotATerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "f")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if Is(f) || Is(&bytes.Buffer{}) || Is(nil) {
		t.Error("a file, a buffer or nothing is not a terminal")
	}
	restore, resize := Raw(f)
	restore()
	if resize != nil {
		t.Error("a file that is not a terminal gets no sizes")
	}
}
