package compose_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/compose/loader"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/sirupsen/logrus"
)

// helperMode makes this test binary act as devenv-compose: "serve" is the
// real helper (loader.Serve); the others are helpers gone wrong.
const helperMode = "DEVENV_COMPOSE_TEST_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperMode) {
	case "":
		os.Exit(m.Run())
	case "serve":
		if f := os.Getenv("DEVENV_COMPOSE_TEST_PIDFILE"); f != "" {
			appendLine(f, strconv.Itoa(os.Getpid()))
		}
		serve(os.Stdin)
	case "serve-once":
		line, _ := bufio.NewReader(os.Stdin).ReadBytes('\n')
		serve(bytes.NewReader(line))
	case "crash":
		fmt.Fprintln(os.Stderr, "panic: runtime error: the helper crashed")
		os.Exit(2)
	case "other-protocol":
		fmt.Println(`{"protocol": 99, "services": "not a list"}`)
	case "garbage":
		fmt.Println("this is not JSON")
	case "hang":
		appendLine(os.Getenv("DEVENV_COMPOSE_TEST_PIDFILE"), strconv.Itoa(os.Getpid()))
		time.Sleep(time.Hour)
	}
	os.Exit(0)
}

// serve is devenv-compose's main.
func serve(in io.Reader) {
	if err := loader.Serve(context.Background(), in, os.Stdout); err != nil { //nolint:forbidigo // the helper's main, no test here
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func appendLine(file, line string) {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		_, _ = fmt.Fprintln(f, line)
		_ = f.Close()
	}
}

// installed lays out devenv and its helper (this test binary) as `make
// build` does, and returns the path of a symbolic link to devenv in
// another directory, as one on PATH would be.
func installed(t *testing.T, mode string) string {
	t.Helper()
	t.Setenv(helperMode, mode)
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "devenv"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(os.Args[0], filepath.Join(bin, compose.HelperName)); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "devenv")
	if err := os.Symlink(filepath.Join(bin, "devenv"), link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir()) // nothing to find there
	return link
}

func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const stackYAML = `services:
  db:
    image: postgres:${PG_VERSION:-16}
    environment:
      PASSWORD: ${DB_PASSWORD}
      FIXED: plain
    ports: ["5432:5432"]
    volumes: ["data:/var/lib/postgresql/data"]
    healthcheck:
      test: ["CMD", "pg_isready"]
      interval: 2s
    restart: always
  debug:
    image: busybox:1
    profiles: [debug]
    depends_on:
      db: {condition: service_healthy}
volumes:
  data: {}
`

type outcome struct {
	svcs []compose.Service
	err  string
	raw  map[string]map[string]string
}

func loadBoth(t *testing.T, dir string, profiles []string) outcome {
	t.Helper()
	files := []string{filepath.Join(dir, "compose.yaml")}
	svcs, err := compose.Load(t.Context(), files, dir, "demo", profiles)
	raw, rawErr := compose.RawEnvironment(t.Context(), files, dir, "demo")
	if rawErr != nil {
		t.Fatalf("raw environment: %v", rawErr)
	}
	o := outcome{svcs: svcs, raw: raw}
	if err != nil {
		o.err = err.Error()
	}
	return o
}

// The helper gives devenv what the in-process loader gives: the same
// services, interpolated from the same environment (COMPOSE_PROFILES,
// the shell, .env), the same errors and the same raw environment.
func TestHelperLoadsAsInProcess(t *testing.T) {
	t.Setenv("DB_PASSWORD", "from-the-shell")
	t.Setenv("COMPOSE_PROFILES", "debug")
	cases := map[string]map[string]string{
		"stack":       {"compose.yaml": stackYAML, ".env": "PG_VERSION=17\n"},
		"problems":    {"compose.yaml": "services:\n  a:\n    image: x\n    privileged: true\n  b:\n    network_mode: host\n"},
		"broken file": {"compose.yaml": "services:\n  web:\n    image: [not, a, string]\n"},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			dir := project(t, files)
			want := loadBoth(t, dir, nil)
			exe := installed(t, "serve")
			compose.FindHelperForTest(t, exe)
			got := loadBoth(t, dir, nil)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("through the helper:\n%#v\nin process:\n%#v", got, want)
			}
			if name == "stack" && (len(got.svcs) != 2 || got.svcs[0].Image != "postgres:17" || !strings.Contains(strings.Join(got.svcs[0].Container.Env, " "), "PASSWORD=from-the-shell")) {
				t.Errorf("services %+v: want db and debug (COMPOSE_PROFILES), postgres:17 (.env), the shell's password", got.svcs)
			}
		})
	}
}

func TestHelperOnPath(t *testing.T) {
	t.Setenv("DB_PASSWORD", "x")
	dir := project(t, map[string]string{"compose.yaml": stackYAML})
	link := installed(t, "serve")
	bin := filepath.Dir(must(filepath.EvalSymlinks(link)))
	t.Setenv("PATH", bin)
	compose.FindHelperForTest(t, filepath.Join(t.TempDir(), "devenv")) // nothing next to this devenv
	if _, err := compose.Load(t.Context(), []string{filepath.Join(dir, "compose.yaml")}, dir, "demo", nil); err != nil {
		t.Fatal(err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestHelperMissing(t *testing.T) {
	dir := project(t, map[string]string{"compose.yaml": stackYAML})
	t.Setenv("PATH", t.TempDir())
	exe := filepath.Join(t.TempDir(), "devenv")
	compose.FindHelperForTest(t, exe)
	files := []string{filepath.Join(dir, "compose.yaml")}
	_, err := compose.Load(t.Context(), files, dir, "demo", nil)
	if !errors.Is(err, compose.ErrNoHelper) || exitcode.Of(err) != exitcode.Failure {
		t.Fatalf("error = %v (exit %d); want ErrNoHelper, exit 1", err, exitcode.Of(err))
	}
	for _, want := range []string{filepath.Join(filepath.Dir(exe), compose.HelperName), "$PATH", "make build", "go install github.com/devenv-dev/devenv/cmd/...@"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	// an export without the raw entries would write the values of .env
	// and the shell: no helper is an error here too, not an empty answer
	if raw, err := compose.RawEnvironment(t.Context(), files, dir, "demo"); raw != nil || !errors.Is(err, compose.ErrNoHelper) {
		t.Errorf("raw environment without a helper = %v, %v; want ErrNoHelper", raw, err)
	}
	if svcs, err := compose.Load(t.Context(), nil, dir, "demo", nil); svcs != nil || err != nil {
		t.Errorf("no compose files needs no helper: got %v, %v", svcs, err)
	}
}

func TestHelperGoneWrong(t *testing.T) {
	dir := project(t, map[string]string{"compose.yaml": stackYAML})
	for mode, want := range map[string][]string{
		"crash":          {"exit status 2", "panic: runtime error: the helper crashed", "make build"},
		"other-protocol": {"speaks protocol 99 and this devenv " + strconv.Itoa(compose.Protocol), "different builds", "make build"},
		"garbage":        {"cannot read", "make build"},
	} {
		t.Run(mode, func(t *testing.T) {
			compose.FindHelperForTest(t, installed(t, mode))
			_, err := compose.Load(t.Context(), []string{filepath.Join(dir, "compose.yaml")}, dir, "demo", nil)
			if !errors.Is(err, compose.ErrHelper) || exitcode.Of(err) != exitcode.Failure {
				t.Fatalf("error = %v (exit %d); want ErrHelper, exit 1", err, exitcode.Of(err))
			}
			for _, w := range append(want, compose.HelperName) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// What compose-go logs in the helper shows where it would in devenv.
func TestHelperLogsReachDevenvsLog(t *testing.T) {
	dir := project(t, map[string]string{"compose.yaml": stackYAML})
	compose.FindHelperForTest(t, installed(t, "serve"))
	var buf bytes.Buffer
	out := logrus.StandardLogger().Out
	logrus.SetOutput(&buf)
	t.Cleanup(func() { logrus.SetOutput(out) })
	if _, err := compose.Load(t.Context(), []string{filepath.Join(dir, "compose.yaml")}, dir, "demo", nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `The \"DB_PASSWORD\" variable is not set`) {
		t.Errorf("log = %q, want compose-go's warning about DB_PASSWORD", buf.String())
	}
}

// One helper answers every load of a process (it compiles compose's schema
// once), until devenv's environment changes: then a new one interpolates it.
func TestHelperStartsOncePerEnvironment(t *testing.T) {
	dir := project(t, map[string]string{"compose.yaml": stackYAML})
	pidFile := filepath.Join(t.TempDir(), "pids")
	t.Setenv("DEVENV_COMPOSE_TEST_PIDFILE", pidFile)
	t.Setenv("DB_PASSWORD", "first")
	compose.FindHelperForTest(t, installed(t, "serve"))
	first := loadBoth(t, dir, nil)
	again := loadBoth(t, dir, nil)
	if first.err != "" || !reflect.DeepEqual(first, again) {
		t.Fatalf("second load differs: %#v\n%#v", first, again)
	}
	if pids := strings.Fields(string(must(os.ReadFile(pidFile)))); len(pids) != 1 {
		t.Errorf("helpers started for two loads and a raw environment: %v, want 1", pids)
	}
	t.Setenv("DB_PASSWORD", "second")
	got := loadBoth(t, dir, nil)
	if env := strings.Join(got.svcs[0].Container.Env, " "); !strings.Contains(env, "PASSWORD=second") {
		t.Errorf("after the environment changed: env %s, want PASSWORD=second", env)
	}
	if pids := strings.Fields(string(must(os.ReadFile(pidFile)))); len(pids) != 2 {
		t.Errorf("helpers started: %v, want a second one for the new environment", pids)
	}
}

// A helper that ended between two requests is started again.
func TestHelperEndedBetweenRequests(t *testing.T) {
	dir := project(t, map[string]string{"compose.yaml": stackYAML})
	t.Setenv("DB_PASSWORD", "x")
	compose.FindHelperForTest(t, installed(t, "serve-once"))
	for i := range 3 {
		if o := loadBoth(t, dir, nil); o.err != "" || len(o.svcs) != 1 || o.raw == nil {
			t.Fatalf("load %d: %#v", i, o)
		}
		time.Sleep(50 * time.Millisecond) // let it end
	}
}

// Ending the context (Ctrl-C) kills the helper: Load returns at once with
// the context's error, which devenv maps to exit 130.
func TestHelperKilledWhenContextEnds(t *testing.T) {
	dir := project(t, map[string]string{"compose.yaml": stackYAML})
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("DEVENV_COMPOSE_TEST_PIDFILE", pidFile)
	compose.FindHelperForTest(t, installed(t, "hang"))
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		for {
			if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
				cancel() // it runs, and said so
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	start := time.Now()
	_, err := compose.Load(ctx, []string{filepath.Join(dir, "compose.yaml")}, dir, "demo", nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Load returned %s after the helper started", d)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(must(os.ReadFile(pidFile)))))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := os.FindProcess(pid); err == nil && p.Signal(syscall.Signal(0)) == nil {
		t.Errorf("helper %d still runs", pid)
	}
}

// devenv stops its helper before it exits and waits for it: no zombie is
// left where nothing reaps orphans.
func TestStopHelperWaitsForIt(t *testing.T) {
	dir := project(t, map[string]string{"compose.yaml": stackYAML})
	pidFile := filepath.Join(t.TempDir(), "pids")
	t.Setenv("DEVENV_COMPOSE_TEST_PIDFILE", pidFile)
	t.Setenv("DB_PASSWORD", "x")
	compose.FindHelperForTest(t, installed(t, "serve"))
	if o := loadBoth(t, dir, nil); o.err != "" {
		t.Fatal(o.err)
	}
	compose.StopHelper()
	pid, err := strconv.Atoi(strings.TrimSpace(string(must(os.ReadFile(pidFile)))))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := os.FindProcess(pid); err == nil && p.Signal(syscall.Signal(0)) == nil {
		t.Errorf("helper %d still runs after StopHelper", pid)
	}
	compose.StopHelper() // none left: nothing to do
}
