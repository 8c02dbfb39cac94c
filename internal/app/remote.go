package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/jobs"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/remote"
)

// portFree is how up and start learn whether a host port is free: on this
// machine by binding it; on a remote engine only the engine's containers
// are known (a program of that machine holding the port shows when the
// engine refuses it), since this machine's ports are not the engine's.
func (p *Project) portFree() func(ip string, port int) bool {
	if p.RemoteEngine() {
		return func(string, int) bool { return true }
	}
	return p.opts.LocalHost().PortFree
}

// portOwner names the program of this machine holding a port; nil on a
// remote engine, whose machine's programs are not this one's.
func (p *Project) portOwner() func(port int) string {
	if p.RemoteEngine() {
		return nil
	}
	return p.opts.LocalHost().PortOwner
}

// WatchOptions steer Watch.
type WatchOptions struct {
	Interval time.Duration // between scans of the project; 0: 500 ms
	NoSync   bool          // only forward ports
	NoPorts  bool          // only sync
	// Synced is told each sync that changed something (the first included).
	Synced func(remote.Change)
	// Forwarded is told the ports once they answer on this machine (the
	// first ones, then those of services started later).
	Forwarded func([]remote.Forward)
	// Unforwarded is told the ports no running container publishes any more.
	Unforwarded func([]remote.Forward)
	// PortsInterval is between re-reads of the published ports; 0: 2 s.
	PortsInterval time.Duration
	// Watching is told once the watch has begun (the engine is remote and
	// the project's containers run).
	Watching func()
	// Restarted is told the services restarted after the first sync.
	Restarted func([]string)
	// DevelopRebuilt is told each rebuild after a change under a compose
	// service's develop.watch rebuild rule (Compose's Watch shows its own
	// syncs, restarts and commands through the UI).
	DevelopRebuilt func(DevelopRebuild)
	// NoJobRestart leaves running jobs alone when a file they use changes.
	NoJobRestart bool
	// JobRestarted is told each running job cancelled and submitted again
	// because a synced change touched a file it uses (file).
	JobRestarted func(old, again jobs.Job, file string)
}

// WatchResult is what watch did before it ended.
type WatchResult struct {
	Engine   string           `json:"engine"`
	Local    bool             `json:"local"`
	Syncs    int              `json:"syncs"`
	Forwards []remote.Forward `json:"forwards,omitempty"`
}

// Watch applies the compose services' develop.watch rules with Compose's
// Watch until ctx ends and, on a remote engine, keeps the project usable
// from here: the project directory synced into the workspace volume (all
// of it by content hash first, then each change; on the first sync into
// an empty volume the services using it restart so they start with the
// files), and, for an ssh engine, the services' published ports forwarded
// to this machine's 127.0.0.1. On a local engine /workspace is the
// directory itself and its ports are here: with no develop.watch rules
// Watch says so and returns.
func (p *Project) Watch(ctx context.Context, o WatchOptions) (*WatchResult, error) {
	eng, err := p.Engine(ctx)
	if err != nil {
		return nil, err
	}
	ep := engine.EndpointOf(eng)
	res := &WatchResult{Engine: ep.String(), Local: ep.Local}
	if o.Interval == 0 {
		o.Interval = 500 * time.Millisecond
	}
	running, err := p.runningContainers(ctx)
	if err != nil {
		return res, err
	}
	if ep.Local {
		return res, p.watchLocal(ctx, ep, running, o)
	}
	if len(running) == 0 {
		return res, fmt.Errorf("no container of %s runs on %s: run `devenv up` first (or `devenv up --watch`)", p.Spec.Name, ep)
	}
	if o.Watching != nil {
		o.Watching()
	}
	var tunnel *remote.Tunnel
	if !o.NoPorts && ep.SSH != nil {
		if tunnel, err = p.forward(ctx, running, o); err != nil {
			return res, err
		}
		stop := p.followPorts(ctx, tunnel, o)
		defer func() {
			stop()
			res.Forwards = tunnel.Forwards()
			tunnel.Close()
		}()
	}
	if o.NoSync {
		if tunnel == nil {
			return res, nil
		}
		select {
		case <-ctx.Done():
			return res, nil
		case <-tunnel.Done():
			return res, tunnel.Err()
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	dev, err := p.startDevelop(ctx, running, o)
	if err != nil {
		return res, err
	}
	defer func() { cancel(); _ = dev.wait() }()
	if dev != nil {
		// a develop.watch that cannot go on ends the watch, as Compose's does
		go func() {
			if dev.wait() != nil {
				cancel()
			}
		}()
	}
	err = p.syncLoop(ctx, running, tunnel, o, res)
	if _, none := errors.AsType[noWorkspaceError](err); none && dev != nil {
		// only compose services with develop.watch: Compose syncs their rules
		err = waitDevelop(ctx, tunnel, dev)
	}
	cancel()
	if derr := dev.wait(); derr != nil {
		return res, derr
	}
	return res, err
}

// watchLocal applies the develop.watch rules on an engine of this machine
// until ctx ends; there is nothing else to do here.
func (p *Project) watchLocal(ctx context.Context, ep *endpoint.Endpoint, running []engine.Object, o WatchOptions) error {
	nothing := func() error {
		p.out.Say("the engine at %s runs on this machine: /workspace is the project directory and the ports are here; nothing to sync or forward", ep)
		return nil
	}
	if o.NoSync {
		return nothing()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	dev, err := p.startDevelop(ctx, running, o)
	if err != nil {
		return err
	}
	if dev == nil {
		return nothing()
	}
	p.out.Say("the engine at %s runs on this machine: /workspace is the project directory and the ports are here; applying the develop.watch rules of %s", ep, dev)
	if o.Watching != nil {
		o.Watching()
	}
	return dev.wait()
}

// waitDevelop waits until ctx ends (nil), the tunnel drops or the
// develop.watch ends early (their error).
func waitDevelop(ctx context.Context, t *remote.Tunnel, dev *develop) error {
	var dropped <-chan struct{}
	if t != nil {
		dropped = t.Done()
	}
	select {
	case <-ctx.Done():
		return nil
	case <-dropped:
		return t.Err()
	case <-dev.ended():
		return dev.wait()
	}
}

// noWorkspaceError: no running container mounts the workspace volume.
type noWorkspaceError struct{ msg string }

func (e noWorkspaceError) Error() string { return e.msg }

// runningContainers are the project's running containers, by service name.
func (p *Project) runningContainers(ctx context.Context) ([]engine.Object, error) {
	objs, err := p.eng.List(ctx, engine.Containers, map[string]string{labels.Project: p.Spec.Name})
	if err != nil {
		return nil, err
	}
	var out []engine.Object
	for _, o := range objs {
		if o.State == "running" {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// publishedForwards are the tcp ports the running containers publish.
func publishedForwards(running []engine.Object) []remote.Forward {
	var fwds []remote.Forward
	for _, c := range running {
		for _, b := range c.Ports {
			if b.HostPort > 0 && (b.Protocol == "" || b.Protocol == "tcp") {
				fwds = append(fwds, remote.Forward{Service: c.Labels[labels.Service], ContainerPort: b.ContainerPort, Remote: b.HostPort})
			}
		}
	}
	return fwds
}

// forward opens the tunnel, over the engine's SSH connection, with every
// published port of the running containers.
func (p *Project) forward(ctx context.Context, running []engine.Object, o WatchOptions) (*remote.Tunnel, error) {
	fwds := publishedForwards(running)
	ep := engine.EndpointOf(p.eng)
	t, err := remote.OpenTunnel(ctx, ep, fwds, !slices.Contains([]string{"0", "false"}, os.Getenv("DEVENV_FORWARD_SAME_PORT")))
	if err != nil {
		return nil, fmt.Errorf("forward the ports of %s from %s: %w", p.Spec.Name, ep, err)
	}
	if len(fwds) == 0 {
		p.out.Say("no service publishes a port yet: forwarding them as they start")
	} else if o.Forwarded != nil {
		o.Forwarded(t.Forwards())
	}
	return t, nil
}

// portTunnel is what following the ports needs of a tunnel.
type portTunnel interface {
	Forwards() []remote.Forward
	Add(context.Context, []remote.Forward) ([]remote.Forward, error)
	Remove(context.Context, []remote.Forward) []remote.Forward
}

// followPorts re-reads the running containers' published ports every
// o.PortsInterval, so services started (or restarted on another port)
// after the watch began are forwarded and stopped ones are not; the
// returned func stops it and waits.
func (p *Project) followPorts(ctx context.Context, t portTunnel, o WatchOptions) func() {
	every := o.PortsInterval
	if every <= 0 {
		every = 2 * time.Second
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		st := newFollowState()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			running, err := p.runningContainers(ctx)
			if err != nil {
				if ctx.Err() == nil && !st.warned[err.Error()] {
					st.warned[err.Error()] = true
					p.out.Warn("re-read the services' ports: %v", err)
				}
				continue
			}
			p.matchForwards(ctx, t, publishedForwards(running), o, st)
		}
	}()
	return func() { cancel(); <-done }
}

// followState is what following the ports keeps from one read to the
// next: the failures already warned, and the local port each service's
// container port was last forwarded on.
type followState struct {
	warned map[string]bool
	local  map[string]int // "service:container port": local port
}

func newFollowState() *followState {
	return &followState{warned: map[string]bool{}, local: map[string]int{}}
}

func forwardKey(f remote.Forward) string { return fmt.Sprintf("%s:%d", f.Service, f.ContainerPort) }

// matchForwards makes t's forwards those of want: new ports added, ports
// no container publishes removed (a failure is warned once). A port that
// moved on the engine's machine (a restart gives a published port without
// a host port another one) keeps its local port, so the URL the user holds
// goes on answering; so does one that comes back after a read that did not
// see it (a restart between two reads), when that local port is still free.
func (p *Project) matchForwards(ctx context.Context, t portTunnel, want []remote.Forward, o WatchOptions, st *followState) {
	have := t.Forwards()
	var gone, add []remote.Forward
	for _, h := range have {
		st.local[forwardKey(h)] = h.Local
		if !slices.ContainsFunc(want, h.Same) {
			gone = append(gone, h)
		}
	}
	for _, w := range want {
		if !slices.ContainsFunc(have, w.Same) {
			add = append(add, w)
		}
	}
	moved := keepLocalPorts(add, gone)
	for i, a := range add {
		if a.Local == 0 {
			add[i].Local = st.local[forwardKey(a)]
		}
	}
	if len(gone) > 0 {
		removed := t.Remove(ctx, gone)
		removed = slices.DeleteFunc(removed, func(f remote.Forward) bool { return moved[f.Local] })
		if len(removed) > 0 && o.Unforwarded != nil {
			o.Unforwarded(removed)
		}
	}
	for _, f := range add {
		added, err := t.Add(ctx, []remote.Forward{f})
		if len(added) > 0 && o.Forwarded != nil {
			o.Forwarded(added)
		}
		for _, a := range added {
			st.local[forwardKey(a)] = a.Local
		}
		if key := fmt.Sprintf("%s:%d:%d", f.Service, f.ContainerPort, f.Remote); err != nil && ctx.Err() == nil && !st.warned[key] {
			st.warned[key] = true
			p.out.Warn("forward %s's port %d (the engine's 127.0.0.1:%d): %v", f.Service, f.ContainerPort, f.Remote, err)
		}
	}
}

// keepLocalPorts gives each forward of add that replaces one of gone (the
// same service and container port, another port on the engine's machine)
// the local port of the one it replaces; it returns those local ports.
func keepLocalPorts(add, gone []remote.Forward) map[int]bool {
	moved := map[int]bool{}
	for i, a := range add {
		for _, g := range gone {
			if g.Service == a.Service && g.ContainerPort == a.ContainerPort && !moved[g.Local] {
				add[i].Local = g.Local
				moved[g.Local] = true
				break
			}
		}
	}
	return moved
}

// syncLoop syncs into the first running container with the workspace
// volume at /workspace, then keeps syncing until ctx ends or the tunnel
// drops.
func (p *Project) syncLoop(ctx context.Context, running []engine.Object, tunnel *remote.Tunnel, o WatchOptions, res *WatchResult) error {
	target, users, err := p.workspaceUsers(ctx, running)
	if err != nil {
		return err
	}
	s, err := remote.NewSyncer(ctx, p.eng, p.Spec.Dir, target)
	if err != nil {
		return err
	}
	first, err := s.Sync(ctx)
	if err != nil {
		return err
	}
	res.Syncs++
	if o.Synced != nil {
		o.Synced(first)
	}
	if s.First && len(users) > 0 {
		if _, err := p.Restart(ctx, ServiceOptions{Services: users}); err != nil {
			return err
		}
		if o.Restarted != nil {
			o.Restarted(users)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	dropped := make(chan error, 1)
	if tunnel != nil {
		go func() {
			select {
			case <-tunnel.Done():
				dropped <- tunnel.Err()
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	err = s.Watch(ctx, o.Interval, func(ch remote.Change) error {
		res.Syncs++
		if o.Synced != nil {
			o.Synced(ch)
		}
		p.restartTouchedJobs(ch, o, p.startRunner)
		return nil
	})
	if err == nil {
		select {
		case err = <-dropped:
		default:
		}
	}
	return err
}

// restartTouchedJobs cancels each running job (not already being
// cancelled) that uses a file ch sent or removed, and submits it again
// with the same service and command: a Spark driver reads its job file and
// modules once, so a changed file means running the job again. Failures
// are warnings; the watch goes on. startRunner starts a runner for the
// queue (one already running takes the new jobs too).
func (p *Project) restartTouchedJobs(ch remote.Change, o WatchOptions, startRunner func(*jobs.Store) error) {
	changed := append(slices.Clone(ch.Sent), ch.Deleted...)
	if o.NoJobRestart || len(changed) == 0 {
		return
	}
	store, err := p.Jobs()
	if err != nil {
		p.out.Warn("read the job queue to restart jobs using changed files: %v", err)
		return
	}
	list, err := store.List()
	if err != nil {
		p.out.Warn("read the job queue to restart jobs using changed files: %v", err)
		return
	}
	restarted := false
	for _, j := range list {
		if j.State != jobs.Running || j.CancelRequested {
			continue
		}
		file, ok := remote.JobTouched(j.Command, changed)
		if !ok {
			continue
		}
		if _, err := store.Cancel(j.ID); err != nil {
			p.out.Warn("job %s uses %s, which changed, but could not be cancelled: %v", j.ID, file, err)
			continue
		}
		again, err := store.Submit(jobs.Job{Service: j.Service, Command: j.Command, SparkUI: j.SparkUI})
		if err != nil {
			p.out.Warn("job %s uses %s, which changed: cancelled, but not submitted again: %v", j.ID, file, err)
			continue
		}
		restarted = true
		if o.JobRestarted != nil {
			o.JobRestarted(j, again, file)
		}
	}
	if restarted {
		if err := startRunner(store); err != nil {
			p.out.Warn("the restarted jobs are queued, but no runner could be started (%v): run devenv jobs run", err)
		}
	}
}

// workspaceUsers is a running container with the workspace volume (the
// sync target) and the devenv services whose containers mount it.
func (p *Project) workspaceUsers(ctx context.Context, running []engine.Object) (string, []string, error) {
	vol := plan.WorkspaceVolume(p.Spec.Name)
	target := ""
	var users []string
	for _, c := range running {
		st, err := p.eng.Inspect(ctx, c.ID)
		if err != nil {
			return "", nil, err
		}
		if !slices.ContainsFunc(st.Mounts, func(m engine.Mount) bool {
			return m.Type == engine.MountVolume && m.Source == vol && path.Clean(m.Target) == remote.Workspace
		}) {
			continue
		}
		if target == "" {
			target = c.ID
		}
		if svc := c.Labels[labels.Service]; svc != "" && p.Spec.Service(svc) != nil && !slices.Contains(users, svc) {
			users = append(users, svc)
		}
	}
	if target == "" {
		return "", nil, noWorkspaceError{fmt.Sprintf("no running container of %s mounts the volume %s at %s: run `devenv up` against this engine first", p.Spec.Name, vol, remote.Workspace)}
	}
	return target, users, nil
}

// CopyOut copies SERVICE:PATH out of the service's container into dest on
// this machine (devenv cp).
func (p *Project) CopyOut(ctx context.Context, service, src, dest string) (remote.Copied, error) {
	eng, id, err := p.cpContainer(ctx, service)
	if err != nil {
		return remote.Copied{}, err
	}
	res, err := remote.CopyOut(ctx, eng, id, inWorkspace(src), dest)
	return res, NotRunning(err, service)
}

// CopyIn copies src, a file or folder here, into service's container at
// dest (relative: under /workspace), as `docker cp SRC CONTAINER:DEST`
// does, the files owned by the container's user.
func (p *Project) CopyIn(ctx context.Context, src, service, dest string) (remote.Copied, error) {
	eng, id, err := p.cpContainer(ctx, service)
	if err != nil {
		return remote.Copied{}, err
	}
	arch, err := engine.ArchiverOf(eng)
	if err != nil {
		return remote.Copied{}, err
	}
	uid, gid, err := arch.Owner(ctx, id)
	if err != nil {
		return remote.Copied{}, NotRunning(err, service)
	}
	res, err := remote.CopyIn(ctx, eng, id, src, inWorkspace(dest), uid, gid)
	return res, NotRunning(err, service)
}

// cpContainer is the engine and the container of service (devenv.yaml's
// or a compose file's) that cp copies from or into.
func (p *Project) cpContainer(ctx context.Context, service string) (engine.Engine, string, error) {
	if err := p.CheckServices([]string{service}); err != nil {
		return nil, "", err
	}
	eng, err := p.Engine(ctx)
	if err != nil {
		return nil, "", err
	}
	return eng, p.containerOf(ctx, eng, service), nil
}

// inWorkspace is a container path as cp takes it: relative ones are
// under /workspace, where the project is, written as given (a trailing /
// or /. keeps its meaning for docker cp's rules).
func inWorkspace(p string) string {
	if path.IsAbs(p) {
		return p
	}
	return strings.TrimSuffix(remote.Workspace, "/") + "/" + strings.TrimPrefix(p, "./")
}

func (p *Project) serviceNames() []string {
	var out []string
	for _, s := range p.Spec.Services {
		out = append(out, s.Name)
	}
	return out
}

// recreateLostGPUs removes the project's running GPU containers whose logs
// say they lost their GPUs ("Failed to initialize NVML: Unknown Error",
// after a daemon-reload on the engine's host), so up creates them again
// with their devices; only services in scope (all when none is named).
func (p *Project) recreateLostGPUs(ctx context.Context, services []string) error {
	lost, err := p.lostGPUs(ctx, services)
	if err != nil {
		return err
	}
	for _, o := range lost {
		p.out.Warn("%s lost its GPUs (\"Failed to initialize NVML: Unknown Error\" in its log, as after a daemon-reload on the engine's host): recreating its container", o.Labels[labels.Service])
		if err := p.eng.Remove(ctx, engine.Containers, o.ID, false); err != nil {
			return err
		}
	}
	return nil
}

// lostGPUs are the running GPU containers of services (all when empty)
// whose log says they lost their GPUs: those up removes and creates again.
func (p *Project) lostGPUs(ctx context.Context, services []string) ([]engine.Object, error) {
	objs, err := p.eng.List(ctx, engine.Containers, map[string]string{labels.Project: p.Spec.Name, labels.GPUs: ""})
	if err != nil {
		return nil, err
	}
	var out []engine.Object
	for _, o := range objs {
		svc := o.Labels[labels.Service]
		if o.State != "running" || o.Labels[labels.GPUs] == "" || (len(services) > 0 && !slices.Contains(services, svc)) {
			continue
		}
		var logs bytes.Buffer
		w := &limitWriter{w: &logs, left: 1 << 20}
		if err := p.eng.Logs(ctx, o.ID, engine.LogOptions{Tail: "200"}, w, w); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(doctor.Diagnose(logs.String()), func(f doctor.Finding) bool { return f.ID == doctor.SignatureNVMLLost }) {
			out = append(out, o)
		}
	}
	return out, nil
}

// limitWriter keeps at most left bytes and drops the rest.
type limitWriter struct {
	w    io.Writer
	left int
}

func (l *limitWriter) Write(b []byte) (int, error) {
	n := len(b)
	if len(b) > l.left {
		b = b[:l.left]
	}
	l.left -= len(b)
	if len(b) > 0 {
		if _, err := l.w.Write(b); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// hasGPUService reports whether a service of proj (the plan rendered)
// asks the engine for GPUs (only then can one have lost them).
func hasGPUService(proj *types.Project) bool {
	for _, s := range proj.Services {
		if compose.GPURequest(s) != nil {
			return true
		}
	}
	return false
}
