package project

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/compose/composetest"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/labels"
)

// TestRealComposeFilesAsCompose runs real public compose files (testdata/real,
// see its SOURCES.md) through devenv (devenv.yaml naming them, the plan, the
// rendered project) and through compose-go's loader with Compose's own
// options (what `docker compose config` prints), and compares them service
// by service and key by key. It is generic: nothing in it knows a file.
//
// The only differences it forgives are devenv's documented ones (README,
// "Compose files"): ports bound to 127.0.0.1 where the file names no
// address, devenv's own labels, the container named <project>-<service>
// where the file names none, and the project network's alias for the
// service (Compose gives that alias implicitly). Every other difference is
// written to testdata/real/<dir>.diff, a record of what devenv still does
// differently from Compose: a change in devenv that fixes (or adds) one
// shows there and needs a reviewed -update.
func TestRealComposeFilesAsCompose(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "real", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			abs, err := filepath.Abs(dir)
			if err != nil {
				t.Fatal(err)
			}
			files := composeFiles(t, abs)
			ref := composeConfig(t, abs, files, name)
			golden(t, filepath.Join("real", name+".diff"), []byte(compareWithCompose(t, abs, files, name, ref)))
		})
	}
}

// TestRepoComposeFilesAsCompose is the same comparison for every compose
// file among the repository's fixtures (testdata and test/): each one
// alone, as devenv.yaml naming it in its own directory. A file Compose
// itself refuses (a deliberately invalid fixture, or an export whose
// env_file lies where the export is written) is skipped with Compose's
// reason. testdata/repo.diff records the result for all of them.
func TestRepoComposeFilesAsCompose(t *testing.T) {
	t.Setenv("JUPYTER_TOKEN", "test-token") // devenv's exports read it from the environment
	root, files := composetest.Repo(t)
	var out []string
	for _, file := range files {
		rel, _ := filepath.Rel(root, file)
		if inCorpus(rel) {
			continue
		}
		dir, base := filepath.Dir(file), filepath.Base(file)
		name := projectName(rel)
		ref, err := loadAsCompose(t, dir, []string{base}, name)
		if err != nil {
			t.Logf("skipping %s: Compose refuses it: %s", rel, portablePaths(err.Error(), dir))
			continue
		}
		out = append(out, "## "+rel+"\n"+compareWithCompose(t, dir, []string{base}, name, ref))
	}
	golden(t, "repo.diff", []byte(strings.Join(out, "\n")))
}

// inCorpus: rel (from the repository's root) is a file of the corpus
// (testdata/corpus, testdata/heldout), compared as its repository lays it
// out by TestCorpusAsCompose and TestHeldOutCorpusAsCompose, where a file
// alone (an included fragment, an override) is not a project.
func inCorpus(rel string) bool {
	rel = filepath.ToSlash(rel)
	return strings.HasPrefix(rel, "compose/project/testdata/corpus/") || strings.HasPrefix(rel, "compose/project/testdata/heldout/")
}

// projectName is a project name made of a fixture's path.
func projectName(rel string) string {
	rel = strings.TrimSuffix(rel, filepath.Ext(rel))
	var b strings.Builder
	for _, r := range strings.ToLower(rel) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

// ownService is the devenv service the comparison's devenv.yaml declares.
const ownService = "devenv-own"

// composeFiles are the directory's compose files (every .yaml or .yml).
func composeFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, pat := range []string{"*.yaml", "*.yml"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			out = append(out, filepath.Base(f))
		}
	}
	sort.Strings(out)
	return out
}

// composeConfig loads the files as `docker compose -p name config` does.
func composeConfig(t *testing.T, dir string, files []string, name string) *types.Project {
	t.Helper()
	proj, err := loadAsCompose(t, dir, files, name)
	if err != nil {
		t.Fatalf("compose refuses %s: %v", dir, err)
	}
	return proj
}

func loadAsCompose(t *testing.T, dir string, files []string, name string) (*types.Project, error) {
	t.Helper()
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.Join(dir, f))
	}
	// no --project-directory: Compose's is the first file's directory,
	// where it reads .env and resolves relative paths
	opts, err := cli.NewProjectOptions(paths, cli.WithOsEnv, cli.WithEnvFiles(), cli.WithDotEnv,
		cli.WithName(name), cli.WithDefaultProfiles(), cli.WithResolvedPaths(true))
	if err != nil {
		t.Fatal(err)
	}
	proj, err := opts.LoadProject(t.Context())
	if err != nil {
		return nil, err
	}
	return proj.WithServicesEnvironmentResolved(false)
}

// compareWithCompose is the record of what devenv does differently, with
// devenv.yaml in dir naming files (relative to dir).
func compareWithCompose(t *testing.T, dir string, files []string, name string, ref *types.Project) string {
	t.Helper()
	return compareIn(t, dir, dir, files, name, ref)
}

// compareIn is compareWithCompose where paths are shown relative to root
// (a repository's root, dir one of its directories) as $DIR.
func compareIn(t *testing.T, root, dir string, files []string, name string, ref *types.Project) string {
	t.Helper()
	out, _ := compareScored(t, root, dir, files, name, ref)
	return out
}

// score is how far devenv's project is Compose's: whether devenv loaded
// it at all, and how many of the keys compared are equal.
type score struct {
	loaded      bool
	keys, equal int
}

// compareScored is compareIn with its score.
func compareScored(t *testing.T, root, dir string, files []string, name string, ref *types.Project) (string, score) {
	t.Helper()
	// devenv.yaml needs a service of its own: a plain image, left out of the comparison
	yaml := fmt.Sprintf("name: %s\ncompose: [%s]\nservices:\n  %s: {profile: image, image: \"busybox:1\"}\n", name, strings.Join(files, ", "), ownService)
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte(yaml), dir)
	if err != nil {
		return "devenv.yaml refused: " + portablePaths(err.Error(), root) + "\n", score{}
	}
	pl, err := plan.Make(p, fakeLock(t, p), cpuHost, plan.Options{StateDir: t.TempDir()})
	if err != nil {
		return "refused: " + portablePaths(err.Error(), root) + "\n", score{}
	}
	proj, err := FromPlan(pl, Options{WorkingDir: dir})
	if err != nil {
		return "not rendered: " + portablePaths(err.Error(), root) + "\n", score{}
	}
	var lines []string
	keys, total := 0, 0
	for _, svc := range ref.ServiceNames() {
		got, ok := proj.Services[svc]
		if !ok {
			lines = append(lines, svc+": missing in devenv's project")
			n := len(asMap(t, ref.Services[svc]))
			keys, total = keys+n, total+n
			continue
		}
		diffs, compared := serviceDiff(t, name, got, ref.Services[svc])
		total += compared
		for _, d := range diffs {
			keys++
			lines = append(lines, svc+" "+portablePaths(d, root))
		}
	}
	for _, svc := range proj.ServiceNames() {
		if _, ok := ref.Services[svc]; !ok && svc != ownService {
			lines = append(lines, svc+": in devenv's project, not in Compose's")
		}
	}
	diffs, compared := topLevelDiff(t, proj, ref)
	total += compared
	for _, d := range diffs {
		keys++
		lines = append(lines, portablePaths(d, root))
	}
	var warnings []string
	for _, w := range pl.ComposeWarnings {
		warnings = append(warnings, "warning: "+portablePaths(w, root))
	}
	sort.Strings(warnings)
	head := fmt.Sprintf("%d services; %d of %d keys differ from Compose\n", len(ref.Services), keys, total)
	return head + strings.Join(append(lines, warnings...), "\n") + "\n", score{loaded: true, keys: total, equal: total - keys}
}

// serviceDiff lists the top-level keys whose values differ, after
// forgiving devenv's documented differences.
func serviceDiff(t *testing.T, project string, got, want types.ServiceConfig) ([]string, int) {
	t.Helper()
	g, w := asMap(t, got), asMap(t, want)
	forgive(project, got.Name, g, w)
	var out []string
	compared := 0
	for _, k := range sortedKeys(g, w) {
		gm, gok := g[k].(map[string]any)
		wm, wok := w[k].(map[string]any)
		if gok && wok && k != "environment" {
			compared += len(sortedKeys(gm, wm))
		} else {
			compared++
		}
		if reflect.DeepEqual(g[k], w[k]) {
			continue
		}
		if k == "environment" {
			out = append(out, "environment: variables differ: "+strings.Join(mapKeyDiff(g[k], w[k]), ", "))
			continue
		}
		if gok && wok {
			// which parts differ, rather than two long values cut short
			for _, sub := range sortedKeys(gm, wm) {
				gv, gin := gm[sub]
				wv, win := wm[sub]
				switch {
				case gin && !win:
					out = append(out, fmt.Sprintf("%s.%s: devenv %s | compose (no such key)", k, sub, short(gv)))
				case win && !gin:
					out = append(out, fmt.Sprintf("%s.%s: devenv (no such key) | compose %s", k, sub, short(wv)))
				case !reflect.DeepEqual(gv, wv):
					out = append(out, fmt.Sprintf("%s.%s: devenv %s | compose %s", k, sub, short(gv), short(wv)))
				}
			}
			continue
		}
		out = append(out, fmt.Sprintf("%s: devenv %s | compose %s", k, short(g[k]), short(w[k])))
	}
	return out, compared
}

// forgive makes devenv's documented differences equal in g (devenv's
// service as JSON) to w (Compose's).
func forgive(project, service string, g, w map[string]any) {
	forgiveLabels(g)
	if gp, ok := g["ports"].([]any); ok {
		wp, _ := w["ports"].([]any)
		for i, p := range gp {
			pm, _ := p.(map[string]any)
			if i < len(wp) && pm["host_ip"] == "127.0.0.1" {
				if wm, _ := wp[i].(map[string]any); wm["host_ip"] == nil {
					delete(pm, "host_ip")
				}
			}
		}
	}
	if _, named := w["container_name"]; !named && g["container_name"] == project+"-"+service {
		delete(g, "container_name")
	}
}

// topLevelDiff compares the project's networks, volumes, configs and
// secrets with Compose's, by key: devenv's project labels on what Compose
// makes (checked here, then forgiven). The project network (default) is
// compared where the file declares it (its name:, external); where it
// does not, devenv names it after the project, not <project>_default (a
// difference the README lists).
func topLevelDiff(t *testing.T, got, want *types.Project) ([]string, int) {
	t.Helper()
	var out []string
	compared := 0
	for _, kind := range []struct {
		name      string
		got, want any
		labelled  bool
	}{
		{"networks", got.Networks, want.Networks, true}, {"volumes", got.Volumes, want.Volumes, true},
		{"configs", got.Configs, want.Configs, false}, {"secrets", got.Secrets, want.Secrets, false},
	} {
		g, w := asAny(t, kind.got), asAny(t, kind.want)
		if kind.name == "networks" && !declaresDefault(want) {
			delete(g, DefaultNetwork)
			delete(w, DefaultNetwork)
		}
		used := usedKeys(want, kind.name)
		for k := range w {
			if !used[k] {
				delete(w, k) // declared, but no service of the active profiles uses it
			}
		}
		for _, key := range sortedKeys(g, w) {
			compared++
			gv, _ := g[key].(map[string]any)
			wv, inCompose := w[key].(map[string]any)
			if !inCompose {
				if kind.name == "volumes" && isDevenvVolume(got, key) {
					continue // a devenv service's volume
				}
				out = append(out, fmt.Sprintf("%s.%s: in devenv's project, not in Compose's", kind.name, key))
				continue
			}
			if kind.labelled && gv != nil && gv["external"] != true {
				l, _ := gv["labels"].(map[string]any)
				if l[labels.Project] == nil {
					out = append(out, fmt.Sprintf("%s.%s: no %s label: devenv would not know it as its own", kind.name, key, labels.Project))
				}
				forgiveLabels(gv)
			}
			if !reflect.DeepEqual(gv, wv) {
				out = append(out, fmt.Sprintf("%s.%s: devenv %s | compose %s", kind.name, key, short(gv), short(wv)))
			}
		}
	}
	return out, compared
}

// usedKeys are the keys of the top-level networks, volumes, configs or
// secrets that proj's services refer to.
func usedKeys(proj *types.Project, kind string) map[string]bool {
	out := map[string]bool{}
	for _, svc := range proj.Services {
		switch kind {
		case "networks":
			for k := range svc.Networks {
				out[k] = true
			}
		case "volumes":
			for _, v := range svc.Volumes {
				if v.Type == types.VolumeTypeVolume && v.Source != "" {
					out[v.Source] = true
				}
			}
		case "configs":
			for _, c := range svc.Configs {
				out[c.Source] = true
			}
		case "secrets":
			for _, c := range svc.Secrets {
				out[c.Source] = true
			}
		}
	}
	return out
}

// isDevenvVolume: key is a volume only devenv's own services mount.
func isDevenvVolume(proj *types.Project, key string) bool {
	svc, ok := proj.Services[ownService]
	if !ok {
		return false
	}
	return slices.ContainsFunc(svc.Volumes, func(v types.ServiceVolumeConfig) bool { return v.Source == key })
}

func forgiveLabels(m map[string]any) {
	l, ok := m["labels"].(map[string]any)
	if !ok {
		return
	}
	for k := range l {
		if strings.HasPrefix(k, "dev.devenv.") {
			delete(l, k)
		}
	}
	if len(l) == 0 {
		delete(m, "labels")
	}
}

func asAny(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// sortedKeys are the keys of a and b, each once, sorted.
func sortedKeys(a, b map[string]any) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func mapKeyDiff(a, b any) []string {
	am, _ := a.(map[string]any)
	bm, _ := b.(map[string]any)
	var out []string
	for k, v := range am {
		if bv, ok := bm[k]; !ok {
			out = append(out, "+"+k)
		} else if !reflect.DeepEqual(v, bv) {
			out = append(out, "~"+k)
		}
	}
	for k := range bm {
		if _, ok := am[k]; !ok {
			out = append(out, "-"+k)
		}
	}
	sort.Strings(out)
	return out
}

func short(v any) string {
	if v == nil {
		return "(none)"
	}
	b, _ := json.Marshal(v)
	s := string(b)
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

func portablePaths(s, dir string) string { return strings.ReplaceAll(s, dir, "$DIR") }

// TestComposeLayoutsAsCompose compares projects laid out as their
// repositories lay them (testdata/layout/<repo>, see SOURCES.md): each
// line of a layout's cases.txt is a devenv.yaml in one of its directories
// naming compose files, compared with `docker compose -f <file>... config`
// of the same files (Compose's project directory then is the first file's
// directory). The record is testdata/layout/<repo>.diff, paths shown
// from the layout's root as $DIR.
func TestComposeLayoutsAsCompose(t *testing.T) {
	compareCorpus(t, "layout")
}

// declaresDefault: the files give the project network (default) its own
// name or make it external.
func declaresDefault(proj *types.Project) bool {
	n, ok := proj.Networks[DefaultNetwork]
	return ok && (bool(n.External) || n.Name != proj.Name+"_"+DefaultNetwork)
}

// TestComposeRulesAsCompose is the same comparison for small projects
// written for one Compose rule each (testdata/rules/<rule>, the rule in
// its compose file's comment); testdata/rules/<rule>.diff is the record.
func TestComposeRulesAsCompose(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "rules", "*", "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range dirs {
		dir, err := filepath.Abs(filepath.Dir(file))
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			ref := composeConfig(t, dir, []string{"compose.yaml"}, name)
			golden(t, filepath.Join("rules", name+".diff"), []byte(compareWithCompose(t, dir, []string{"compose.yaml"}, name, ref)))
		})
	}
}
