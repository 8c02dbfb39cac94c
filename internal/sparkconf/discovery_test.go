package sparkconf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// standIn writes an nvidia-smi that replays the recorded outputs in dir.
func standIn(t *testing.T, dir string) string {
	t.Helper()
	bin := t.TempDir()
	if _, err := os.Stat(filepath.Join(dir, "L.out")); errors.Is(err, os.ErrNotExist) {
		return bin // no nvidia-smi at all
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	stub := fmt.Sprintf(`#!/bin/sh
case "$*" in
-L) f=L ;;
"--query-gpu=index --format=csv,noheader") f=query ;;
*) printf 'stand-in nvidia-smi: unexpected arguments: %%s\n' "$*" >&2; exit 2 ;;
esac
while IFS= read -r l; do printf '%%s\n' "$l"; done < "%[1]s/$f.out"
rc=0
[ -f "%[1]s/$f.rc" ] && read -r rc < "%[1]s/$f.rc"
exit "$rc"
`, abs)
	if err := os.WriteFile(filepath.Join(bin, "nvidia-smi"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestDiscoveryScript(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine")
	}
	script := filepath.Join(t.TempDir(), "getGpusResources.sh")
	if err := os.WriteFile(script, DiscoveryScript(), 0o755); err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob(filepath.Join("testdata", "discovery", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cmd := exec.Command(sh, script)
			cmd.Env = []string{"PATH=" + standIn(t, dir)}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			runErr := cmd.Run()
			if want, err := os.ReadFile(filepath.Join(dir, "want.out")); err == nil {
				if runErr != nil {
					t.Fatalf("script failed: %v\nstderr: %s", runErr, stderr.String())
				}
				if stdout.String() != string(want) {
					t.Errorf("stdout = %q, want %q", stdout.String(), want)
				}
				var res struct {
					Name      string   `json:"name"`
					Addresses []string `json:"addresses"`
				}
				if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || res.Name != "gpu" {
					t.Errorf("stdout is not Spark's resource JSON: %v %+v", err, res)
				}
				return
			}
			want, err := os.ReadFile(filepath.Join(dir, "want.err"))
			if err != nil {
				t.Fatalf("%s has neither want.out nor want.err", dir)
			}
			var exit *exec.ExitError
			if !errors.As(runErr, &exit) || exit.ExitCode() != 1 {
				t.Errorf("exit = %v, want status 1", runErr)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout = %q, want nothing (Spark would parse it)", stdout.String())
			}
			if !strings.Contains(stderr.String(), strings.TrimSpace(string(want))) {
				t.Errorf("stderr = %q, want it to say %q", stderr.String(), strings.TrimSpace(string(want)))
			}
		})
	}
}
