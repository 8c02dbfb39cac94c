package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/hashicorp/go-multierror"
)

// report prints err for a person (with --json as one JSON line) and
// returns the exit code it maps to.
func report(err error, w io.Writer, debug, jsonOut bool) int {
	if err == nil {
		return exitcode.OK
	}
	code := codeOf(err)
	if err.Error() == "" {
		return code // the error's exit code is the message (devenv exec)
	}
	if jsonOut {
		b, _ := json.Marshal(jsonError{Level: "error", Message: message(err), Exit: code})
		_, _ = w.Write(append(b, '\n')) // stderr gone: the exit code still says it
		return code
	}
	if debug {
		fmt.Fprintf(w, "devenv: %+v\n", err)
		for e := errors.Unwrap(err); e != nil; e = errors.Unwrap(e) {
			fmt.Fprintf(w, "  caused by (%T): %v\n", e, e)
		}
	} else {
		fmt.Fprintf(w, "devenv: %s\n", message(err))
	}
	return code
}

// message is err's text, with lists of problems (go-multierror's, when
// their maker chose no format of its own) as one problem a line rather
// than the library's "N errors occurred" with tab-indented bullets.
func message(err error) string {
	var me *multierror.Error
	if !errors.As(err, &me) || me.ErrorFormat != nil || err != error(me) { //nolint:errorlint // identity: only a bare multierror is listed item by item
		return err.Error()
	}
	items := me.WrappedErrors()
	if len(items) == 1 {
		return message(items[0])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d problems:", len(items))
	for _, e := range items {
		b.WriteString("\n  - " + strings.ReplaceAll(message(e), "\n", "\n    "))
	}
	return b.String()
}

func codeOf(err error) int {
	var stale *lock.StaleError
	switch {
	case exitcode.Of(err) >= 0:
		return exitcode.Of(err)
	case errors.Is(err, context.Canceled):
		return exitcode.Interrupted
	case spec.IsInvalid(err):
		return exitcode.Usage
	case errors.Is(err, engine.ErrUnreachable):
		return exitcode.Engine
	case errors.Is(err, engine.ErrNoGPURuntime), errors.Is(err, gpu.ErrNoSuchGPU), errors.Is(err, gpu.ErrNoGPU):
		return exitcode.GPU
	case errors.As(err, &stale):
		return exitcode.Drift
	}
	return exitcode.Failure
}

// jsonError is how an error is reported under --json: one line on stderr.
type jsonError struct {
	Level   string `json:"level"`
	Message string `json:"message"`
	Exit    int    `json:"exit"`
}

// errSilent ends a command with an exit code and no message of its own:
// the output already said why.
var errSilent = errors.New("")
