package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/view"
)

// report prints err for a person (with --json as one JSON line) and
// returns the exit code it maps to.
func report(err error, w io.Writer, debug, jsonOut bool) int {
	code := app.ExitCode(err)
	if err == nil || err.Error() == "" {
		return code // no message: the exit code says it (devenv exec)
	}
	if jsonOut {
		b, _ := json.Marshal(jsonError{Level: "error", Message: app.RedactURLs(view.ErrorText(err)), Exit: code})
		_, _ = w.Write(append(b, '\n')) // stderr gone: the exit code still says it
		return code
	}
	if debug {
		fmt.Fprintf(w, "devenv: %s\n", app.RedactURLs(fmt.Sprintf("%+v", err)))
		for e := errors.Unwrap(err); e != nil; e = errors.Unwrap(e) {
			fmt.Fprintf(w, "  caused by (%T): %s\n", e, app.RedactURLs(e.Error()))
		}
	} else {
		fmt.Fprintf(w, "devenv: %s\n", app.RedactURLs(view.ErrorText(err)))
	}
	return code
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
