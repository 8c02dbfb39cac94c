package sdk

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/devenv-dev/devenv/internal/view/execview"
	"github.com/docker/compose/v5/pkg/api"
	"github.com/docker/compose/v5/pkg/watch"
	"github.com/sirupsen/logrus"
)

func trigger(path string, action types.WatchAction) types.Trigger {
	return types.Trigger{Path: path, Action: action, Target: "/t"}
}

func developed(name string, build bool, ts ...types.Trigger) types.ServiceConfig {
	s := types.ServiceConfig{Name: name, Develop: &types.DevelopConfig{Watch: ts}}
	if build {
		s.Build = &types.BuildConfig{Context: "/nonexistent"}
	}
	return s
}

// TestSplitRebuilds: the SDK watches the project without its rebuild
// rules (a service with only rebuild rules is not one of its services);
// the rebuild rules are devenv's; services not watched stay as they are;
// a rebuild rule without build: is refused, naming the service; the
// project given is left as it was.
func TestSplitRebuilds(t *testing.T) {
	tests := []struct {
		name        string
		services    types.Services
		watched     []string
		wantSDK     string // services the SDK watches: name=actions
		wantRebuild string // service:path of devenv's rules
		wantErr     string
	}{
		{"sync and rebuild", types.Services{"web": developed("web", true, trigger("/p/site", types.WatchActionSync), trigger("/p/Dockerfile", types.WatchActionRebuild))},
			[]string{"web"}, "web=sync", "web:/p/Dockerfile", ""},
		{"only rebuild", types.Services{"web": developed("web", true, trigger("/p", types.WatchActionRebuild))},
			[]string{"web"}, "", "web:/p", ""},
		{"every action the SDK carries out", types.Services{"web": developed("web", false, trigger("/a", types.WatchActionSync),
			trigger("/b", types.WatchActionSyncRestart), trigger("/c", types.WatchActionSyncExec), trigger("/d", types.WatchActionRestart))},
			[]string{"web"}, "web=sync,sync+restart,sync+exec,restart", "", ""},
		{"a service not watched is left alone", types.Services{"web": developed("web", true, trigger("/p", types.WatchActionRebuild)),
			"db": developed("db", false, trigger("/q", types.WatchActionSync))}, []string{"web"}, "", "web:/p", ""},
		{"rebuild without build:", types.Services{"web": developed("web", false, trigger("/p/Dockerfile", types.WatchActionRebuild))},
			[]string{"web"}, "", "", "develop.watch of web: the rebuild rule of Dockerfile needs a build: section"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proj := &types.Project{Name: "demo", WorkingDir: "/p", Services: tt.services}
			before := actions(proj.Services)
			sdkProj, sdkServices, rebuilds, err := splitRebuilds(proj, tt.watched)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var sdk []string
			for _, s := range sdkServices {
				sdk = append(sdk, s+"="+actions(types.Services{s: sdkProj.Services[s]}))
			}
			var rb []string
			for _, r := range rebuilds {
				rb = append(rb, r.service+":"+r.path)
			}
			if got := strings.Join(sdk, " "); got != tt.wantSDK {
				t.Errorf("the SDK watches %q, want %q", got, tt.wantSDK)
			}
			if got := strings.Join(rb, " "); got != tt.wantRebuild {
				t.Errorf("devenv rebuilds on %q, want %q", got, tt.wantRebuild)
			}
			if len(sdkProj.Services) != len(proj.Services) {
				t.Errorf("the SDK's project has %d services, want all %d", len(sdkProj.Services), len(proj.Services))
			}
			if after := actions(proj.Services); after != before {
				t.Errorf("the project given changed: %s, was %s", after, before)
			}
		})
	}
}

// actions lists the services' rules' actions, by service.
func actions(svcs types.Services) string {
	var out []string
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range svcs {
			if !yield(n) {
				return
			}
		}
	}) {
		s := svcs[name]
		if s.Develop == nil {
			continue
		}
		var a []string
		for _, tr := range s.Develop.Watch {
			a = append(a, string(tr.Action))
		}
		out = append(out, strings.Join(a, ","))
	}
	return strings.Join(out, ";")
}

// TestRebuildRuleMatchesAsCompose: a rebuild rule's change is a file under
// its path that its include patterns name (every file when none), that
// neither its ignore patterns, the build context's .dockerignore, an
// editor's temporary file nor .git is.
func TestRebuildRuleMatchesAsCompose(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".dockerignore"), []byte("build/\n*.log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := types.ServiceConfig{Name: "web"}
	s.Build = &types.BuildConfig{Context: dir, Dockerfile: "Dockerfile"}
	plain, err := newRebuildRule(s, types.Trigger{Path: dir, Action: types.WatchActionRebuild, Ignore: []string{"docs/"}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	only, err := newRebuildRule(s, types.Trigger{Path: dir, Action: types.WatchActionRebuild, Include: []string{"*.py"}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rule rebuildRule
		file string
		want bool
	}{
		{plain, "app.py", true},
		{plain, "Dockerfile", true},
		{plain, "src/deep/mod.go", true},
		{plain, "docs/index.md", false},
		{plain, "build/out.bin", false},
		{plain, "debug.log", false},
		{plain, ".app.py.swp", false},
		{plain, "app.py~", false},
		{plain, ".git/HEAD", false},
		{plain, "vendor/lib/.git/config", false},
		{plain, "../elsewhere/app.py", false},
		{only, "app.py", true},
		{only, "Dockerfile", false},
	} {
		if got := c.rule.matches(filepath.Join(dir, c.file)); got != c.want {
			t.Errorf("a change of %s matches %v, want %v", c.file, got, c.want)
		}
	}
}

// recorder is a printer whose lines a test reads, and a writer safe for
// the watch's goroutines.
type recorder struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.Write(p)
}

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.String()
}

// TestWatchRebuilds: with the rules' paths watched (Compose's watcher),
// a change hands the service to rebuild, once per batch, saying so; a
// failing rebuild is warned and the next change rebuilds again; an
// ignored change rebuilds nothing; the watch ends with its context.
func TestWatchRebuilds(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM scratch\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := types.ServiceConfig{Name: "web"}
	s.Build = &types.BuildConfig{Context: dir, Dockerfile: "Dockerfile"}
	rule, err := newRebuildRule(s, types.Trigger{Path: dir, Action: types.WatchActionRebuild, Ignore: []string{"*.tmp"}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	var out recorder
	log := &watchLog{emit: execview.Render(ui.New(&out, &out, false, false)), dir: filepath.Dir(dir)}
	calls := make(chan []string, 4)
	fail := make(chan error, 4)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	wait, err := watchRebuilds(ctx, []rebuildRule{rule}, func(_ context.Context, svcs []string) error {
		calls <- svcs
		return <-fail
	}, log)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- wait() }()
	next := func(what string) []string {
		t.Helper()
		select {
		case svcs := <-calls:
			return svcs
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no rebuild in 10 s:\n%s", what, out.String())
			return nil
		}
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fail <- errors.New("RUN make: exit code 2")
	write("Dockerfile", "FROM scratch\nLABEL v=2\n")
	if svcs := next("a changed Dockerfile"); !slices.Equal(svcs, []string{"web"}) {
		t.Errorf("rebuilt %v, want web", svcs)
	}
	fail <- nil
	write("draft.tmp", "ignored")
	write("app.py", "v2\n")
	next("a changed app.py")
	select {
	case svcs := <-calls:
		t.Errorf("a second rebuild of %v for one batch (or for the ignored draft.tmp)", svcs)
	case <-time.After(2 * watch.QuietPeriod):
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the watch ended with %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the watch did not end in 5 s after its context")
	}
	text := out.String()
	base := filepath.Base(dir)
	for _, want := range []string{
		"develop.watch: 1 file(s) changed under " + base + "; rebuilding web",
		"warning: develop.watch: rebuilding web: RUN make: exit code 2; still watching",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the watch did not say %q:\n%s", want, text)
		}
	}
}

// TestWatchLogShowsTheWatch: the SDK's watch messages, a command's output
// (line by line, the last one without a newline too) and errors, on a
// terminal's lines and as --json events.
func TestWatchLogShowsTheWatch(t *testing.T) {
	for _, c := range []struct {
		json bool
		want string
	}{
		{false, `develop.watch: Watch enabled
develop.watch: Syncing service "site" after 1 changes were detected
ran: check 1234
/srv/jobs
warning: develop.watch: site-1: copy failed
partial
`},
		{true, `{"event":"watch","message":"Watch enabled"}
{"event":"watch","message":"Syncing service \"site\" after 1 changes were detected"}
{"event":"watch","output":"ran: check 1234"}
{"event":"watch","output":"/srv/jobs"}
{"level":"warning","message":"develop.watch: site-1: copy failed"}
{"event":"watch","output":"partial"}
`},
	} {
		var out recorder
		l := &watchLog{emit: execview.Render(ui.New(&out, &out, c.json, false))}
		l.Log(api.WatchLogger, "Watch enabled")
		l.Status(api.WatchLogger, `Syncing service "site" after 1 changes were detected`+"\n")
		w := l.output()
		_, _ = w.Write([]byte("ran: check "))
		_, _ = w.Write([]byte("1234\n/srv/jobs\r\npar"))
		l.Err("site-1", "copy failed")
		_, _ = w.Write([]byte("tial"))
		l.flush()
		if got := out.String(); got != c.want {
			t.Errorf("json %v:\n%s\nwant:\n%s", c.json, got, c.want)
		}
	}
}

// TestRouteWarnings: while watching, a warning the SDK logs through logrus
// is a devenv warning, other libraries' warnings stay dropped, errors
// print as before; afterwards logrus is as it was.
func TestRouteWarnings(t *testing.T) {
	l := logrus.StandardLogger()
	var logOut recorder
	oldOut, oldLevel := l.Out, l.GetLevel()
	l.SetOutput(&logOut)
	l.SetLevel(logrus.ErrorLevel)
	t.Cleanup(func() { l.SetOutput(oldOut); l.SetLevel(oldLevel) })
	format := l.Formatter

	var out recorder
	restore := routeWarnings(execview.Render(ui.New(&out, &out, false, false)))
	f := l.Formatter
	entry := func(level logrus.Level, fn, msg string) *logrus.Entry {
		e := logrus.NewEntry(l)
		e.Level, e.Message = level, msg
		e.Caller = &runtime.Frame{Function: fn}
		return e
	}
	for _, e := range []*logrus.Entry{
		entry(logrus.WarnLevel, "github.com/docker/compose/v5/pkg/compose.(*composeService).watchEvents", "Error handling changed files: exit status 3\n"),
		entry(logrus.WarnLevel, "github.com/compose-spec/compose-go/v2/template.Substitute", "variable is not set"),
		entry(logrus.WarnLevel, "github.com/docker/compose/v5/pkg/compose.(*composeService).watchEvents", "Error handling changed files: "),
	} {
		if b, err := f.Format(e); err != nil || len(b) != 0 {
			t.Errorf("a warning was formatted for logrus's output: %q (%v)", b, err)
		}
	}
	if b, err := f.Format(entry(logrus.ErrorLevel, "github.com/docker/compose/v5/pkg/compose.x", "boom")); err != nil || !strings.Contains(string(b), "boom") || strings.Contains(string(b), "func=") {
		t.Errorf("an error was formatted as %q (%v), want it as before the watch", b, err)
	}
	if !l.IsLevelEnabled(logrus.WarnLevel) {
		t.Error("warnings are not logged while watching")
	}
	restore()
	if got, want := out.String(), "warning: develop.watch: Error handling changed files: exit status 3\n"+
		"warning: develop.watch: Error handling changed files: a sync+exec command exited with a non-zero status (its output is above)\n"; got != want {
		t.Errorf("devenv showed %q, want %q", got, want)
	}
	if l.Formatter != format || l.IsLevelEnabled(logrus.WarnLevel) || l.ReportCaller {
		t.Error("logrus was not restored after the watch")
	}
}

// TestWatchProjectWithOnlyRebuildRules: a project whose rules are all
// rebuild rules needs no SDK watch (nor an engine): devenv watches them,
// says the watch is enabled and disabled, and hands a change to Rebuild;
// a rebuild rule without build: refuses the watch before anything starts.
func TestWatchProjectWithOnlyRebuildRules(t *testing.T) {
	dir := t.TempDir()
	web := types.ServiceConfig{Name: "web", Develop: &types.DevelopConfig{Watch: []types.Trigger{{Path: dir, Action: types.WatchActionRebuild}}}}
	web.Build = &types.BuildConfig{Context: dir, Dockerfile: "Dockerfile"}
	var out recorder
	x := New(nil, endpoint.Options{}, execview.Render(ui.New(&out, &out, false, false)))
	rebuilt := make(chan []string, 1)
	watch := engine.ProjectWatch{Project: &types.Project{Name: "demo", WorkingDir: dir, Services: types.Services{"web": web}}, Services: []string{"web"},
		Rebuild: func(_ context.Context, svcs []string) error { rebuilt <- svcs; return nil }}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- x.WatchProject(ctx, watch) }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "develop.watch: Watch enabled") {
		if time.Now().After(deadline) {
			t.Fatalf("the watch was not enabled in 10 s:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := os.WriteFile(filepath.Join(dir, "app.py"), []byte("v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case svcs := <-rebuilt:
		if !slices.Equal(svcs, []string{"web"}) {
			t.Errorf("rebuilt %v, want web", svcs)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no rebuild in 10 s:\n%s", out.String())
	}
	cancel()
	if err := <-done; err != nil || !strings.Contains(out.String(), "develop.watch: Watch disabled") {
		t.Errorf("the watch ended with %v, saying:\n%s", err, out.String())
	}

	web.Build = nil
	watch.Project.Services["web"] = web
	if err := x.WatchProject(t.Context(), watch); err == nil || !strings.Contains(err.Error(), "needs a build: section") {
		t.Errorf("a rebuild rule without build: gave %v", err)
	}
}
