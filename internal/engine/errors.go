package engine

import (
	"errors"
	"fmt"

	"github.com/devenv-dev/devenv/internal/endpoint"
)

// Sentinel errors. Errors returned by this package wrap one of them where it
// applies, so callers test with errors.Is and still print the full message.
var (
	// ErrUnreachable means the Docker Engine could not be reached, or went
	// away during the operation (exit code 3).
	ErrUnreachable = errors.New("docker engine unreachable")
	// ErrNoGPURuntime means the engine refused a GPU device request because
	// no GPU driver (NVIDIA Container Toolkit) is set up (exit code 4).
	ErrNoGPURuntime = errors.New("docker engine cannot provide GPUs")
	// ErrNotFound means the object named does not exist.
	ErrNotFound = errors.New("not found")
	// ErrConflict means the object exists already or is in use.
	ErrConflict = errors.New("conflict")
	// ErrAmbiguous means a name matches more than one object (engines
	// before API 1.44 allow two networks of one name).
	ErrAmbiguous = errors.New("ambiguous name")
)

// Error is an engine failure with the operation that failed, the sentinel
// it belongs to (if any) and what the user can do about it.
type Error struct {
	Op    string // what devenv was doing, e.g. `start container "p-spark"`
	Kind  error  // one of the sentinels above, or nil
	Err   error  // the engine's own error
	Hint  string // what to do, or ""
	Where string // the engine address tried, for ErrUnreachable
	// Endpoint is the engine tried, when it was resolved (ErrUnreachable).
	Endpoint *endpoint.Endpoint
}

// opFind is the operation of an engine that could not even be resolved (a
// context that does not exist, an address that is not one).
const opFind = "find the Docker Engine"

// NotThisMachine reports whether err is about an engine other than this
// machine's default socket: one that could not be resolved (a context named
// that does not exist) or a context or remote address that did not answer.
// Facts of this machine stand in for such an engine nowhere.
func NotThisMachine(err error) bool {
	var e *Error
	return RemoteEndpoint(err) != nil || (errors.As(err, &e) && e.Op == opFind)
}

// RemoteEndpoint is the endpoint an unreachable-engine error names when
// that engine is not this machine's default socket (a context, or an
// address elsewhere); nil otherwise.
func RemoteEndpoint(err error) *endpoint.Endpoint {
	var e *Error
	if !errors.As(err, &e) || e.Endpoint == nil || (e.Endpoint.Local && e.Endpoint.Context == endpoint.DefaultContext) {
		return nil
	}
	return e.Endpoint
}

// Error formats the failure as "op: cause (hint)".
func (e *Error) Error() string {
	msg := e.Op + ": " + e.Err.Error()
	if e.Where != "" {
		msg += " (engine address: " + e.Where + ")"
	}
	if e.Hint != "" {
		msg += "\n" + e.Hint
	}
	return msg
}

// Unwrap lets errors.Is and errors.As see both the sentinel and the cause.
func (e *Error) Unwrap() []error {
	if e.Kind == nil {
		return []error{e.Err}
	}
	return []error{e.Kind, e.Err}
}

// hintFor is what to do when the engine ep names does not answer: for a
// local socket, start Docker; for a context or a remote address, check that
// machine and the context.
func hintFor(ep *endpoint.Endpoint) string {
	if ep == nil || (ep.Local && ep.Context == endpoint.DefaultContext) {
		return hintUnreachable
	}
	where := "the engine at " + ep.Host
	if ep.Context != endpoint.DefaultContext {
		where = fmt.Sprintf("docker context %q (%s, chosen by %s)", ep.Context, ep.Host, ep.Source)
	}
	h := "devenv uses " + where + ". Check that its engine runs (`" + ep.DockerCommand() + " info`)"
	if ep.SSH != nil {
		h += ", that `" + ep.SSH.SSHCommand() + " docker version` works without a password prompt (an ssh-agent key or ~/.ssh/config)"
	}
	return h + "; choose another engine with --context, DOCKER_CONTEXT or `docker context use`."
}

// Hints attached to the sentinels.
const (
	hintUnreachable = "Start Docker (for example `sudo systemctl start docker`), or set DOCKER_HOST " +
		"to a running engine; if the socket is there but refuses you, add your user to the docker group " +
		"(`sudo usermod -aG docker $USER`, then log in again)."
	hintStalled = "The Docker Engine accepted the request but stopped answering: check `systemctl status docker` " +
		"and the engine's log; devenv waits DEVENV_ENGINE_TIMEOUT (default 2m) for an answer."
	hintNoGPURuntime = "The Docker Engine has no GPU driver. Install the NVIDIA Container Toolkit " +
		"(https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html), " +
		"run `sudo nvidia-ctk runtime configure --runtime=docker`, then restart Docker " +
		"(`sudo systemctl restart docker`). To run without GPUs, set `gpus: 0`."
	hintNoSuchGPU = "The engine's host has no such GPU. Run `devenv gpus` (or `nvidia-smi -L`) on that host " +
		"for its GPU indexes and UUIDs and fix `gpus:` in devenv.yaml, or write a count (`gpus: 1`) to let devenv choose."
)
