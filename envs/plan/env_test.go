package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/exitcode"
)

func TestReadEnvFileRefusesWhatNoVariableHolds(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content, want string
	}{
		{"nul", "A=1\nB=x\x00y\n", ".env:2: the line holds a NUL byte"},
		{"long line", "A=1\n# c\nBIG=" + strings.Repeat("x", 2<<20) + "\n", ".env:3: the line is longer than 1048576 bytes"},
		{"not a pair", "A=1\nnonsense\n", ".env:2: not KEY=VALUE"},
	}
	for _, tt := range tests {
		p := filepath.Join(dir, ".env")
		if err := os.WriteFile(p, []byte(tt.content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := ReadEnvFile(p)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.want)
			continue
		}
		if code := exitcode.Of(err); code != exitcode.Usage {
			t.Errorf("%s: exit code %d, want %d (invalid input)", tt.name, code, exitcode.Usage)
		}
	}
	p := filepath.Join(dir, ".env")
	if err := os.WriteFile(p, []byte("export A='1'\n\n# c\nB = \"two words\"\nLONG="+strings.Repeat("y", 900<<10)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, err := ReadEnvFile(p)
	if err != nil || env["A"] != "1" || env["B"] != "two words" || len(env["LONG"]) != 900<<10 {
		t.Errorf("a good env_file: %v, %v", len(env), err)
	}
}
