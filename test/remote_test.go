package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestRemote runs the remote rig's tests one after another, as a group
// that runs beside the other end-to-end tests: each starts an engine of its
// own (a dockerd on vfs inside a container), and five of them at once on a
// loaded 2-core machine starve each other's forwarded services.
func TestRemote(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: needs the Docker engine")
	}
	for _, c := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"RigAnswers", remoteRigAnswers}, {"UpThroughContext", remoteUpThroughContext}, {"FirstHour", remoteFirstHour},
		{"BackgroundWatch", remoteBackgroundWatch}, {"DevelopWatch", remoteDevelopWatch},
	} {
		t.Run(c.name, c.run)
	}
}

// bodyWait bounds how long waitBody waits for a forwarded service to
// answer: a state it waits for, not a pace it expects.
const bodyWait = 2 * time.Minute

// remoteRigAnswers: the rig's engine is another engine (its own images,
// its own containers), reached through the docker context over ssh only.
func remoteRigAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: needs the Docker engine")
	}
	r := standin.StartRemote(t)
	out, err := r.Docker("info", "--format", "{{.Name}} {{.Driver}} {{.Images}}")
	if err != nil {
		t.Fatalf("docker info through the context: %v: %s", err, out)
	}
	if !strings.Contains(out, "vfs") {
		t.Errorf("the context reached %q, not the rig's vfs engine", out)
	}
	t.Logf("rig at %s: %s", r.Host, out)
}

// remoteProject writes a project of image services built FROM the rig's
// base image; nothing of it exists on the rig's machine.
func remoteProject(t *testing.T, svcs string, files map[string]string) (dir, name string) {
	t.Helper()
	name = fmt.Sprintf("rem%d", time.Now().UnixNano()%1e9)
	all := map[string]string{"devenv.yaml": "name: " + name + "\nservices:\n" + svcs, "Dockerfile": "FROM " + standin.RemoteBase + "\n"}
	for k, v := range files {
		all[k] = v
	}
	return standin.Project(t, all), name
}

func remoteUpThroughContext(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: needs the Docker engine")
	}
	r := standin.StartRemote(t)
	env := append([]string{"DEVENV_CACHE=" + t.TempDir(), "NO_COLOR=1"}, r.Env...)
	dir, name := remoteProject(t, "  web:\n    profile: image\n    build: Dockerfile\n    command: [\"sleep\", \"3600\"]\n", nil)
	run := func(args ...string) standin.Result {
		t.Helper()
		res := standin.Run(t, dir, env, args...)
		if res.Code != 0 {
			t.Fatalf("devenv %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), res.Code, res.Stdout, res.Stderr)
		}
		return res
	}
	run("lock")
	run("up")
	out, err := r.Docker("ps", "--format", "{{.Names}}")
	if all, _ := r.Docker("ps", "-a", "--format", "{{.Names}} {{.Status}}"); !strings.Contains(out, name) {
		logs, _ := r.Docker("logs", name+"-web")
		t.Logf("rig containers: %s; logs: %s", all, logs)
	}
	if err != nil || !strings.Contains(out, name+"-web") {
		t.Fatalf("the rig's engine runs %q (%v), want %s-web", out, err, name)
	}
	if local, _ := exec.Command("docker", "ps", "-q", "--filter", "name="+name).Output(); len(local) != 0 {
		t.Errorf("the container runs on this machine's engine too: %s", local)
	}
	doc := standin.Run(t, dir, env, "doctor")
	if !strings.Contains(doc.Stdout+doc.Stderr, `context "rig"`) {
		t.Errorf("doctor does not name the context:\n%s%s", doc.Stdout, doc.Stderr)
	}
	run("down")
}

// remoteFirstHour is the first hour of a laptop driving an engine on
// another machine, through a docker context over ssh: up --watch syncs the
// project into /workspace there (not .git, not ignored files) and forwards
// the service's port to this machine over the one SSH connection the
// engine's client uses; an edit here reaches the container; a service
// started during the watch gets its port forwarded; a running job whose
// script changes is cancelled and submitted again; a job's output under
// /workspace comes back with devenv cp; down.
func remoteFirstHour(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: needs the Docker engine")
	}
	r := standin.StartRemote(t)
	env := append([]string{"DEVENV_CACHE=" + t.TempDir(), "NO_COLOR=1", "DEVENV_FORWARD_SAME_PORT=0"}, r.Env...)
	web := `  web:
    profile: image
    build: Dockerfile
    command: ["sh", "-c", "mkdir -p /workspace/site && exec httpd -f -p 8080 -h /workspace/site"]
    ports: ["8080"]
  api:
    profile: image
    build: Dockerfile
    command: ["sh", "-c", "exec httpd -f -p 8081 -h /workspace/api"]
    ports: ["8081"]
`
	dir, name := remoteProject(t, web, map[string]string{
		"site/index.html": "v1\n",
		"api/index.html":  "api v1\n",
		"loop.sh":         "echo v1 >> /tmp/runs.txt\nexec sleep 600\n",
		"job.sh":          "mkdir -p /workspace/out && echo rows=42 > /workspace/out/result.txt\n",
		".gitignore":      "scratch/\n",
		"scratch/big.bin": "not for the engine\n",
		".git/HEAD":       "ref: refs/heads/main\n",
	})
	run := func(args ...string) standin.Result {
		t.Helper()
		res := standin.Run(t, dir, env, args...)
		if res.Code != 0 {
			t.Fatalf("devenv %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), res.Code, res.Stdout, res.Stderr)
		}
		return res
	}
	run("lock")
	t.Cleanup(func() { standin.Run(t, dir, env, "down") })

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	urls, apiURLs, resubmitted := make(chan string, 1), make(chan string, 1), make(chan string, 1)
	synced := make(chan struct{})
	var once, onceAPI, onceSync, onceJob sync.Once
	var mu sync.Mutex
	seen := ""
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		if t.Failed() {
			t.Logf("up --watch printed:\n%s", seen)
		}
	})
	done := make(chan standin.Result, 1)
	go func() {
		done <- standin.RunWatching(ctx, t, dir, env, func(stderr string) {
			mu.Lock()
			seen = stderr
			mu.Unlock()
			if m := forwardedURL.FindStringSubmatch(stderr); m != nil {
				once.Do(func() { urls <- m[1] })
			}
			if m := resubmittedJob.FindStringSubmatch(stderr); m != nil {
				onceJob.Do(func() { resubmitted <- m[1] })
			}
			if m := forwardedAPI.FindStringSubmatch(stderr); m != nil {
				onceAPI.Do(func() { apiURLs <- m[1] })
			}
			if strings.Contains(stderr, "to start with the project's files") {
				onceSync.Do(func() { close(synced) })
			}
		}, "up", "--watch", "web")
	}()
	var url string
	select {
	case url = <-urls:
	case res := <-done:
		t.Fatalf("up --watch ended before forwarding: exit %d\n%s", res.Code, res.Stderr)
	case <-time.After(3 * time.Minute):
		t.Fatal("up --watch printed no forwarded URL in 3 minutes")
	}
	select {
	case <-synced:
	case <-time.After(time.Minute):
		t.Fatal("up --watch did not finish its first sync in a minute")
	}
	waitBody(t, url+"/index.html", "v1")
	if n := sshConnections(t, r.Port); n != 1 {
		t.Errorf("%d TCP connections to the engine's sshd while watching and forwarding, want 1 (the engine's client and the forward share one)", n)
	}

	writeFile(t, dir, "site/index.html", "v2\n")
	waitBody(t, url+"/index.html", "v2")

	// a service started after the watch began gets its port forwarded by
	// the running watch
	run("up", "api")
	var apiURL string
	select {
	case apiURL = <-apiURLs:
	case <-time.After(time.Minute):
		t.Fatal("the watch did not forward the port of api, started after it, in a minute")
	}
	waitBody(t, apiURL+"/index.html", "api v1")
	if n := sshConnections(t, r.Port); n != 1 {
		t.Errorf("%d TCP connections to the engine's sshd after another devenv command and a new forward, want 1", n)
	}

	ls, err := r.Docker("exec", name+"-web", "ls", "-a", "/workspace")
	if err != nil || strings.Contains(ls, "scratch") || strings.Contains(ls, ".git\n") || !strings.Contains(ls, "job.sh") {
		t.Errorf("/workspace on the engine holds %q (%v): want job.sh, no scratch/ (ignored) and no .git", ls, err)
	}

	// a running job whose script changes is cancelled and submitted again
	run("submit", "--service", "web", "--cmd", "sh /workspace/loop.sh")
	waitRemoteFile(t, r, name+"-web", "/tmp/runs.txt", "v1")
	writeFile(t, dir, "loop.sh", "echo v2 >> /tmp/runs.txt\nexec sleep 600\n")
	select {
	case id := <-resubmitted:
		waitRemoteFile(t, r, name+"-web", "/tmp/runs.txt", "v1\nv2")
		run("jobs", "cancel", id)
	case <-time.After(time.Minute):
		t.Fatal("the watch did not restart the job whose script changed in a minute")
	}

	run("exec", "web", "--", "sh", "/workspace/job.sh")
	run("cp", "web:out", ".")
	if got := readFile(t, filepath.Join(dir, "out", "result.txt")); got != "rows=42\n" {
		t.Errorf("the job's output came back as %q", got)
	}

	cancel()
	res := <-done
	if res.Code != 0 && res.Code != 130 {
		t.Errorf("up --watch ended with exit %d after Ctrl-C:\n%s", res.Code, res.Stderr)
	}
	if !strings.Contains(res.Stdout, "on the engine's machine (context \"rig\"") {
		t.Errorf("up did not say its addresses are the engine machine's:\n%s", res.Stdout)
	}
	if _, err := http.Get(url); err == nil {
		t.Errorf("%s still answers after watch ended: the forward outlived devenv", url)
	}
	run("down")
	if out, _ := r.Docker("ps", "-aq", "--filter", "label=dev.devenv.project="+name); out != "" {
		t.Errorf("down left containers on the engine: %s", out)
	}
}

var (
	forwardedURL = regexp.MustCompile(`web: (http://127\.0\.0\.1:\d+) \(port 8080, forwarded`)
	forwardedAPI = regexp.MustCompile(`api: (http://127\.0\.0\.1:\d+) \(port 8081, forwarded`)
	// job 1 (sh -c sh /workspace/loop.sh) uses loop.sh, which changed: ... as job 2
	resubmittedJob = regexp.MustCompile(`uses loop\.sh, which changed: cancelled it and submitted it again as job (\d+)`)
)

// sshConnections counts this machine's established TCP connections to
// 127.0.0.1:port (the rig's sshd), from /proc/net/tcp: the test runs in
// the host's network namespace, where devenv's ssh runs.
func sshConnections(t *testing.T, port int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Fatalf("count the ssh connections: %v", err)
	}
	want := fmt.Sprintf("0100007F:%04X", port)
	n := 0
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) > 3 && f[2] == want && f[3] == "01" {
			n++
		}
	}
	return n
}

// waitBody waits until url answers with body want.
func waitBody(t *testing.T, url, want string) {
	t.Helper()
	deadline := time.Now().Add(bodyWait)
	last := ""
	for time.Now().Before(deadline) {
		resp, err := http.Get(url)
		if err == nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			_ = resp.Body.Close()
			last = fmt.Sprintf("%d %q", resp.StatusCode, b)
			if resp.StatusCode == 200 && strings.TrimSpace(string(b)) == want {
				return
			}
		} else {
			last = err.Error()
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s did not answer %q in %s; last: %s", url, want, bodyWait, last)
}

// remoteBackgroundWatch: watch --detach keeps syncing after the command
// that started it returned, until watch --stop.
func remoteBackgroundWatch(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: needs the Docker engine")
	}
	r := standin.StartRemote(t)
	env := append([]string{"DEVENV_CACHE=" + t.TempDir(), "NO_COLOR=1"}, r.Env...)
	dir, name := remoteProject(t, "  app:\n    profile: image\n    build: Dockerfile\n    command: [\"sleep\", \"3600\"]\n", map[string]string{"notes.txt": "one\n"})
	run := func(args ...string) standin.Result {
		t.Helper()
		res := standin.Run(t, dir, env, args...)
		if res.Code != 0 {
			t.Fatalf("devenv %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), res.Code, res.Stdout, res.Stderr)
		}
		return res
	}
	run("lock")
	t.Cleanup(func() { standin.Run(t, dir, env, "down", "--volumes") })
	run("up")
	run("watch", "--detach")
	t.Cleanup(func() { standin.Run(t, dir, env, "watch", "--stop") })
	waitRemoteFile(t, r, name+"-app", "/workspace/notes.txt", "one")
	writeFile(t, dir, "notes.txt", "two\n")
	waitRemoteFile(t, r, name+"-app", "/workspace/notes.txt", "two")
	run("watch", "--stop")
	if log := readFile(t, filepath.Join(dir, ".devenv", "watch.log")); !strings.Contains(log, "synced the project") {
		t.Errorf("the background watch's log holds:\n%s", log)
	}
}

// waitRemoteFile waits until path in the rig's container holds want.
func waitRemoteFile(t *testing.T, r *standin.Remote, container, path, want string) {
	t.Helper()
	deadline := time.Now().Add(bodyWait)
	last := ""
	for time.Now().Before(deadline) {
		out, err := r.Docker("exec", container, "cat", path)
		if err == nil && strings.TrimSpace(out) == want {
			return
		}
		last = out
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s in %s did not become %q in 30 s; last: %q", path, container, want, last)
}

// remoteDevelopWatch: a compose service's develop.watch rules work on
// the remote engine through Compose's Watch (it copies through the Engine
// API, over the context's ssh): sync copies an edit into the container's
// target (not the ignored files), sync+restart copies and restarts the
// service, sync+exec copies and runs its command (user, working_dir,
// environment), restart restarts, rebuild is devenv's build and up there
// and recreates the container.
func remoteDevelopWatch(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: needs the Docker engine")
	}
	r := standin.StartRemote(t)
	env := append([]string{"DEVENV_CACHE=" + t.TempDir(), "NO_COLOR=1"}, r.Env...)
	compose := `services:
  site:
    build: .
    command: ["sh", "-c", "echo boot >> /tmp/boots; trap 'exit 0' TERM; sleep 3600 & wait"]
    develop:
      watch:
        - path: ./site
          action: sync
          target: /srv/site
          ignore: ["*.tmp"]
        - path: ./conf
          action: sync+restart
          target: /etc/app
        - path: ./jobs
          action: sync+exec
          target: /srv/jobs
          exec:
            command: ["sh", "-c", "echo \"ran: $$MODE $$(id -u) $$(pwd)\""]
            user: "1234"
            working_dir: /srv/jobs
            environment:
              MODE: check
        - path: ./restart.flag
          action: restart
        - path: ./Dockerfile
          action: rebuild
`
	dir, name := remoteProject(t, "  app:\n    profile: image\n    build: Dockerfile\n    command: [\"sleep\", \"3600\"]\n", map[string]string{
		"compose.yaml": compose, "site/index.html": "v1\n", "conf/app.conf": "level=1\n",
		"jobs/etl.py": "v1\n", "restart.flag": "0\n"})
	if err := os.WriteFile(filepath.Join(dir, "devenv.yaml"), []byte("name: "+name+"\ncompose: [compose.yaml]\nservices:\n  app:\n    profile: image\n    build: Dockerfile\n    command: [\"sleep\", \"3600\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) standin.Result {
		t.Helper()
		res := standin.Run(t, dir, env, args...)
		if res.Code != 0 {
			t.Fatalf("devenv %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), res.Code, res.Stdout, res.Stderr)
		}
		return res
	}
	run("lock")
	t.Cleanup(func() { standin.Run(t, dir, env, "down", "--volumes") })
	run("up")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan standin.Result, 1)
	started := make(chan struct{})
	var once, execOnce, rebuiltOnce sync.Once
	execRan, rebuilt := make(chan struct{}), make(chan struct{})
	go func() {
		done <- standin.RunWatching(ctx, t, dir, env, func(stderr string) {
			if strings.Contains(stderr, "synced the project") && strings.Contains(stderr, "develop.watch: Watch enabled") {
				once.Do(func() { close(started) })
			}
			if strings.Contains(stderr, "ran: check 1234 /srv/jobs") {
				execOnce.Do(func() { close(execRan) })
			}
			if strings.Contains(stderr, "develop.watch: rebuilt site") {
				rebuiltOnce.Do(func() { close(rebuilt) })
			}
		}, "watch", "--no-ports")
	}()
	select {
	case <-started:
	case res := <-done:
		t.Fatalf("watch ended: exit %d\n%s", res.Code, res.Stderr)
	case <-time.After(2 * time.Minute):
		t.Fatal("watch did not start in 2 minutes")
	}
	defer func() {
		if t.Failed() && ctx.Err() == nil {
			cancel()
			t.Logf("watch's output:\n%s", (<-done).Stderr)
		}
	}()
	site := name + "-site"
	writeFile(t, dir, "site/index.html", "v2\n")
	writeFile(t, dir, "site/draft.tmp", "ignored\n")
	waitRemoteFile(t, r, site, "/srv/site/index.html", "v2")
	if out, err := r.Docker("exec", site, "ls", "/srv/site"); err != nil || strings.Contains(out, "draft.tmp") {
		t.Errorf("/srv/site holds %q (%v): the ignored draft.tmp was synced", out, err)
	}
	writeFile(t, dir, "conf/app.conf", "level=2\n")
	waitRemoteFile(t, r, site, "/etc/app/app.conf", "level=2")
	waitRemoteFile(t, r, site, "/tmp/boots", "boot\nboot")
	writeFile(t, dir, "jobs/etl.py", "v2\n")
	waitRemoteFile(t, r, site, "/srv/jobs/etl.py", "v2")
	select {
	case <-execRan:
	case <-time.After(30 * time.Second):
		t.Fatal("the sync+exec command did not run as 1234 in /srv/jobs with MODE=check in 30 s")
	}
	writeFile(t, dir, "restart.flag", "1\n")
	waitRemoteFile(t, r, site, "/tmp/boots", "boot\nboot\nboot")
	before, err := r.Docker("inspect", "-f", "{{.Id}}", site)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "Dockerfile", "FROM "+standin.RemoteBase+"\nLABEL rebuilt=1\n")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if now, err := r.Docker("inspect", "-f", "{{.Id}} {{index .Config.Labels \"rebuilt\"}} {{.State.Running}}", site); err == nil && !strings.HasPrefix(now, strings.TrimSpace(before)) && strings.Contains(now, " 1 true") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("site was not rebuilt and recreated in 2 minutes (it was %s)", before)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// the container runs before the rebuild's up returns and says so: wait
	// for its line rather than racing it with Ctrl-C (as TestWatchDevelopThroughCompose)
	select {
	case <-rebuilt:
	case <-time.After(time.Minute):
		t.Error("the watch did not report the rebuild within a minute of the container running")
	}
	cancel()
	res := <-done
	for _, want := range []string{
		`develop.watch: Syncing service "site" after 1 changes were detected`,
		`develop.watch: service(s) ["site"] restarted`,
		"develop.watch: 1 file(s) changed under Dockerfile; rebuilding site",
		"develop.watch: rebuilt site: site built, site recreated",
	} {
		if !strings.Contains(res.Stderr, want) {
			t.Errorf("watch did not say %q:\n%s", want, res.Stderr)
		}
	}
}
