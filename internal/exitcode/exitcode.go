// Package exitcode names devenv's documented exit codes and lets any
// package mark an error with the code the process should end with.
package exitcode

import (
	"errors"
	"fmt"
)

// The exit codes, documented in the README.
const (
	OK          = 0
	Failure     = 1   // any other error
	Usage       = 2   // bad command line or invalid devenv.yaml
	Engine      = 3   // the Docker engine is unreachable
	GPU         = 4   // no compatible GPU, driver or GPU runtime
	Drift       = 5   // the lock or the environment drifted (--frozen, lock --check, diff)
	Interrupted = 130 // Ctrl-C
)

// Error carries an exit code with its cause.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// With marks err with code; nil stays nil.
func With(code int, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Code: code, Err: err}
}

// Newf is With(code, fmt.Errorf(...)).
func Newf(code int, format string, args ...any) error {
	return &Error{Code: code, Err: fmt.Errorf(format, args...)}
}

// Of returns the code err was marked with, or -1 when it carries none.
func Of(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return -1
}
