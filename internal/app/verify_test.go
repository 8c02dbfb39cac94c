package app

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/internal/sparkconf"
)

func TestWriteVerifyScript(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".devenv")
	for i := 0; i < 2; i++ { // a second write replaces the first
		if err := writeVerifyScript(dir); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(filepath.Join(dir, "verify.py"))
	if err != nil || !bytes.Equal(got, sparkconf.VerifyScript()) {
		t.Fatalf("verify.py differs from sparkconf.VerifyScript() (%v)", err)
	}
	if VerifyScriptPath != "/workspace/.devenv/verify.py" {
		t.Errorf("verify.py is run as %s", VerifyScriptPath)
	}
}

func TestLastLines(t *testing.T) {
	if got := lastLines("a\nb\nc\nd\n", 2); got != "  c\n  d" {
		t.Errorf("%q", got)
	}
}
