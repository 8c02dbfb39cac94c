package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

const twoPlain = `name: demo
services:
  db:
    profile: image
    image: postgres:16
  app:
    profile: image
    image: busybox:1
    depends_on: [db]
`

// TestComposeHabits: Compose's flags work as Compose users type them: up
// -d, --force-recreate, --no-deps; ps -q, --services, --format; down -t;
// exec -d; logs --since/--until/--no-log-prefix are accepted and checked.
func TestComposeHabits(t *testing.T) {
	project(t, twoPlain, true)
	noGPUMachine(t)
	t.Setenv("DEVENV_CACHE", t.TempDir())
	fake := enginetest.New()
	fake.AddImage("postgres:16", nil)
	fake.AddImage("busybox:1", nil)
	replace(t, &worldFor(t).Connect, func(context.Context, app.EngineOptions) (engine.Engine, error) { return fake, nil })
	must := func(args ...string) string {
		t.Helper()
		out, errOut, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("devenv %s: exit %d: %s", strings.Join(args, " "), code, errOut)
		}
		return out
	}
	must("up", "-d")
	if out := must("up", "-d", "--json", "--force-recreate", "--no-deps", "app"); !strings.Contains(out, `"service": "app",
      "action": "recreated"`) || strings.Contains(out, `"service": "db"`) {
		t.Errorf("up --force-recreate --no-deps app:\n%s", out)
	}
	ids := strings.Fields(must("ps", "-q"))
	if len(ids) != 2 {
		t.Errorf("ps -q printed %v, want two ids", ids)
	}
	if got := must("ps", "--services"); got != "app\ndb\n" {
		t.Errorf("ps --services:\n%q", got)
	}
	if got := must("ps", "--format", "{{.Name}} {{.State}}"); got != "demo-app running\ndemo-db running\n" {
		t.Errorf("ps --format:\n%q", got)
	}
	if got := must("ps", "--format", "json"); strings.Count(got, "\n") != 2 || !strings.Contains(got, `"container":"demo-app"`) {
		t.Errorf("ps --format json:\n%s", got)
	}
	if _, errOut, code := runCLI(t, "ps", "--format", "{{.Nope"); code == 0 || !strings.Contains(errOut, "--format") {
		t.Errorf("a bad template: exit %d: %s", code, errOut)
	}
	must("exec", "-d", "app", "sleep", "5")
	if calls := fake.CallsTo("Exec"); len(calls) != 1 || !calls[0].Arg.(engine.ExecOptions).Detach {
		t.Errorf("exec -d: %+v", calls)
	}
	must("logs", "--since", "10m", "--until", "2026-12-01T10:00:00Z", "--no-log-prefix", "-t")
	if _, errOut, code := runCLI(t, "logs", "--since", "yesterday"); code != exitcode.Usage || !strings.Contains(errOut, "--since") {
		t.Errorf("logs --since yesterday: exit %d: %s", code, errOut)
	}
	must("down", "-t", "3", "--remove-orphans")
	if out := must("ps", "-q"); out != "" {
		t.Errorf("down -t 3 left containers: %q", out)
	}
}

// TestProjectNameFlag: -p names the project's objects instead of
// devenv.yaml's name, before or after the command; a name Docker refuses
// is a usage error naming the flag.
func TestProjectNameFlag(t *testing.T) {
	project(t, twoPlain, true)
	noGPUMachine(t)
	t.Setenv("DEVENV_CACHE", t.TempDir())
	fake := enginetest.New()
	fake.AddImage("postgres:16", nil)
	fake.AddImage("busybox:1", nil)
	replace(t, &worldFor(t).Connect, func(context.Context, app.EngineOptions) (engine.Engine, error) { return fake, nil })
	if _, errOut, code := runCLI(t, "-p", "other", "up"); code != 0 {
		t.Fatalf("-p other up: exit %d: %s", code, errOut)
	}
	out, _, _ := runCLI(t, "ps", "--project-name", "other", "--format", "{{.Name}}")
	if out != "other-app\nother-db\n" {
		t.Errorf("ps -p other: %q", out)
	}
	if out, _, _ := runCLI(t, "ps", "-q"); out != "" {
		t.Errorf("devenv.yaml's project has containers: %q", out)
	}
	if _, errOut, code := runCLI(t, "-p", "Bad Name", "ps"); code != exitcode.Usage || !strings.Contains(errOut, "-p/--project-name") {
		t.Errorf("-p 'Bad Name': exit %d: %s", code, errOut)
	}
}

func TestLogTime(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"":                          {},
		"42m":                       now.Add(-42 * time.Minute),
		"2026-12-01T09:00:00Z":      time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC),
		"2026-12-01T09:00:00+01:00": time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC),
		"1764579600":                time.Unix(1764579600, 0),
		"1764579600.5":              time.Unix(1764579600, 5e8),
	} {
		got, err := logTime(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("logTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"yesterday", "-5m", "-3"} {
		if _, err := logTime(bad, now); err == nil {
			t.Errorf("logTime(%q) accepted", bad)
		}
	}
}
