package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
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
		{name: "not found", err: cerrdefs.ErrNotFound.WithMessage("No such container: x"), want: ErrNotFound},
		{name: "conflict", err: cerrdefs.ErrConflict.WithMessage(`name "/x" is already in use`), want: ErrConflict},
		{name: "already exists", err: cerrdefs.ErrAlreadyExists, want: ErrConflict},
		{name: "engine went away", err: &net.OpError{Op: "read", Net: "unix", Err: os.NewSyscallError("read", syscall.ECONNRESET)},
			want: ErrUnreachable, wantText: []string{"unix:///test.sock", "DOCKER_HOST", "docker group"}},
		{name: "stream cut", err: io.ErrUnexpectedEOF, want: ErrUnreachable},
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
