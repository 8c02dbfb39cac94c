package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
)

// corpusUp are the corpus projects (compose/project/testdata/corpus, see
// its SOURCES.md) that run from images alone, each with one of its cases:
// the directory devenv.yaml is in, the compose files, and NAME=VALUE
// settings of the environment (for both tools). ac-pihole-cloudflared-doh
// is left out: its network has a fixed subnet (172.20.0.0/24), which the
// engine refuses ("Pool overlaps") whenever a test running beside it got
// an address pool there, and tests share the engine; its keys are still
// compared with Compose's by compose/project's TestCorpusAsCompose.
var corpusUp = []struct{ project, dir, files string }{
	{"ac-elasticsearch-logstash-kibana", ".", "compose.yaml"},
	{"ac-nextcloud-postgres", ".", "compose.yaml"},
	{"ac-plex", ".", "compose.yaml"},
	{"ac-portainer", ".", "compose.yaml"},
	{"ac-postgresql-pgadmin", ".", "compose.yaml"},
	{"ac-prometheus-grafana", ".", "compose.yaml"},
	{"ac-wireguard", ".", "compose.yaml"},
	{"ac-wordpress-mysql", ".", "compose.yaml"},
	{"cp-all-in-one-community", ".", "docker-compose.yml"},
	{"milvus-standalone", ".", "docker-compose.yml"},
	{"mlflow", ".", "docker-compose.yml"},
	{"cp-all-in-one", ".", "docker-compose.yml"},
	{"langfuse", ".", "docker-compose.yml"},
	{"nv-voice-phoenix", ".", "docker/docker-compose.phoenix.yaml COMPOSE_PROFILES=tracing"},
}

// TestCorpusCreatedAsCompose creates the containers of real public compose
// projects with devenv (`up --no-start`) and with the Compose CLI
// (`create`), one after the other in the same directory under different
// project names, and compares `docker inspect` of each container field by
// field: Config, HostConfig and Mounts, the project's name written as $P.
// Every image the files name is the Debian stand-in tagged under that name
// (the engine cannot pull). What is not compared: names, ids, timestamps,
// paths the engine makes, and devenv's documented differences (README,
// "Where devenv differs on purpose"): the image (devenv runs the one the
// lock pins, by ID), ports on 127.0.0.1 where the file names no address,
// devenv's own labels and Compose's config hash (which covers them), the
// project network's name (<project> where the file names none, not
// <project>_default).
func TestCorpusCreatedAsCompose(t *testing.T) {
	t.Parallel() // its projects' names, image tags and networks are its own; alone, it ran before every parallel test (warm e2e tier 7m27s serial, 6m09s parallel)
	tool := corpusComposeTool(t)
	w := newWorld(t)
	for _, c := range corpusUp {
		t.Run(c.project, func(t *testing.T) {
			fields := strings.Fields(c.files)
			var files []string
			var env []string
			for _, f := range fields {
				if strings.Contains(f, "=") {
					env = append(env, f)
				} else {
					files = append(files, f)
				}
			}
			root := copyTree(t, filepath.Join("..", "compose", "project", "testdata", "corpus", c.project))
			dir := filepath.Join(root, c.dir)
			tagImages(t, tool, dir, files, env)
			dname, cname := uniqueName("e2ecorpus"), uniqueName("e2ecompose")
			standin.CleanupProject(t, dname)
			yaml := fmt.Sprintf("name: %s\ncompose: [%s]\n", dname, strings.Join(files, ", "))
			if err := os.WriteFile(filepath.Join(dir, "devenv.yaml"), []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			denv := append(append([]string{}, w.env...), env...)
			mustIn(t, dir, denv, "lock")
			mustIn(t, dir, denv, "up", "--no-start")
			got := createdBy(t, dname)
			mustIn(t, dir, denv, "down", "--volumes")
			composeIn(t, tool, dir, env, append(composeFileArgs(cname, files), "create")...)
			t.Cleanup(func() { composeQuiet(tool, dir, env, append(composeFileArgs(cname, files), "down", "--volumes")...) })
			want := createdBy(t, cname)
			if len(want) == 0 {
				t.Fatalf("Compose created no container")
			}
			var diffs []string
			for _, svc := range keysOf(want, got) {
				g, ok := got[svc]
				if !ok {
					diffs = append(diffs, svc+": not created by devenv")
					continue
				}
				wv, ok := want[svc]
				if !ok {
					diffs = append(diffs, svc+": created by devenv, not by Compose")
					continue
				}
				gn := normalInspect(t, g, dname)
				sameProjectDir(gn, dir, filepath.Dir(filepath.Join(dir, files[0])))
				diffs = append(diffs, inspectDiff(svc, gn, normalInspect(t, wv, cname))...)
			}
			t.Logf("%d containers compared", len(want))
			if len(diffs) > 0 {
				t.Errorf("docker inspect differs from Compose's:\n%s", strings.Join(diffs, "\n"))
			}
		})
	}
}

// corpusComposeTool is DEVENV_TEST_COMPOSE (make e2e sets it, building the
// pinned Compose as bin/docker-compose), else bin/docker-compose, else this
// machine's compose when it is v2.23 or later: Compose v1 (Debian's
// docker-compose 1.29) prints no `config --images`, so no stand-in would be
// tagged and every lock would fail (seen on a fresh machine).
func corpusComposeTool(t *testing.T) []string {
	t.Helper()
	if p := os.Getenv("DEVENV_TEST_COMPOSE"); p != "" {
		return []string{p}
	}
	if _, err := os.Stat(filepath.Join("..", "bin", "docker-compose")); err == nil {
		abs, _ := filepath.Abs(filepath.Join("..", "bin", "docker-compose"))
		return []string{abs}
	}
	return composeWithConfigs(t)
}

func composeFileArgs(project string, files []string) []string {
	args := []string{"-p", project}
	for _, f := range files {
		args = append(args, "-f", f)
	}
	return args
}

func composeIn(t *testing.T, tool []string, dir string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool[0], append(tool[1:], args...)...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", strings.Join(tool, " "), strings.Join(args, " "), err, out)
	}
	return string(out)
}

func composeQuiet(tool []string, dir string, env []string, args ...string) {
	cmd := exec.Command(tool[0], append(tool[1:], args...)...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	_ = cmd.Run()
}

func mustIn(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	r := standin.Run(t, dir, env, args...)
	if r.Code != 0 {
		t.Fatalf("devenv %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
	}
}

// tagImages tags the Debian stand-in under each image the files name
// (Compose's `config --images`), removing the tags at cleanup.
func tagImages(t *testing.T, tool []string, dir string, files, env []string) {
	t.Helper()
	cli := standin.Docker(t)
	deb := standin.Debian(t)
	cmd := exec.CommandContext(t.Context(), tool[0], append(tool[1:], append(composeFileArgs("images", files), "config", "--images")...)...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	out, err := cmd.Output() // stdout only: the warnings go to stderr
	if err != nil {
		t.Fatalf("%s config --images: %v", strings.Join(tool, " "), err)
	}
	for _, ref := range strings.Fields(string(out)) {
		if err := cli.ImageTag(t.Context(), deb, ref); err != nil {
			t.Fatalf("tag %s: %v", ref, err)
		}
		t.Cleanup(func() {
			_, _ = cli.ImageRemove(context.WithoutCancel(t.Context()), ref, image.RemoveOptions{})
		})
	}
}

// createdBy inspects the project's containers, by service.
func createdBy(t *testing.T, project string) map[string]container.InspectResponse {
	t.Helper()
	cli := standin.Docker(t)
	list, err := cli.ContainerList(t.Context(), container.ListOptions{All: true,
		Filters: filters.NewArgs(filters.Arg("label", labels.ComposeProject+"="+project))})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]container.InspectResponse{}
	for _, c := range list {
		out[c.Labels[labels.ComposeService]] = inspect(t, c.ID)
	}
	return out
}

// keysOf are the keys of the maps, each once, sorted.
func keysOf[V any](ms ...map[string]V) []string {
	seen := map[string]bool{}
	for _, m := range ms {
		for k := range m {
			seen[k] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// normalInspect is the compared part of a container's inspect as JSON
// values, the project's name written as $P and what the comparison
// forgives removed.
func normalInspect(t *testing.T, c container.InspectResponse, project string) map[string]any {
	t.Helper()
	b, err := json.Marshal(map[string]any{"Config": c.Config, "HostConfig": c.HostConfig, "Mounts": c.Mounts})
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), project, "$P")
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	cfg, _ := m["Config"].(map[string]any)
	delete(cfg, "Hostname") // the container's id
	delete(cfg, "Image")    // devenv runs the image the lock pins, by ID
	sortAny(cfg["Env"])     // from a map: neither tool keeps an order
	if mounts, ok := m["Mounts"].([]any); ok {
		sort.Slice(mounts, func(i, j int) bool { return fmt.Sprint(mounts[i]) < fmt.Sprint(mounts[j]) })
	}
	if l, ok := cfg["Labels"].(map[string]any); ok {
		for k := range l {
			if strings.HasPrefix(k, "dev.devenv.") || k == labels.ComposeConfigHash {
				delete(l, k)
			}
		}
		if deps, ok := l[composeDependsOn].(string); ok { // written from a map: in no order
			parts := strings.Split(deps, ",")
			sort.Strings(parts)
			l[composeDependsOn] = strings.Join(parts, ",")
		}
	}
	hc, _ := m["HostConfig"].(map[string]any)
	sortAny(hc["Binds"]) // from the mounts, in no order
	if hc["NetworkMode"] == "$P_default" {
		hc["NetworkMode"] = "$P" // the project network devenv names after the project
	}
	if pb, ok := hc["PortBindings"].(map[string]any); ok {
		for _, v := range pb {
			list, _ := v.([]any)
			for _, b := range list {
				if bm, ok := b.(map[string]any); ok && bm["HostIp"] == "127.0.0.1" {
					bm["HostIp"] = "" // devenv's default address, compared as Compose's none
				}
			}
		}
	}
	return m
}

// sameProjectDir forgives devenv's project directory in the working_dir
// label: devenv's is devenv.yaml's directory (dir), where Compose's is the
// first compose file's (composeDir), which differ when devenv.yaml sits at
// a repository's root and the compose file in deploy/ (a difference the
// README lists: "The project directory").
func sameProjectDir(got map[string]any, dir, composeDir string) {
	cfg, _ := got["Config"].(map[string]any)
	l, _ := cfg["Labels"].(map[string]any)
	if l != nil && l[composeWorkingDir] == dir {
		l[composeWorkingDir] = composeDir
	}
}

const composeWorkingDir = "com.docker.compose.project.working_dir"

// composeDependsOn is the label in which Compose writes a service's
// dependencies.
const composeDependsOn = "com.docker.compose.depends_on"

// sortAny sorts a JSON list of strings in place.
func sortAny(v any) {
	if list, ok := v.([]any); ok {
		sort.Slice(list, func(i, j int) bool { return fmt.Sprint(list[i]) < fmt.Sprint(list[j]) })
	}
}

// inspectDiff lists the fields of Config and HostConfig (and the mounts)
// that differ, one line each.
func inspectDiff(svc string, got, want map[string]any) []string {
	var out []string
	for _, part := range []string{"Config", "HostConfig", "Mounts"} {
		g, gok := got[part].(map[string]any)
		w, wok := want[part].(map[string]any)
		if !gok || !wok {
			if !reflect.DeepEqual(got[part], want[part]) {
				out = append(out, fmt.Sprintf("%s %s: devenv %s | compose %s", svc, part, shortJSON(got[part]), shortJSON(want[part])))
			}
			continue
		}
		for _, k := range keysOf(g, w) {
			if reflect.DeepEqual(g[k], w[k]) {
				continue
			}
			gm, gok := g[k].(map[string]any)
			wm, wok := w[k].(map[string]any)
			if !gok || !wok {
				out = append(out, fmt.Sprintf("%s %s.%s: devenv %s | compose %s", svc, part, k, shortJSON(g[k]), shortJSON(w[k])))
				continue
			}
			for _, sub := range keysOf(gm, wm) { // a map (labels): the keys that differ
				if !reflect.DeepEqual(gm[sub], wm[sub]) {
					out = append(out, fmt.Sprintf("%s %s.%s[%s]: devenv %s | compose %s", svc, part, k, sub, shortJSON(gm[sub]), shortJSON(wm[sub])))
				}
			}
		}
	}
	return out
}

func shortJSON(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// copyTree copies a testdata directory into a temporary one, so that
// devenv.yaml and devenv.lock are written there.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
