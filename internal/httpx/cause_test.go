package httpx

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want NetFailure
	}{
		{"nil", nil, NetNone},
		{"other", errors.New("unexpected EOF"), NetNone},
		{"dns", &net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "nvcr.io", IsNotFound: true}}, NetDNS},
		{"dns timeout", &net.DNSError{Err: "i/o timeout", Name: "nvcr.io", IsTimeout: true}, NetTimeout},
		{"refused, wrapped", fmt.Errorf("get: %w", &net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}), NetRefused},
		{"deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), NetTimeout},
		{"stall", &StallError{Host: "h"}, NetTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Classify(tt.err); got != tt.want {
				t.Errorf("Classify = %d, want %d", got, tt.want)
			}
		})
	}
}
