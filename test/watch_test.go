package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/test/standin"
)

// developCompose is a compose service with a rule of each develop.watch
// action; its command ends on SIGTERM, so a restart takes no grace period.
const developCompose = `services:
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
            command: ["sh", "-c", "echo \"ran: $$MODE $$(id -u)\""]
            user: "1234"
            environment:
              MODE: check
        - path: ./restart.flag
          action: restart
        - path: ./Dockerfile
          action: rebuild
`

// TestWatchDevelopThroughCompose: devenv watch on this machine's engine
// applies a compose service's develop.watch rules through Compose's
// Watch: sync copies an edit into the running container (not an ignored
// file) and removes a deleted file there; sync+restart copies and
// restarts the service; sync+exec copies and runs its command as its user
// with its environment, the output shown by devenv; restart restarts;
// rebuild is devenv's build and up, and recreates the container with the
// new image. Ctrl-C ends the watch (exit 0, "Watch disabled") and leaves
// the containers running.
func TestWatchDevelopThroughCompose(t *testing.T) {
	t.Parallel()
	base := standin.Debian(t)
	w := newWorld(t)
	dir, name := w.project(t, "compose: [compose.yaml]\nservices:\n  shell:\n    profile: image\n    image: nvcr.io/"+plainBase+"\n    command: [sleep, infinity]\n",
		map[string]string{"compose.yaml": developCompose, "Dockerfile": "FROM " + base + "\n", "site/index.html": "v1\n",
			"conf/app.conf": "level=1\n", "jobs/etl.py": "v1\n", "restart.flag": "0\n"})
	w.must(t, dir, "lock")
	w.must(t, dir, "up")
	site := name + "-site"

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan standin.Result, 1)
	enabled, ran, rebuilt := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var enabledOnce, ranOnce, rebuiltOnce sync.Once
	go func() {
		done <- standin.RunWatching(ctx, t, dir, w.env, func(stderr string) {
			if strings.Contains(stderr, "develop.watch: Watch enabled") {
				enabledOnce.Do(func() { close(enabled) })
			}
			if strings.Contains(stderr, "ran: check 1234") {
				ranOnce.Do(func() { close(ran) })
			}
			if strings.Contains(stderr, "develop.watch: rebuilt site") {
				rebuiltOnce.Do(func() { close(rebuilt) })
			}
		}, "watch")
	}()
	select {
	case <-enabled:
	case res := <-done:
		t.Fatalf("watch ended: exit %d\n%s", res.Code, res.Stderr)
	case <-time.After(2 * time.Minute):
		t.Fatal("the watch was not enabled in 2 minutes")
	}
	defer func() {
		if t.Failed() && ctx.Err() == nil {
			cancel()
			t.Logf("watch's output:\n%s", (<-done).Stderr)
		}
	}()

	writeFile(t, dir, "site/index.html", "v2\n")
	writeFile(t, dir, "site/draft.tmp", "ignored\n")
	writeFile(t, dir, "site/old.html", "old\n")
	waitContainerFile(t, site, "/srv/site/index.html", "v2")
	waitContainerFile(t, site, "/srv/site/old.html", "old")
	if out, _ := exec.Command("docker", "exec", site, "ls", "/srv/site").CombinedOutput(); strings.Contains(string(out), "draft.tmp") {
		t.Errorf("/srv/site holds %q: the ignored draft.tmp was synced", out)
	}
	if err := os.Remove(filepath.Join(dir, "site", "old.html")); err != nil {
		t.Fatal(err)
	}
	waitContainer(t, site, "without /srv/site/old.html", time.Minute, func() (bool, string) {
		out, err := exec.Command("docker", "exec", site, "ls", "/srv/site").CombinedOutput()
		return err == nil && !strings.Contains(string(out), "old.html"), string(out)
	})

	writeFile(t, dir, "conf/app.conf", "level=2\n")
	waitContainerFile(t, site, "/etc/app/app.conf", "level=2")
	waitContainerFile(t, site, "/tmp/boots", "boot\nboot")

	writeFile(t, dir, "jobs/etl.py", "v2\n")
	waitContainerFile(t, site, "/srv/jobs/etl.py", "v2")
	select {
	case <-ran:
	case <-time.After(time.Minute):
		t.Fatal("the sync+exec command's output (as 1234, MODE=check) was not shown in a minute")
	}

	writeFile(t, dir, "restart.flag", "1\n")
	waitContainerFile(t, site, "/tmp/boots", "boot\nboot\nboot")

	before := inspect(t, site).ID
	writeFile(t, dir, "Dockerfile", "FROM "+base+"\nLABEL rebuilt=1\n")
	waitContainer(t, site, "recreated with the rebuilt image", 3*time.Minute, func() (bool, string) {
		c, err := standin.Docker(t).ContainerInspect(t.Context(), site)
		if err != nil {
			return false, err.Error()
		}
		return c.ID != before && c.Config.Labels["rebuilt"] == "1" && c.State.Running, c.ID + " " + c.State.Status
	})
	// the container runs before the rebuild's up returns and says so: wait
	// for its line rather than racing it with Ctrl-C
	select {
	case <-rebuilt:
	case <-time.After(time.Minute):
		t.Error("the watch did not report the rebuild within a minute of the container running")
	}

	cancel()
	res := <-done
	if res.Code != 0 {
		t.Errorf("Ctrl-C ended the watch with exit %d, want 0:\n%s", res.Code, res.Stderr)
	}
	for _, want := range []string{
		`develop.watch: Syncing service "site" after 1 changes were detected`,
		`develop.watch: service(s) ["site"] restarted`,
		"develop.watch: 1 file(s) changed under Dockerfile; rebuilding site",
		"develop.watch: rebuilt site: site built, site recreated",
		"develop.watch: Watch disabled",
	} {
		if !strings.Contains(res.Stderr, want) {
			t.Errorf("watch did not say %q:\n%s", want, res.Stderr)
		}
	}
	if !inspect(t, site).State.Running {
		t.Error("site stopped with the watch")
	}
}

// waitContainerFile waits until path in container holds want (spaces
// around it trimmed).
func waitContainerFile(t *testing.T, container, path, want string) {
	t.Helper()
	waitContainer(t, container, path+" holding "+want, time.Minute, func() (bool, string) {
		out, err := exec.Command("docker", "exec", container, "cat", path).CombinedOutput()
		return err == nil && strings.TrimSpace(string(out)) == want, string(out)
	})
}

// waitContainer polls ok until it holds, failing after within with the
// last state ok saw.
func waitContainer(t *testing.T, container, what string, within time.Duration, ok func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		done, last := ok()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not %s in %s; last: %q", container, what, within, last)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
