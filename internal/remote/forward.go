package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/devenv-dev/devenv/internal/endpoint"
)

// Forward is one service port reachable on this machine.
type Forward struct {
	Service       string `json:"service"`
	ContainerPort int    `json:"container_port"`
	Remote        int    `json:"remote_port"` // the port on the engine's machine's 127.0.0.1
	Local         int    `json:"local_port"`  // the port on this machine's 127.0.0.1
	URL           string `json:"url"`
}

// Tunnel is one ssh process carrying every forward.
type Tunnel struct {
	Forwards []Forward
	cmd      *exec.Cmd
	done     chan struct{}
	mu       sync.Mutex
	err      error
	stderr   bytes.Buffer
}

// ErrNotSSH is returned for an engine that is not reached over ssh.
var ErrNotSSH = errors.New("the engine is not reached over ssh")

// OpenTunnel forwards each of fwds' Remote ports (on the engine machine's
// loopback) to this machine's 127.0.0.1, keeping the port number when it is
// free here and samePort is set (DEVENV_FORWARD_SAME_PORT=0 clears it), through one `ssh -N -L ...` to the engine's ssh target (ssh
// from PATH, with the user's ssh config and agent, as docker's ssh helper
// uses). It returns once every local port answers, or fails with ssh's
// words.
func OpenTunnel(ctx context.Context, ep *endpoint.Endpoint, fwds []Forward, samePort bool) (*Tunnel, error) {
	if ep == nil || ep.SSH == nil {
		return nil, ErrNotSSH
	}
	t := &Tunnel{done: make(chan struct{})}
	args := []string{"-N", "-o", "ExitOnForwardFailure=yes", "-o", "ServerAliveInterval=15", "-o", "ConnectTimeout=30"}
	if ep.SSH.Port != "" {
		args = append(args, "-p", ep.SSH.Port)
	}
	for _, f := range fwds {
		want := f.Remote
		if !samePort {
			want = 0
		}
		local, err := freeLocal(want)
		if err != nil {
			return nil, err
		}
		f.Local = local
		f.URL = "http://127.0.0.1:" + strconv.Itoa(local)
		t.Forwards = append(t.Forwards, f)
		args = append(args, "-L", fmt.Sprintf("127.0.0.1:%d:127.0.0.1:%d", local, f.Remote))
	}
	args = append(args, "--", ep.SSH.Destination())
	t.cmd = exec.Command("ssh", args...)
	t.cmd.Stderr = &t.stderr
	if err := t.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start ssh to forward ports: %w", err)
	}
	go func() {
		err := t.cmd.Wait()
		t.mu.Lock()
		t.err = err
		t.mu.Unlock()
		close(t.done)
	}()
	if err := t.waitReady(ctx); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// freeLocal is want when 127.0.0.1:want is free here, else (and for 0) a
// port the system picks.
func freeLocal(want int) (int, error) {
	if want > 0 {
		if l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(want)); err == nil {
			_ = l.Close()
			return want, nil
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitReady waits until every local port accepts, ssh exits, or 60 s pass.
func (t *Tunnel) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(60 * time.Second)
	for _, f := range t.Forwards {
		for {
			c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(f.Local), time.Second)
			if err == nil {
				_ = c.Close()
				break
			}
			select {
			case <-t.done:
				return fmt.Errorf("ssh ended before forwarding port %d: %s", f.Remote, t.why())
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("port %d was not forwarded in 60 s: %s", f.Remote, t.why())
			}
		}
	}
	return nil
}

func (t *Tunnel) why() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	msg := strings.TrimSpace(t.stderr.String())
	if msg == "" && t.err != nil {
		msg = t.err.Error()
	}
	return msg
}

// Done is closed when ssh ends.
func (t *Tunnel) Done() <-chan struct{} { return t.done }

// Err is why ssh ended.
func (t *Tunnel) Err() error {
	if w := t.why(); w != "" {
		return fmt.Errorf("the ssh forward ended: %s", w)
	}
	return errors.New("the ssh forward ended")
}

// Close ends the ssh process (only the one this tunnel started).
func (t *Tunnel) Close() {
	if t.cmd.Process != nil {
		_ = t.cmd.Process.Kill()
	}
	<-t.done
}
