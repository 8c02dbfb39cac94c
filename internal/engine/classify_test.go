package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"

	cerrdefs "github.com/containerd/errdefs"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		want     error // sentinel, or nil for none
		wantText []string
	}{
		{name: "gpu refusal", err: fmt.Errorf("Error response from daemon: %w",
			cerrdefs.ErrInvalidArgument.WithMessage(`could not select device driver "" with capabilities: [[gpu]]`)),
			want: ErrNoGPURuntime, wantText: []string{"nvidia-ctk runtime configure --runtime=docker", "restart Docker", "NVIDIA Container Toolkit"}},
		{name: "unknown GPU, CDI mode", err: errors.New(`Error response from daemon: failed to create shim: OCI runtime create failed: ` +
			`could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: ` +
			`unresolvable CDI devices nvidia.com/gpu=GPU-00000000-0000-0000-0000-000000000000: unknown`),
			want: ErrNoGPURuntime, wantText: []string{"unresolvable CDI devices nvidia.com/gpu=GPU-00000000", "no such GPU", "devenv gpus"}},
		{name: "unknown GPU, legacy hook", err: errors.New(`OCI runtime create failed: nvidia-container-cli: device error: GPU-0000: unknown device: unknown`),
			want: ErrNoGPURuntime, wantText: []string{"device error: GPU-0000", "no such GPU"}},
		{name: "not found", err: cerrdefs.ErrNotFound.WithMessage("No such container: x"), want: ErrNotFound},
		{name: "conflict", err: cerrdefs.ErrConflict.WithMessage(`name "/x" is already in use`), want: ErrConflict},
		{name: "already exists", err: cerrdefs.ErrAlreadyExists, want: ErrConflict},
		{name: "engine went away", err: &net.OpError{Op: "read", Net: "unix", Err: os.NewSyscallError("read", syscall.ECONNRESET)},
			want: ErrUnreachable, wantText: []string{"unix:///test.sock", "DOCKER_HOST", "docker group"}},
		{name: "stream cut", err: io.ErrUnexpectedEOF, want: ErrUnreachable},
		{name: "connection closed at container create", err: fmt.Errorf("error during connect: %w", &url.Error{Op: "Post", URL: "http://docker/v1.41/containers/create",
			Err: &net.OpError{Op: "write", Net: "unix", Err: net.ErrClosed}}), want: ErrUnreachable},
		{name: "connection closed before the answer", err: &url.Error{Op: "Post", URL: "http://docker/v1.41/containers/create", Err: io.EOF}, want: ErrUnreachable},
		{name: "the SDK's text of a closed connection", err: errors.New(`error during connect: Post "http://docker/v1.41/containers/create": EOF`), want: ErrUnreachable},
		{name: "engine stopped answering", err: stalled{}, want: ErrUnreachable,
			wantText: []string{"unix:///test.sock", "stopped answering", "DEVENV_ENGINE_TIMEOUT"}},
		{name: "socket refused", err: &net.OpError{Op: "dial", Net: "unix", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, want: ErrUnreachable},
		{name: "other", err: errors.New("boom"), want: nil, wantText: []string{"do thing: boom"}},
	}
	sentinels := []error{ErrUnreachable, ErrNoGPURuntime, ErrNotFound, ErrConflict}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wrap("do thing", "unix:///test.sock", tt.err)
			for _, s := range sentinels {
				if is := errors.Is(got, s); is != (s == tt.want) { //nolint:errorlint // comparing two sentinels, not a returned error
					t.Errorf("errors.Is(%v, %v) = %v", got, s, is)
				}
			}
			if !errors.Is(got, tt.err) {
				t.Errorf("the cause %v is not kept in %v", tt.err, got)
			}
			for _, w := range tt.wantText {
				if !strings.Contains(got.Error(), w) {
					t.Errorf("message %q lacks %q", got, w)
				}
			}
		})
	}
}

func TestWrapPassesThrough(t *testing.T) {
	if wrap("op", "h", nil) != nil {
		t.Error("wrap(nil) is not nil")
	}
	for _, err := range []error{context.Canceled, fmt.Errorf("x: %w", context.DeadlineExceeded)} {
		if got := wrap("op", "h", err); got != err { //nolint:errorlint // the test is that wrap returns this very error
			t.Errorf("wrap(%v) = %v, want it unchanged so callers see the interrupt", err, got)
		}
	}
}

// stalled is the error net/http gives when no response headers came in time.
type stalled struct{}

func (stalled) Error() string        { return "net/http: timeout awaiting response headers" }
func (stalled) Timeout() bool        { return true }
func (stalled) Temporary() bool      { return true }
func (stalled) Is(target error) bool { return target == context.DeadlineExceeded }
