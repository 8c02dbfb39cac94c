package engine_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
)

// The user of the image TestIntegrationCreatePlacesFiles builds: ids no
// host account has, so an engine that looked the user up on the host (as
// CopyUIDGID does on Docker 20.10) could not give them.
const (
	imageUser   = "devenv"
	imageUID    = "4321"
	imageGID    = "4322"
	imagePasswd = "root:x:0:0:root:/:/app\ndevenv:x:4321:4322::/home/devenv:/app\n"
	imageGroup  = "root:x:0:\ndevenv:x:4322:\n"
)

// TestIntegrationCreatePlacesFiles creates containers from a tiny image
// whose USER is a named account of its own /etc/passwd, with a generated
// file: the file is in place before the first start, owned by the
// container's user (the image's, or a numeric one the spec sets) with its
// mode, readable by that user, still there after a stop and start; the
// image's own directories keep their mode and owner. A user the image does
// not have fails Create and leaves no container behind.
func TestIntegrationCreatePlacesFiles(t *testing.T) {
	ctx := t.Context()
	e := connect(t)
	run := newRunID(t)
	labels := map[string]string{runLabel: run}
	cleanupRun(t, e, labels)
	imageRef := "devenv-enginetest/files:" + run
	if _, err := e.Build(ctx, engine.BuildRequest{Context: userImageContext(t), Tags: []string{imageRef}, Labels: labels}, nil); err != nil {
		t.Fatalf("Build: %v", err)
	}
	conf := []byte("spark.sql.shuffle.partitions 64\n")
	spec := func(name, user string) engine.ContainerSpec {
		return engine.ContainerSpec{Name: "devenv-enginetest-" + run + "-" + name, Image: imageRef, Labels: labels,
			User: user, Cmd: []string{"serve", "127.0.0.1:8080"},
			Files: []engine.File{{Path: "/opt/devenv/conf/spark-defaults.conf", Mode: 0o600, Data: conf}}}
	}
	tests := []struct {
		name, user string
		wantOwner  string
	}{
		{"image user", "", imageUID + ":" + imageGID},
		{"numeric user", "4400", "4400:0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := e.Create(ctx, spec(strings.ReplaceAll(tt.name, " ", "-"), tt.user))
			if err != nil {
				t.Fatalf("Create: %v", err)
			}
			if err := e.Start(ctx, id); err != nil {
				t.Fatalf("Start: %v", err)
			}
			wantOut(t, e, id, "600 "+tt.wantOwner+"\n", "stat", "/opt/devenv/conf/spark-defaults.conf")
			wantOut(t, e, id, string(conf), "cat", "/opt/devenv/conf/spark-defaults.conf")
			wantOut(t, e, id, "711 0:0\n", "stat", "/opt")        // the image's directory, untouched
			wantOut(t, e, id, "755 0:0\n", "stat", "/opt/devenv") // made by the engine
			if err := e.Stop(ctx, id, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			if err := e.Start(ctx, id); err != nil {
				t.Fatal(err)
			}
			wantOut(t, e, id, string(conf), "cat", "/opt/devenv/conf/spark-defaults.conf")
		})
	}
	t.Run("unknown user", func(t *testing.T) {
		s := spec("ghost", "ghost")
		_, err := e.Create(ctx, s)
		if err == nil || !strings.Contains(err.Error(), "unable to find user ghost") {
			t.Fatalf("Create as a user the image lacks = %v, want an error naming the user", err)
		}
		if _, err := e.Inspect(ctx, s.Name); !errors.Is(err, engine.ErrNotFound) {
			t.Errorf("a container without its files was left behind (inspect: %v)", err)
		}
	})
}

// wantOut runs the stand-in in a running container as its user and
// compares what it prints.
func wantOut(t *testing.T, e engine.Engine, id, want string, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code, err := e.Exec(t.Context(), id, engine.ExecOptions{Cmd: append([]string{"/app"}, args...), Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || stdout.String() != want {
		t.Errorf("/app %s: exit %d, stdout %q (stderr %q); want %q", strings.Join(args, " "), code, stdout.String(), stderr.String(), want)
	}
}

// userImageContext is a build context for an image FROM scratch holding
// the stand-in, an /etc/passwd and /etc/group naming its user, and an /opt
// of mode 0711, run as USER devenv.
func userImageContext(t *testing.T) *bytes.Reader {
	t.Helper()
	rootfs := tarOf(t, []tarEntry{
		{name: "etc/", mode: 0o755, dir: true},
		{name: "etc/passwd", mode: 0o644, data: []byte(imagePasswd)},
		{name: "etc/group", mode: 0o644, data: []byte(imageGroup)},
		{name: "opt/", mode: 0o711, dir: true},
		{name: "app", mode: 0o755, data: standinBinary(t)},
	})
	dockerfile := "FROM scratch\nADD rootfs.tar /\nUSER " + imageUser + "\nENTRYPOINT [\"/app\"]\n"
	return bytes.NewReader(tarOf(t, []tarEntry{{name: "Dockerfile", mode: 0o644, data: []byte(dockerfile)}, {name: "rootfs.tar", mode: 0o644, data: rootfs}}))
}
