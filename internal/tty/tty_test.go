package tty

import (
	"os"
	"testing"
)

func TestNotATerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "f")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	restore, resize := Raw(f)
	restore()
	if resize != nil {
		t.Error("a file that is not a terminal gets no sizes")
	}
}
