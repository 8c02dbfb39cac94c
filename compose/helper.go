package compose

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/devenv-dev/devenv/internal/exitcode"
)

// HelperName is the file name of the program that loads compose files for
// devenv (cmd/devenv-compose). It is installed next to devenv.
var HelperName = "devenv-compose" + exeSuffix()

// ErrNoHelper is the helper found neither next to devenv nor on PATH.
var ErrNoHelper = errors.New("compose files are loaded by devenv-compose, a program installed next to devenv, and it was not found")

// ErrHelper is a helper that ran and failed, or answered what devenv
// cannot use.
var ErrHelper = errors.New("the compose helper failed")

const installHint = "build both with `make build` (bin/devenv and bin/devenv-compose), or install both with `go install github.com/devenv-dev/devenv/cmd/...@latest`"

// helperPath finds the helper once per process.
var helperPath = sync.OnceValues(findHelper)

// findHelper looks next to the running executable (symbolic links
// resolved, so a link to devenv on PATH finds the helper beside the real
// file), then on PATH.
func findHelper() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	return lookHelper(exe)
}

// lookHelper is findHelper for the executable exe ("" when unknown).
func lookHelper(exe string) (string, error) {
	var looked []string
	if exe != "" {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), HelperName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
		looked = append(looked, p)
	}
	if p, err := exec.LookPath(HelperName); err == nil {
		return p, nil
	}
	looked = append(looked, HelperName+" on $PATH")
	return "", exitcode.With(exitcode.Failure, fmt.Errorf("%w (looked for %s): %s", ErrNoHelper, strings.Join(looked, ", then "), installHint))
}

// The helper answers every request of this process: compose-go compiles
// the compose JSON schema once per process (half of a load's time), so a
// command that loads the files twice or three times (lock check, plan,
// port checks) starts it once, as when compose-go ran in devenv. It is
// started again when devenv's environment or working directory changed
// since, so it always interpolates what devenv would, and when it ended.
var running struct {
	sync.Mutex
	p *helperProc
}

// helperProc is a running helper: requests go to its stdin, one JSON a
// line, and responses come from its stdout the same way. It exits when
// devenv closes its stdin, which devenv's exit does.
type helperProc struct {
	path   string
	env    []string
	dir    string
	cmd    *exec.Cmd
	in     *os.File
	out    *bufio.Reader
	outF   *os.File
	stderr lockedBuffer
	done   chan struct{} // closed once the process has ended
}

// runHelper sends the request to the helper, starting it when needed, and
// returns its path and the response. The context's end kills it.
func runHelper(ctx context.Context, req []byte) (string, []byte, error) {
	running.Lock()
	defer running.Unlock()
	p := running.p
	if p != nil && !p.reusable() {
		p.stop()
		p, running.p = nil, nil
	}
	reused := p != nil
	for {
		if p == nil {
			path, err := helperPath()
			if err != nil {
				return "", nil, err
			}
			if p, err = startHelper(path); err != nil {
				return path, nil, exitcode.With(exitcode.Failure, fmt.Errorf("%w: cannot start %s: %w; %s", ErrHelper, path, err, installHint))
			}
			running.p = p
		}
		out, err := p.ask(ctx, req)
		if err == nil {
			return p.path, out, nil
		}
		p.stop()
		running.p = nil
		if ctx.Err() != nil {
			return p.path, nil, fmt.Errorf("loading compose files: %w", ctx.Err())
		}
		if reused { // it may have ended while idle: once more with a new one
			p, reused = nil, false
			continue
		}
		return p.path, nil, exitcode.With(exitcode.Failure, fmt.Errorf("%w: %s: %w; %s%s", ErrHelper, p.path, err, installHint, stderrTail(p.stderr.Bytes())))
	}
}

func startHelper(path string) (*helperProc, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		_, _ = inR.Close(), inW.Close()
		return nil, err
	}
	p := &helperProc{path: path, env: os.Environ(), dir: dir, in: inW, out: bufio.NewReader(outR), outF: outR, done: make(chan struct{})}
	p.cmd = exec.Command(path)
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, &p.stderr
	err = p.cmd.Start()
	_, _ = inR.Close(), outW.Close() // the helper's ends
	if err != nil {
		_, _ = inW.Close(), outR.Close()
		return nil, err
	}
	go func() {
		_ = p.cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// reusable: still running, in the environment and directory it started in.
func (p *helperProc) reusable() bool {
	select {
	case <-p.done:
		return false
	default:
	}
	dir, err := os.Getwd()
	return err == nil && dir == p.dir && slices.Equal(os.Environ(), p.env)
}

// ask writes one request and reads its response, or gives up when ctx
// ends or the helper does.
func (p *helperProc) ask(ctx context.Context, req []byte) ([]byte, error) {
	type answer struct {
		line []byte
		err  error
	}
	ch := make(chan answer, 1)
	go func() {
		if _, err := p.in.Write(append(req, '\n')); err != nil {
			ch <- answer{err: err}
			return
		}
		line, err := p.out.ReadBytes('\n')
		ch <- answer{line, err}
	}()
	select {
	case a := <-ch:
		if a.err == nil {
			return a.line, nil
		}
		select { // it ended: say how
		case <-p.done:
			if st := p.cmd.ProcessState; st != nil && !st.Success() {
				return nil, fmt.Errorf("it ended (%s) before answering", st)
			}
		case <-time.After(5 * time.Second):
		}
		return nil, fmt.Errorf("it ended before answering: %w", a.err)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// stop ends the helper and waits for it.
func (p *helperProc) stop() {
	_ = p.in.Close()
	_ = p.cmd.Process.Kill()
	<-p.done
	_ = p.outF.Close()
}

// StopHelper ends the helper this process started, if any, and waits for
// it. devenv calls it before it exits: the helper would end anyway when its
// stdin closes, but unwaited, as a zombie where nothing reaps orphans.
func StopHelper() {
	running.Lock()
	defer running.Unlock()
	p := running.p
	if p == nil {
		return
	}
	running.p = nil
	_ = p.in.Close() // it ends when its requests do
	select {
	case <-p.done:
		_ = p.outF.Close()
	case <-time.After(2 * time.Second):
		p.stop()
	}
}

// lockedBuffer is the helper's stderr, written by exec's copying goroutine.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > 64<<10 { // keep the end: a crash's last words
		b.buf.Next(b.buf.Len() - 32<<10)
	}
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// stderrTail is the end of what a failed helper wrote, for its error.
func stderrTail(b []byte) string {
	const limit = 2000
	s := strings.TrimSpace(string(b))
	if s == "" {
		return ""
	}
	if len(s) > limit {
		s = "..." + s[len(s)-limit:]
	}
	return "; it wrote:\n" + s
}

// decodeResponse reads the loader's answer, refusing one of another
// protocol: a helper from another build of devenv.
func decodeResponse(out []byte, where string) (*Response, error) {
	var resp Response
	err := json.Unmarshal(out, &resp)
	switch {
	case resp.Protocol == 0:
		if err == nil {
			err = errors.New("no protocol version in it")
		}
		return nil, exitcode.With(exitcode.Failure, fmt.Errorf("%w: %s answered what devenv cannot read (%w); %s", ErrHelper, where, err, installHint))
	case resp.Protocol != Protocol:
		return nil, exitcode.With(exitcode.Failure, fmt.Errorf("%w: %s speaks protocol %d and this devenv %d, so they come from different builds; %s",
			ErrHelper, where, resp.Protocol, Protocol, installHint))
	case err != nil:
		return nil, exitcode.With(exitcode.Failure, fmt.Errorf("%w: %s answered what devenv cannot read (%w); %s", ErrHelper, where, err, installHint))
	}
	return &resp, nil
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
