package engine

import "errors"

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
)
