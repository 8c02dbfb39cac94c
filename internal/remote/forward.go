package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"slices"
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

// Same is true when f and g forward the same port of the same service.
func (f Forward) Same(g Forward) bool {
	return f.Service == g.Service && f.ContainerPort == g.ContainerPort && f.Remote == g.Remote
}

func (f Forward) spec() string {
	return fmt.Sprintf("127.0.0.1:%d:127.0.0.1:%d", f.Local, f.Remote)
}

// Tunnel carries the forwards of one ssh engine. When the engine's ssh
// connections are shared (endpoint.SSHMux), the forwards live in that one
// SSH connection's master, added and cancelled with `ssh -O forward` and
// `ssh -O cancel`, and a keeper session (`ssh ... cat`) holds the master up
// while the tunnel is open; else each forward is an `ssh -N -L` of its own.
type Tunnel struct {
	ep       *endpoint.Endpoint
	mux      endpoint.SSHMux
	samePort bool

	mu       sync.Mutex
	forwards []Forward
	own      map[int]*sshProc // the -N -L process of each local port, when not shared
	keeper   *sshProc
	done     chan struct{}
	doneOnce sync.Once
	why      string
}

// ErrNotSSH is returned for an engine that is not reached over ssh.
var ErrNotSSH = errors.New("the engine is not reached over ssh")

// OpenTunnel forwards each of fwds' Remote ports (on the engine machine's
// loopback) to this machine's 127.0.0.1, keeping the port number when it is
// free here and samePort is set (DEVENV_FORWARD_SAME_PORT=0 clears it),
// over the SSH connection the engine's client uses (ssh from PATH, with the
// user's ssh config and agent, as docker's ssh helper uses). It returns once
// every local port answers, or fails with ssh's words. More forwards come
// and go with Add and Remove.
func OpenTunnel(ctx context.Context, ep *endpoint.Endpoint, fwds []Forward, samePort bool) (*Tunnel, error) {
	if ep == nil || ep.SSH == nil {
		return nil, ErrNotSSH
	}
	t := &Tunnel{ep: ep, mux: ep.SSHMux(), samePort: samePort, own: map[int]*sshProc{}, done: make(chan struct{})}
	if t.mux.Enabled() {
		if err := t.startKeeper(ctx); err != nil {
			return nil, err
		}
	}
	if _, err := t.Add(ctx, fwds); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// Shared says whether the forwards ride the engine's SSH connection.
func (t *Tunnel) Shared() bool { return t.mux.Enabled() }

// sshArgs are ssh's arguments to the engine: the sharing flags, -l/-p, the
// extra ones, then the destination.
func (t *Tunnel) sshArgs(extra ...string) []string {
	args := slices.Clone(t.mux.Flags)
	args = append(args, t.ep.SSH.Args()...)
	args = append(args, extra...)
	return append(args, "--", t.ep.SSH.Host)
}

// startKeeper starts the session that holds the shared master up (it
// becomes the master when none runs) and waits until the master answers.
func (t *Tunnel) startKeeper(ctx context.Context) error {
	args := t.sshArgs("-T", "-o", "ServerAliveInterval=15", "-o", "ConnectTimeout=30")
	k, err := startSSH(append(args, "cat"), true)
	if err != nil {
		return err
	}
	t.keeper = k
	go func() {
		<-k.done
		t.end("the ssh connection to the engine ended: " + k.why())
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if err := t.control(ctx, "check"); err == nil {
			return nil
		}
		select {
		case <-k.done:
			return fmt.Errorf("ssh to %s ended before its connection was up: %s", t.ep.SSH.Destination(), k.why())
		case <-ctx.Done():
			k.stop()
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			k.stop()
			return fmt.Errorf("ssh to %s was not up in 60 s: %s", t.ep.SSH.Destination(), k.why())
		}
	}
}

// control runs `ssh -O cmd [args]` against the shared master.
func (t *Tunnel) control(ctx context.Context, cmd string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ssh", t.sshArgs(append([]string{"-O", cmd}, args...)...)...).CombinedOutput()
	if err != nil {
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return errors.New(msg)
		}
		return err
	}
	return nil
}

// Add forwards more ports; it returns them with their local ports and URLs
// once each answers here. A forward's Local, when set, is the local port it
// asks for (that of the forward it replaces); else it asks for its Remote
// port when samePort is set.
func (t *Tunnel) Add(ctx context.Context, fwds []Forward) ([]Forward, error) {
	var added []Forward
	for _, f := range fwds {
		want := f.Local
		if want == 0 && t.samePort {
			want = f.Remote
		}
		local, err := freeLocal(want)
		if err != nil {
			return added, err
		}
		f.Local = local
		f.URL = "http://127.0.0.1:" + strconv.Itoa(local)
		if err := t.open(ctx, f); err != nil {
			return added, fmt.Errorf("forward port %d: %w", f.Remote, err)
		}
		t.mu.Lock()
		t.forwards = append(t.forwards, f)
		t.mu.Unlock()
		added = append(added, f)
	}
	return added, nil
}

// open starts one forward and waits until it answers.
func (t *Tunnel) open(ctx context.Context, f Forward) error {
	var own *sshProc
	if t.mux.Enabled() {
		if err := t.control(ctx, "forward", "-L", f.spec()); err != nil {
			return err
		}
	} else {
		p, err := startSSH(t.sshArgs("-N", "-o", "ExitOnForwardFailure=yes", "-o", "ServerAliveInterval=15", "-o", "ConnectTimeout=30", "-L", f.spec()), false)
		if err != nil {
			return err
		}
		own = p
		t.mu.Lock()
		t.own[f.Local] = p
		t.mu.Unlock()
		go func() {
			<-p.done
			t.mu.Lock()
			mine := t.own[f.Local] == p
			t.mu.Unlock()
			if mine {
				t.end("the ssh forward ended: " + p.why())
			}
		}()
	}
	if err := waitPort(ctx, f.Local, own, t.done); err != nil {
		t.closeOne(ctx, f)
		return err
	}
	return nil
}

// Remove ends the forwards of fwds (matched with Same).
func (t *Tunnel) Remove(ctx context.Context, fwds []Forward) []Forward {
	var gone []Forward
	t.mu.Lock()
	keep := t.forwards[:0]
	for _, f := range t.forwards {
		if slices.ContainsFunc(fwds, f.Same) {
			gone = append(gone, f)
		} else {
			keep = append(keep, f)
		}
	}
	t.forwards = keep
	t.mu.Unlock()
	for _, f := range gone {
		t.closeOne(ctx, f)
	}
	return gone
}

// closeOne cancels one forward in the master, or ends its own ssh.
func (t *Tunnel) closeOne(ctx context.Context, f Forward) {
	if t.mux.Enabled() {
		_ = t.control(context.WithoutCancel(ctx), "cancel", "-L", f.spec())
		return
	}
	t.mu.Lock()
	p := t.own[f.Local]
	delete(t.own, f.Local)
	t.mu.Unlock()
	if p != nil {
		p.stop()
	}
}

// Forwards are the forwards open now.
func (t *Tunnel) Forwards() []Forward {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.forwards)
}

// end marks the tunnel broken, once.
func (t *Tunnel) end(why string) {
	t.doneOnce.Do(func() {
		t.mu.Lock()
		t.why = why
		t.mu.Unlock()
		close(t.done)
	})
}

// Done is closed when the ssh connection carrying the forwards ends.
func (t *Tunnel) Done() <-chan struct{} { return t.done }

// Err is why the tunnel ended.
func (t *Tunnel) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.why == "" {
		return errors.New("the ssh forward ended")
	}
	return errors.New(strings.TrimSuffix(t.why, ": "))
}

// Close ends every forward, then the keeper (only the processes this tunnel
// started; a master the user or the engine's client runs stays up).
func (t *Tunnel) Close() {
	t.Remove(context.Background(), t.Forwards())
	t.mu.Lock()
	k := t.keeper
	t.keeper = nil
	t.mu.Unlock()
	t.doneOnce.Do(func() { close(t.done) })
	if k != nil {
		k.stop()
	}
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

// waitPort waits until 127.0.0.1:port accepts, own (the forward's own ssh,
// or nil) or the tunnel ends, or 60 s pass.
func waitPort(ctx context.Context, port int, own *sshProc, tunnel <-chan struct{}) error {
	var ownDone <-chan struct{}
	if own != nil {
		ownDone = own.done
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second)
		if err == nil {
			_ = c.Close()
			return nil
		}
		select {
		case <-ownDone:
			return fmt.Errorf("ssh ended before forwarding: %s", own.why())
		case <-tunnel:
			// The forward's own ssh ending also ends the tunnel (and
			// closes its done first): then say what ssh said.
			if own != nil {
				select {
				case <-own.done:
					return fmt.Errorf("ssh ended before forwarding: %s", own.why())
				default:
				}
			}
			return errors.New("the ssh connection ended before forwarding")
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return errors.New("not forwarded in 60 s")
		}
	}
}

// sshProc is one ssh process this package started.
type sshProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	done   chan struct{}
	mu     sync.Mutex
	err    error
	stderr bytes.Buffer
}

// startSSH starts ssh with args; withStdin keeps a pipe to its stdin open
// (the keeper's remote `cat` ends when it closes).
func startSSH(args []string, withStdin bool) (*sshProc, error) {
	p := &sshProc{cmd: exec.Command("ssh", args...), done: make(chan struct{})}
	p.cmd.Stderr = &lockedWriter{mu: &p.mu, w: &p.stderr}
	if withStdin {
		w, err := p.cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		p.stdin = w
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start ssh: %w", err)
	}
	go func() {
		err := p.cmd.Wait()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.done)
	}()
	return p, nil
}

func (p *sshProc) why() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	msg := strings.TrimSpace(p.stderr.String())
	if msg == "" && p.err != nil {
		msg = p.err.Error()
	}
	return msg
}

// stop ends the process (its stdin first, then a kill) and waits for it.
func (p *sshProc) stop() {
	if p.stdin != nil {
		_ = p.stdin.Close()
	}
	select {
	case <-p.done:
		return
	case <-time.After(2 * time.Second):
	}
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
	}
	<-p.done
}

// lockedWriter appends to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if buf, ok := l.w.(*bytes.Buffer); ok && buf.Len() > 64<<10 {
		return len(b), nil
	}
	return l.w.Write(b)
}
