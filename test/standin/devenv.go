package standin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Result is what a devenv run produced.
type Result struct {
	Stdout, Stderr string
	// Code is the exit status; a run ended by a signal it did not handle
	// reports 128+signal, as a shell does (130 for SIGINT).
	Code int
}

var built struct {
	sync.Mutex
	path string
	err  error
}

// Devenv builds devenv once per test process (go build ./cmd/devenv and
// ./cmd/devenv-core in the module root, found by walking up from the working directory to
// go.mod) and returns its path. It fails the test, with the compiler's
// output, when the build fails.
func Devenv(t testing.TB) string {
	t.Helper()
	built.Lock()
	defer built.Unlock()
	if built.path == "" && built.err == nil {
		built.path, built.err = buildFromWorkingDir()
	}
	if built.err != nil {
		t.Fatalf("standin: %v", built.err)
	}
	return built.path
}

func buildFromWorkingDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", errorf("cannot read the working directory: %v", err)
	}
	root, err := findModuleRoot(wd)
	if err != nil {
		return "", err
	}
	cache, err := cacheDir()
	if err != nil {
		return "", err
	}
	// a directory per module root: worktrees testing at once do not
	// replace each other's programs
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(cache, "bin", hex.EncodeToString(sum[:6]))
	return filepath.Join(dir, "devenv"), buildDevenv(root, dir)
}

// ModuleRoot returns the directory holding the go.mod that encloses the
// test's working directory.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("standin: cannot read the working directory: %v", err)
	}
	root, err := findModuleRoot(wd)
	if err != nil {
		t.Fatalf("standin: %v", err)
	}
	return root
}

// findModuleRoot walks up from dir to the first directory holding go.mod.
func findModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", errorf("cannot make %s absolute: %v", dir, err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !st.IsDir() {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errorf("no go.mod in %s or any directory above it; run the end-to-end tests from inside the devenv module (go test ./test/...)", dir)
		}
	}
}

// programs are what devenv installs, in the order they are moved into
// place: devenv-nvml and devenv-core (the full program) before devenv,
// which runs it.
var programs = []string{"devenv-nvml", "devenv-core", "devenv"}

// buildDevenv runs go build for ./cmd/devenv-core and ./cmd/devenv in
// root and moves the programs into dir atomically, so that a concurrent
// test process never runs half a file.
func buildDevenv(root, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return errorf("cannot create %s: %v", dir, err)
	}
	tmp, err := os.MkdirTemp(dir, ".build-")
	if err != nil {
		return errorf("cannot create a temporary directory in %s: %v", dir, err)
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	for _, name := range programs {
		if err := buildProgram(root, tmp, name); err != nil {
			return err
		}
	}
	for _, name := range programs {
		if err := InstallCopy(filepath.Join(tmp, name), filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// InstallCopy puts a copy of the program src at dst, whole or not at all,
// by plain reads and writes, as an archive or a package is unpacked: how a
// program's file was written decides the page-cache folios its runs map,
// and so their RSS (the cgo linker's own file: 12 MB more; a file the Go
// linker wrote through a mapping: 3 to 4 MB less than a copy). The
// benchmarks install every program they compare this way (BENCHMARKS.md,
// peak memory).
func InstallCopy(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return errorf("cannot read %s: %v", src, err)
	}
	defer func() { _ = in.Close() }()
	tmp := dst + ".new"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		return errorf("cannot write %s: %v", tmp, err)
	}
	_, err = io.CopyBuffer(struct{ io.Writer }{out}, struct{ io.Reader }{in}, make([]byte, 128<<10)) // plain reads and writes
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, dst)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return errorf("cannot install %s as %s: %v", src, dst, err)
	}
	return nil
}

// cgoCFlags is flags with go-nvml's deprecation warnings silenced, added
// only when missing: the same string as the Makefile's is the same build
// cache key.
func cgoCFlags(flags string) string {
	const quiet = "-Wno-deprecated-declarations"
	if slices.Contains(strings.Fields(flags), quiet) {
		return flags
	}
	return strings.TrimSpace(flags + " " + quiet)
}

func buildProgram(root, tmp, name string) error {
	start := time.Now()
	out := filepath.Join(tmp, name)
	pkg := "./cmd/" + name
	// -trimpath and the Makefile's CGO_CFLAGS, as make build, make test and
	// mkrelease build: one set of compiled packages in the build cache
	// serves them all, which a cold cache pays for once.
	cmd := exec.Command(goTool(), "build", "-trimpath", "-o", out, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_CFLAGS="+cgoCFlags(os.Getenv("CGO_CFLAGS")))
	if name != "devenv-nvml" { // as make build: only devenv-nvml uses cgo
		cmd.Env = append(cmd.Env, "CGO_ENABLED=0")
	}
	output, err := cmd.CombinedOutput()
	if err != nil {
		return errorf("building devenv failed (`go build -trimpath -o %s %s` in %s, after %s): %v\n%s\nFix the build first: cd %s && go build %s",
			out, pkg, root, time.Since(start).Round(time.Millisecond), err, strings.TrimSpace(string(output)), root, pkg)
	}
	// go build writes no program for a package that is not main
	if head, err := readHead(out, 8); err != nil || len(head) == 0 || string(head) == "!<arch>\n" {
		return errorf("building devenv failed: `go build %s` in %s produced no program; cmd/%s must be package main with a main function", pkg, root, name)
	}
	return nil
}

// readHead reads up to n bytes from the start of a file.
func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	buf := make([]byte, n)
	m, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:m], nil
}

// goTool is the go command of PATH, else the toolchain's own.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// Run runs the devenv binary (built by Devenv) in dir with args. env holds
// KEY=value entries added to the test process's environment (later entries
// win). A non-zero exit is not a failure: it is reported in Result.Code.
func Run(t testing.TB, dir string, env []string, args ...string) Result {
	t.Helper()
	return RunContext(context.Background(), t, dir, env, args...)
}

// RunContext is Run with a context: when ctx ends, devenv receives SIGINT
// (as from Ctrl-C) and gets 30 seconds to exit before it is killed; the
// Result holds the exit code it chose, 130 when it did not handle the signal.
func RunContext(ctx context.Context, t testing.TB, dir string, env []string, args ...string) Result {
	t.Helper()
	bin := Devenv(t)
	start := time.Now()
	res, err := runBinary(ctx, bin, dir, env, args...)
	if err != nil {
		t.Fatalf("standin: running devenv %s in %s: %v", strings.Join(args, " "), dir, err)
	}
	t.Logf("standin: devenv %s (in %s) exited %d after %s", strings.Join(args, " "), dir, res.Code, time.Since(start).Round(time.Millisecond))
	return res
}

// RunWatching is RunContext with watch called, under no lock, with all of
// stderr so far after each write to it: a test waits for a state devenv
// reports (a step, a waiting message) and then acts (interrupts, cuts the
// engine), instead of sleeping for a guessed time.
func RunWatching(ctx context.Context, t testing.TB, dir string, env []string, watch func(stderr string), args ...string) Result {
	t.Helper()
	bin := Devenv(t)
	start := time.Now()
	res, err := runBinaryWatching(ctx, bin, dir, env, watch, args...)
	if err != nil {
		t.Fatalf("standin: running devenv %s in %s: %v", strings.Join(args, " "), dir, err)
	}
	t.Logf("standin: devenv %s (in %s) exited %d after %s", strings.Join(args, " "), dir, res.Code, time.Since(start).Round(time.Millisecond))
	return res
}

// InterruptWhen returns a watch for RunWatching that cancels (so SIGINTs
// devenv) once stderr contains every one of want.
func InterruptWhen(cancel context.CancelFunc, want ...string) func(string) {
	return func(stderr string) {
		for _, w := range want {
			if !strings.Contains(stderr, w) {
				return
			}
		}
		cancel()
	}
}

// watchedWriter keeps what is written and shows the whole to watch.
type watchedWriter struct {
	buf   bytes.Buffer
	watch func(string)
}

func (w *watchedWriter) Write(p []byte) (int, error) {
	n, err := w.buf.Write(p)
	if w.watch != nil {
		w.watch(w.buf.String())
	}
	return n, err
}

// interruptGrace is how long an interrupted run may take to exit.
var interruptGrace = 30 * time.Second

// runBinary runs bin and collects its output and exit status; when ctx ends
// the process gets SIGINT, then SIGKILL after interruptGrace.
func runBinary(ctx context.Context, bin, dir string, env []string, args ...string) (Result, error) {
	return runBinaryWatching(ctx, bin, dir, env, nil, args...)
}

func runBinaryWatching(ctx context.Context, bin, dir string, env []string, watch func(string), args ...string) (Result, error) {
	var stdout bytes.Buffer
	stderr := &watchedWriter{watch: watch}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = interruptGrace
	err := cmd.Run()
	code, err := exitCode(cmd, err)
	return Result{Stdout: stdout.String(), Stderr: stderr.buf.String(), Code: code}, err
}

// exitCode turns cmd.Run's error into an exit status; an error that is not
// about how the process ended (it could not start) is returned.
func exitCode(cmd *exec.Cmd, err error) (int, error) {
	if err == nil {
		return 0, nil
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return statusCode(exitErr.ProcessState), nil
	}
	// The process ran, but Wait reports the context (a clean exit after
	// SIGINT) or exec.ErrWaitDelay (children kept its output open).
	if cmd.ProcessState != nil {
		return statusCode(cmd.ProcessState), nil
	}
	return 0, err
}

func statusCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// RunProgram runs the devenv program bin (another build than Devenv's:
// a release's, an older commit's) in dir.
func RunProgram(t testing.TB, bin, dir string, env []string, args ...string) Result {
	t.Helper()
	r, err := runBinary(t.Context(), bin, dir, env, args...)
	if err != nil {
		t.Fatalf("standin: run %s: %v", bin, err)
	}
	return r
}
