package remote

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/endpoint"
)

func TestTunnelNeedsSSH(t *testing.T) {
	ep := &endpoint.Endpoint{Host: "tcp://10.0.0.5:2376", Kind: endpoint.TCP}
	if _, err := OpenTunnel(t.Context(), ep, []Forward{{Remote: 8080}}, true); !errors.Is(err, ErrNotSSH) {
		t.Fatalf("a tcp engine: %v, want ErrNotSSH", err)
	}
}

// TestTunnelReportsSSHsWords: an ssh that cannot forward ends the wait at
// once with what ssh said, and the arguments name the target and the port.
func TestTunnelReportsSSHsWords(t *testing.T) {
	bin := t.TempDir()
	args := filepath.Join(bin, "args")
	script := "#!/bin/sh\necho \"$@\" > " + args + "\necho 'Warning: remote port forwarding failed for listen port 8080' >&2\nexit 255\n"
	if err := os.WriteFile(filepath.Join(bin, "ssh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("DEVENV_SSH_MUX", "0")
	ep := &endpoint.Endpoint{Host: "ssh://me@gpubox:2222", Kind: endpoint.SSH, SSH: &endpoint.SSHTarget{User: "me", Host: "gpubox", Port: "2222"}}
	_, err := OpenTunnel(t.Context(), ep, []Forward{{Service: "web", ContainerPort: 80, Remote: 8080}}, false)
	if err == nil || !strings.Contains(err.Error(), "remote port forwarding failed") {
		t.Fatalf("error %v, want ssh's words", err)
	}
	b, _ := os.ReadFile(args)
	if got := string(b); !strings.Contains(got, "-p 2222") || !strings.Contains(got, ":127.0.0.1:8080") || !strings.Contains(got, "-l me") || !strings.HasSuffix(strings.TrimSpace(got), "-- gpubox") ||
		!strings.Contains(got, "ExitOnForwardFailure=yes") {
		t.Errorf("ssh ran with %q", got)
	}
}
