package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/maven"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/devenv-dev/devenv/test/standin"
)

type fakePinner struct{}

func (fakePinner) Digest(context.Context, string) (string, error) {
	return "sha256:" + strings.Repeat("e", 64), nil
}

// noPOMs answers like a repository without POMs: each jar is locked alone.
type noPOMs struct{}

func (noPOMs) Get(_ context.Context, url string) ([]byte, error) {
	return nil, fmt.Errorf("get %s: %w", url, maven.ErrNotFound)
}

type fakeFetcher struct{}

func (fakeFetcher) Verified(_ context.Context, url, _, _ string) (string, string, error) {
	path, err := standin.RapidsJarFor(url) // lock reads the accelerator jar's shims
	return strings.Repeat("f", 64), path, err
}

// project writes devenv.yaml into a temp dir, locks it offline with fake
// pins when asked, and makes it the working directory.
func project(t *testing.T, yaml string, locked bool) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "devenv.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if locked {
		p, err := spec.Load(filepath.Join(dir, "devenv.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		f, err := lock.Generate(t.Context(), p, nil, profiles.Builtin(), fakePinner{}, fakeFetcher{}, lock.Options{POMs: noPOMs{}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lock.Write(filepath.Join(dir, "devenv.lock"), f); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir
}

const twoGPUServices = `name: demo
services:
  spark:
    profile: spark-rapids
    rapids: "25.06"
    jupyter: false
  serve:
    profile: triton
    release: "25.01"
`

func TestInitNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if _, errOut, code := runCLI(t, "init", "--profile", "triton"); code != 0 {
		t.Fatalf("init: %d %s", code, errOut)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "devenv.yaml"))
	if !strings.Contains(string(data), "profile: triton") {
		t.Fatalf("starter:\n%s", data)
	}
	if err := os.WriteFile(filepath.Join(dir, "devenv.yaml"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "init"); code != exitcode.Usage || !strings.Contains(errOut, "--force") {
		t.Fatalf("init over an existing file: %d %s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "devenv.yaml")); string(b) != "mine" {
		t.Fatal("init overwrote devenv.yaml")
	}
	if _, _, code := runCLI(t, "init", "--force", "--profile", "nope"); code != exitcode.Usage {
		t.Fatalf("unknown profile: exit %d", code)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "devenv.yaml")); string(b) != "mine" {
		t.Fatal("a failed init touched devenv.yaml")
	}
}

func TestLockCheckExitCodes(t *testing.T) {
	dir := project(t, twoGPUServices, false)
	if _, errOut, code := runCLI(t, "lock", "--check"); code != exitcode.Drift || !strings.Contains(errOut, "no devenv.lock") {
		t.Fatalf("no lock: %d %s", code, errOut)
	}
	dir = project(t, twoGPUServices, true)
	if out, errOut, code := runCLI(t, "lock", "--check", "--json"); code != 0 || !strings.Contains(out, `"fresh": true`) {
		t.Fatalf("fresh lock: %d %s %s", code, out, errOut)
	}
	if err := os.WriteFile(filepath.Join(dir, "devenv.yaml"), []byte(twoGPUServices+"  extra:\n    profile: image\n    image: busybox\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "lock", "--check"); code != exitcode.Drift || !strings.Contains(errOut, `"extra" is not locked`) {
		t.Fatalf("stale lock: %d %s", code, errOut)
	}
	if err := os.WriteFile(filepath.Join(dir, "devenv.lock"), []byte(`{"version": 99}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "lock", "--check"); code != exitcode.Failure || !strings.Contains(errOut, "newer devenv") {
		t.Fatalf("lock from a newer devenv: %d %s", code, errOut)
	}
}

func TestInvalidConfigIsExit2WithEveryProblem(t *testing.T) {
	project(t, "services:\n  a:\n    profile: spark-rapids\n    portz: []\n    gpus: {x: 1}\n", false)
	_, errOut, code := runCLI(t, "config")
	if code != exitcode.Usage {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"devenv.yaml:4:5", `"ports"`, "devenv.yaml:5:"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestJSONFlagAfterTheCommand(t *testing.T) {
	project(t, twoGPUServices, true)
	for _, args := range [][]string{{"config", "--json"}, {"--json", "config"}} {
		out, errOut, code := runCLI(t, args...)
		if code != 0 || !strings.HasPrefix(strings.TrimSpace(out), "{") {
			t.Fatalf("%v: %d %q %s", args, code, out, errOut)
		}
	}
}

func TestUnknownCommandAndFlag(t *testing.T) {
	if _, _, code := runCLI(t, "lock", "--nope"); code != exitcode.Usage {
		t.Errorf("unknown flag: exit %d", code)
	}
}

func TestUpChecksServiceNamesBeforeLocking(t *testing.T) {
	dir := project(t, twoGPUServices, false)
	_, errOut, code := runCLI(t, "up", "nosuch")
	if code != exitcode.Usage || !strings.Contains(errOut, `no service "nosuch"`) {
		t.Fatalf("up nosuch: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "devenv.lock")); !os.IsNotExist(err) {
		t.Error("up with a wrong service name tried to lock")
	}
}

func TestCommandLineEdges(t *testing.T) {
	project(t, twoGPUServices, true)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string // on stdout
		wantErr  string // on stderr
	}{
		{"a typo gets the nearest command", []string{"lgos"}, exitcode.Usage, "", "did you mean `devenv logs`?"},
		{"an unknown word is a usage error", []string{"frobnicate"}, exitcode.Usage, "", `"frobnicate" is not a devenv command`},
		{"help on an unknown command", []string{"help", "lgos"}, exitcode.Usage, "", "did you mean `devenv logs`?"},
		{"an unknown subcommand", []string{"export", "compse"}, exitcode.Usage, "", "did you mean `devenv export compose`?"},
		{"--version", []string{"--version"}, 0, "devenv " + Version(), ""},
		{"--version --json", []string{"--version", "--json"}, 0, `"version": "` + Version() + `"`, ""},
		{"extra arguments to ps", []string{"ps", "spark"}, exitcode.Usage, "", `devenv ps takes no arguments, got "spark"`},
		{"extra arguments to a subcommand", []string{"jobs", "oops"}, exitcode.Usage, "", "devenv jobs takes no arguments"},
		{"extra arguments to profiles", []string{"profiles", "x", "y"}, exitcode.Usage, "", `got "x y"`},
		{"too many arguments to diff", []string{"diff", "a.json", "b.json"}, exitcode.Usage, "", "takes at most 1 argument(s)"},
		{"-f after a command name", []string{"config", "-f", "devenv.yaml"}, exitcode.Usage, "", "write --file FILE"},
		{"--file after a command name", []string{"config", "--file", "devenv.yaml", "--json"}, 0, `"name": "demo"`, ""},
		{"run without a command", []string{"run", "spark", "--"}, exitcode.Usage, "", "usage: devenv run [SERVICE] -- COMMAND"},
		{"exec without a command", []string{"exec", "spark", "--"}, exitcode.Usage, "", "usage: devenv exec SERVICE -- COMMAND"},
		{"-f before the command name", []string{"-f", "devenv.yaml", "config", "--json"}, 0, `"name": "demo"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.args...)
			if code != tt.wantCode || !strings.Contains(out, tt.wantOut) || !strings.Contains(errOut, tt.wantErr) {
				t.Fatalf("devenv %v: exit %d (want %d)\nstdout: %s\nstderr: %s", tt.args, code, tt.wantCode, out, errOut)
			}
		})
	}
}

func TestJSONModeIsDevenvsFlagOnly(t *testing.T) {
	tests := []struct {
		args string
		want bool
	}{
		{"devenv --json ps", true},
		{"devenv ps --json", true},
		{"devenv logs spark --json", true},
		{"devenv exec -u root spark --json", false},
		{"devenv exec --json spark ls", true},
		{"devenv submit job.py --json", false},
		{"devenv run -- tool --json", false},
		{"devenv config --project-dir --json", false},
	}
	for _, tt := range tests {
		if got := argsHaveFlag(strings.Fields(tt.args), "--json"); got != tt.want {
			t.Errorf("%s: JSON mode %v, want %v", tt.args, got, tt.want)
		}
	}
}

func TestErrorsUnderJSONAreJSONLines(t *testing.T) {
	project(t, twoGPUServices, true)
	tests := []struct {
		args     []string
		wantExit int
		wantMsg  string
	}{
		{[]string{"--json", "lgos"}, exitcode.Usage, "did you mean `devenv logs`?"},
		{[]string{"ps", "extra", "--json"}, exitcode.Usage, "takes no arguments"},
		{[]string{"config", "nosuch", "--json"}, exitcode.Usage, `no service "nosuch"`},
	}
	for _, tt := range tests {
		out, errOut, code := runCLI(t, tt.args...)
		var got jsonError
		if err := json.Unmarshal([]byte(errOut), &got); err != nil || strings.Count(errOut, "\n") != 1 {
			t.Fatalf("%v: stderr is not one JSON line (%v): %q", tt.args, err, errOut)
		}
		if code != tt.wantExit || got.Level != "error" || got.Exit != tt.wantExit || !strings.Contains(got.Message, tt.wantMsg) || out != "" {
			t.Errorf("%v: exit %d, stderr %+v, stdout %q", tt.args, code, got, out)
		}
	}
}
