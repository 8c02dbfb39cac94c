package compose

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/sirupsen/logrus"
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

// runHelper runs the helper with the request on stdin and returns its path
// and stdout. It inherits devenv's environment and working directory; the
// context's end kills it.
func runHelper(ctx context.Context, in []byte) (string, []byte, error) {
	path, err := helperPath()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.CommandContext(ctx, path)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return path, nil, fmt.Errorf("loading compose files: %w", ctx.Err())
		}
		return path, nil, exitcode.With(exitcode.Failure, fmt.Errorf("%w: %s: %w; %s%s", ErrHelper, path, err, installHint, stderrTail(stderr.Bytes())))
	}
	if stderr.Len() > 0 {
		// compose-go's own log lines, where they go in devenv's process
		_, _ = logrus.StandardLogger().Out.Write(stderr.Bytes())
	}
	return path, stdout.Bytes(), nil
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
