package engine

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/client"
)

// gpuRefusal is the part of the daemon's answer to a GPU device request it
// has no driver for.
const gpuRefusal = "could not select device driver"

// gpuDeviceRefusals are the NVIDIA runtime's answers (CDI mode, then the
// legacy nvidia-container-cli) to a device request naming a GPU the host
// does not have.
var gpuDeviceRefusals = []string{"unresolvable CDI devices", "nvidia-container-cli: device error"}

// wrap turns an error of the Docker client into an *Error carrying the
// matching sentinel. host is the engine address, for unreachable engines.
// Context cancellation is returned as is so callers can tell an interrupt.
func wrap(op, host string, err error) error {
	if err == nil {
		return nil
	}
	if isStalled(err) {
		return &Error{Op: op, Err: err, Kind: ErrUnreachable, Hint: hintStalled, Where: host}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	e := &Error{Op: op, Err: err}
	switch {
	case isUnreachable(err):
		e.Kind, e.Hint, e.Where = ErrUnreachable, hintUnreachable, host
	case strings.Contains(err.Error(), gpuRefusal):
		e.Kind, e.Hint = ErrNoGPURuntime, hintNoGPURuntime
	case containsAny(err.Error(), gpuDeviceRefusals):
		e.Kind, e.Hint = ErrNoGPURuntime, hintNoSuchGPU
	case strings.Contains(err.Error(), "is ambiguous"):
		e.Kind = ErrAmbiguous // "network p is ambiguous (2 matches found based on name)"
	case cerrdefs.IsNotFound(err):
		e.Kind = ErrNotFound
	case cerrdefs.IsConflict(err) || cerrdefs.IsAlreadyExists(err):
		e.Kind = ErrConflict
	}
	return e
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// isStalled tells an engine that took a request and stopped answering
// (AnswerTimeout passed) from other failures. net/http's error for it also
// matches context.DeadlineExceeded, so it is told apart from a caller's
// deadline by its text, which net/http has kept since Go 1.1.
func isStalled(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() && strings.Contains(err.Error(), "timeout awaiting response headers")
}

// isUnreachable tells failures to reach the engine, including an engine
// that goes away during a call, from the engine's own refusals.
func isUnreachable(err error) bool {
	if client.IsErrConnectionFailed(err) || cerrdefs.IsUnavailable(err) {
		return true
	}

	for _, target := range []error{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.EPIPE, syscall.ENOENT, io.ErrUnexpectedEOF, net.ErrClosed} {
		if errors.Is(err, target) {
			return true
		}
	}
	// The connection closed before an answer (the engine went away with
	// the request sent); errors of other clients (the Compose SDK's) may
	// carry only the Docker client's text for a failed transport.
	var ue *url.Error
	if errors.As(err, &ue) && errors.Is(ue.Err, io.EOF) {
		return true
	}
	return strings.Contains(err.Error(), "error during connect: ")
}

// Classify is wrap for errors of other clients of the engine (the Compose
// SDK's): the same sentinels, hints and exit codes as devenv's own calls.
func Classify(op, host string, err error) error { return wrap(op, host, err) }
