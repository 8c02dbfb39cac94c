package loader

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose/composetest"
)

// selectionCases are projects whose profile selections differ in ways a
// projection of the all-profiles read could get wrong: each maps a file
// name to its content.
var selectionCases = []struct {
	name  string
	files map[string]string
	env   map[string]string // set in the process environment
}{
	{name: "profiles from .env", files: map[string]string{
		".env":         "COMPOSE_PROFILES=debug\n",
		"compose.yaml": "services:\n  app: {image: busybox:1}\n  shell: {image: busybox:1, profiles: [debug]}\n  tools: {image: busybox:1, profiles: [other]}\n",
	}},
	{name: "profiles from the environment over .env", env: map[string]string{"COMPOSE_PROFILES": " other , debug"}, files: map[string]string{
		".env":         "COMPOSE_PROFILES=debug\n",
		"compose.yaml": "services:\n  app: {image: busybox:1}\n  shell: {image: busybox:1, profiles: [debug]}\n  tools: {image: busybox:1, profiles: [other]}\n",
	}},
	{name: "depends on a disabled service", files: map[string]string{
		"compose.yaml": "services:\n  app: {image: busybox:1, depends_on: [db]}\n  db: {image: busybox:1, profiles: [data]}\n",
	}},
	{name: "optional dependency on a disabled service", files: map[string]string{
		"compose.yaml": "services:\n  app:\n    image: busybox:1\n    depends_on: {db: {condition: service_started, required: false}}\n  db: {image: busybox:1, profiles: [data]}\n",
	}},
	{name: "network_mode of a disabled service", files: map[string]string{
		"compose.yaml": "services:\n  app: {image: busybox:1, network_mode: 'service:vpn'}\n  vpn: {image: busybox:1, profiles: [vpn]}\n",
	}},
	{name: "an inactive service is inconsistent", files: map[string]string{
		"compose.yaml": "services:\n  app: {image: busybox:1}\n  extra: {image: busybox:1, profiles: [extra], networks: [missing]}\n",
	}},
	{name: "extensions, interpolation and env_file", env: map[string]string{"TAG": "1.36"}, files: map[string]string{
		"app.env": "FROM_FILE=yes\n",
		"compose.yaml": "x-common: &common {image: 'busybox:${TAG}', x-owner: team}\n" +
			"services:\n  app: {<<: *common, env_file: app.env, environment: {A: '${TAG}', B: '$${LITERAL}'}}\n" +
			"  debug: {<<: *common, profiles: [debug], labels: {x-not-an-extension: kept}}\n",
	}},
	{name: "extends and include", files: map[string]string{
		"base.yaml":    "services:\n  base: {image: busybox:1, environment: {FROM: base}}\n",
		"inc.yaml":     "services:\n  side: {image: busybox:1, profiles: [side]}\n",
		"compose.yaml": "include: [inc.yaml]\nservices:\n  app: {extends: {file: base.yaml, service: base}, profiles: [app]}\n  web: {image: busybox:1}\n",
	}},
}

// TestModelIsCLILoad: a Files reads the files once and makes each
// profile selection from that read; every selection, asked one after the
// other of the same Files, is the very project (or error) compose-go's
// cli loads for it in one call. For the projects above and every compose
// file of the repository's fixtures.
func TestModelIsCLILoad(t *testing.T) {
	for _, tc := range selectionCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			compareSelections(t, []string{filepath.Join(dir, "compose.yaml")}, dir)
		})
	}
	t.Setenv("JUPYTER_TOKEN", "test-token") // devenv's exports read it from the environment
	root, files := composetest.Repo(t)
	for _, file := range files {
		rel, _ := filepath.Rel(root, file)
		t.Run(rel, func(t *testing.T) { compareSelections(t, []string{file}, filepath.Dir(file)) })
	}
}

// compareSelections asks one Files for no profiles (the active ones),
// every profile, each profile the files name, all of them, and the read
// without interpolation, and compares each with a fresh cli load.
func compareSelections(t *testing.T, files []string, dir string) {
	t.Helper()
	f := NewFiles(files, dir, "sel")
	selections := append([][]string{nil, {"*"}}, namedProfiles(t, files, dir)...)
	for _, sel := range selections {
		got, gotErr := projectOf(t, f, true, sel)
		sameProject(t, sel, got, gotErr, func() (*types.Project, error) { return cliProject(t.Context(), files, dir, "sel", sel, true) })
	}
	// RawEnvironment drops the error of the read without interpolation
	// (compose-go names one of the services with a problem), so only
	// whether it loads must agree
	raw := func() (*types.Project, error) {
		return cliProject(t.Context(), files, dir, "sel", []string{"*"}, false)
	}
	got, gotErr := projectOf(t, f, false, []string{"*"})
	if _, wantErr := raw(); gotErr != nil && wantErr != nil {
		t.Logf("neither loads without interpolation: %v", gotErr)
	} else {
		sameProject(t, []string{"* without interpolation"}, got, gotErr, raw)
	}
	if st := f.Stats(); st.Reads != 2 {
		t.Errorf("the files were read %d times; want once with interpolation and once without", st.Reads)
	}
}

func projectOf(t *testing.T, f *Files, interpolate bool, profiles []string) (*types.Project, error) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.project(t.Context(), interpolate, profiles)
}

// sameProject compares got with what load (compose-go's cli) gives.
// compose-go is not deterministic where it walks a map: of several
// services with a problem one is named, a list of problems comes in any
// order, and a build's ssh: entries are in map order. So the ssh:
// entries are sorted, and an error must be the same as one of a few
// loads' but for those.
func sameProject(t *testing.T, sel []string, got *types.Project, gotErr error, load func() (*types.Project, error)) {
	t.Helper()
	want, wantErr := load()
	if gotErr == nil && wantErr == nil {
		if !reflect.DeepEqual(sortedSSH(got), sortedSSH(want)) {
			t.Errorf("profiles %q: the project differs from compose-go's cli load:\n got %+v\nwant %+v", sel, got, want)
		}
		return
	}
	for range 20 {
		if gotErr != nil && wantErr != nil && lines(gotErr) == lines(wantErr) {
			return
		}
		_, wantErr = load()
	}
	t.Errorf("profiles %q: error\n%v\ncompose-go's cli:\n%v", sel, gotErr, wantErr)
}

// sortedSSH is p with each build's ssh: entries sorted by id.
func sortedSSH(p *types.Project) *types.Project {
	for _, services := range []types.Services{p.Services, p.DisabledServices} {
		for _, s := range services {
			if s.Build != nil {
				slices.SortFunc(s.Build.SSH, func(a, b types.SSHKey) int { return strings.Compare(a.ID, b.ID) })
			}
		}
	}
	return p
}

// lines is an error's text, its lines sorted and the service its first
// problem names left out.
func lines(err error) string {
	l := strings.Split(serviceName.ReplaceAllString(err.Error(), `service "…"`), "\n")
	sort.Strings(l)
	return strings.Join(l, "\n")
}

var serviceName = regexp.MustCompile(`service "[^"]*"`)

// namedProfiles are each profile the files' services name, then all of
// them together.
func namedProfiles(t *testing.T, files []string, dir string) [][]string {
	t.Helper()
	proj, err := cliProject(t.Context(), files, dir, "sel", []string{"*"}, true)
	if err != nil {
		return nil
	}
	var names []string
	for _, s := range proj.AllServices() {
		for _, p := range s.Profiles {
			if !slices.Contains(names, p) {
				names = append(names, p)
			}
		}
	}
	sort.Strings(names)
	var out [][]string
	for _, n := range names {
		out = append(out, []string{n})
	}
	if len(names) > 1 {
		out = append(out, names)
	}
	return out
}

// TestFilesReadOnce: one Files answers every question of a command from
// one read: the services of the active profiles twice (plan, port
// checks), every profile (lock) and the raw environment (exports); each
// answer is the package functions' own, and a caller changing what it got
// changes nothing for the next.
func TestFilesReadOnce(t *testing.T) {
	dir := stackDir(t)
	files := []string{filepath.Join(dir, "compose.yaml")}
	f := NewFiles(files, dir, "demo")
	for _, sel := range [][]string{nil, {"*"}, nil, {"*"}} {
		got, err := f.Services(t.Context(), sel)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Load(t.Context(), files, dir, "demo", sel)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("profiles %q: Files.Services differs from Load", sel)
		}
		for i := range got { // a caller's own copy
			got[i].Name, got[i].NamedVolumes = "changed", append(got[i].NamedVolumes[:0], "changed")
		}
	}
	raw, err := f.RawEnvironment(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := RawEnvironment(t.Context(), files, dir, "demo"); !reflect.DeepEqual(raw, want) || len(raw) == 0 {
		t.Errorf("Files.RawEnvironment = %v; RawEnvironment = %v", raw, want)
	}
	if got, want := f.Stats(), (Stats{Reads: 2, Selections: 3}); got != want {
		t.Errorf("stats = %+v; want %+v (one read with interpolation, one without; the active profiles, every profile, every profile raw)", got, want)
	}
	if f.For(files, dir, "demo") != f || f.For(files, dir, "other") == f || (*Files)(nil).For(files, dir, "demo") == nil {
		t.Error("For: the same files give f, others (or none) a new Files")
	}
}

// TestSelectingIsTheFlag: a Files selecting the command's --profile
// enables those profiles over COMPOSE_PROFILES (the environment's and
// .env's), as Compose's flag does, and keeps them when For gives a Files
// of other files; an explicit selection (the lock's "*") still wins.
func TestSelectingIsTheFlag(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		".env":         "COMPOSE_PROFILES=other\n",
		"compose.yaml": "services:\n  app: {image: busybox:1}\n  shell: {image: busybox:1, profiles: [debug]}\n  tools: {image: busybox:1, profiles: [other]}\n",
		"more.yaml":    "services:\n  side: {image: busybox:1, profiles: [debug]}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("COMPOSE_PROFILES", "other")
	compose, more := filepath.Join(dir, "compose.yaml"), filepath.Join(dir, "more.yaml")
	f := NewFiles([]string{compose}, dir, "sel").Selecting([]string{"debug"})
	for _, tc := range []struct {
		name     string
		f        *Files
		profiles []string
		want     []string
	}{
		{"the flag over the environment", f, nil, []string{"app", "shell"}},
		{"an explicit selection over the flag", f, []string{"*"}, []string{"app", "shell", "tools"}},
		{"kept by For", f.For([]string{compose, more}, dir, "sel"), nil, []string{"app", "shell", "side"}},
		{"without the flag, the environment", NewFiles([]string{compose}, dir, "sel"), nil, []string{"app", "tools"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svcs, err := tc.f.Services(t.Context(), tc.profiles)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range svcs {
				got = append(got, s.Name)
			}
			sort.Strings(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("services %v, want %v", got, tc.want)
			}
		})
	}
	if got := f.ActiveProfiles(t.Context()); !slices.Equal(got, []string{"debug"}) {
		t.Errorf("ActiveProfiles %v, want [debug]", got)
	}
}
