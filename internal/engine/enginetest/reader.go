package enginetest

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

var _ engine.ProjectReader = (*Fake)(nil)

// PsProject lists the project's containers as the Compose SDK's Ps (all
// of them, one-offs too) does: those with the project's Compose label and
// a config hash, each inspected once for its health (while it runs) and
// exit code (once it has exited); ports are those a running container
// publishes. Recorded as "PsProject" with the project's name.
func (f *Fake) PsProject(ctx context.Context, project string) ([]engine.ContainerState, error) {
	f.mu.Lock()
	err := f.record("PsProject", project)
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	var out []engine.ContainerState
	for _, c := range f.listedWith(map[string]string{labels.ComposeProject: project, labels.ComposeConfigHash: ""}) {
		st, err := f.Inspect(ctx, c.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, summary(c, st))
	}
	return out, nil
}

// summary is what Compose's ps reports of a listed container.
func summary(c engine.Object, st engine.ContainerState) engine.ContainerState {
	s := engine.ContainerState{ID: c.ID, Name: c.Name, Image: c.Image, Labels: c.Labels, Status: c.State, Ports: c.Ports}
	switch c.State {
	case "running":
		s.Running, s.Health = true, st.Health
	case "exited", "dead":
		s.ExitCode = st.ExitCode
	}
	return s
}

// LogsProject writes LogOutput of each service's containers (as Compose
// lists them: not one-off, with a config hash) to logs.Line, a line at a
// time, service after service; like the SDK it drops a last line without
// a newline. With Follow it then waits, as the SDK does while a listed
// container has not stopped, until ctx ends. Each container's read is
// recorded as "Logs".
func (f *Fake) LogsProject(ctx context.Context, logs engine.ProjectLogs) error {
	listed := 0
	for _, svc := range logs.Services {
		cs := f.listedWith(serviceLabels(logs.Project, svc, "False"))
		listed += len(cs)
		for _, c := range cs {
			var buf bytes.Buffer
			if err := f.Logs(ctx, c.ID, logs.LogOptions, &buf, &buf); err != nil {
				return fmt.Errorf("%s: %w", svc, err)
			}
			for _, line := range tail(buf.Bytes(), logs.Tail) {
				if bytes.HasSuffix(line, []byte("\n")) { // a last line without one: dropped, as the SDK does
					logs.Line(svc, line)
				}
			}
		}
	}
	if logs.Follow && listed > 0 {
		<-ctx.Done()
	}
	return nil
}

// tail is the last n of the log's entries (all for "all" or ""), a last
// line without a newline counting as one, as the engine keeps it.
func tail(log []byte, n string) [][]byte {
	lines := bytes.SplitAfter(log, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	if k, err := strconv.Atoi(n); err == nil && k >= 0 && k < len(lines) {
		lines = lines[len(lines)-k:]
	}
	return lines
}

// ExecProject runs the command, through Exec (so ExecFunc sees it), in
// the service's running container that Compose's exec picks: one of the
// project's Compose containers of that service, a one-off only when no
// other runs. None running is ErrNotFound. When ctx ends first, it
// returns ctx's error and leaves ExecFunc running, as the SDK leaves the
// command running in the container.
func (f *Fake) ExecProject(ctx context.Context, x engine.ProjectExec) (int, error) {
	var pick *engine.Object
	for _, c := range f.listedWith(serviceLabels(x.Project, x.Service, "")) {
		if c.State != "running" {
			continue
		}
		if pick == nil || (pick.Labels[labels.ComposeOneoff] == "True" && c.Labels[labels.ComposeOneoff] != "True") {
			pick = &c
		}
	}
	if pick == nil {
		return 0, fmt.Errorf("service %q is not running: %w", x.Service, engine.ErrNotFound)
	}
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		code, err := f.Exec(ctx, pick.ID, x.ExecOptions)
		done <- result{code, err}
	}()
	select {
	case r := <-done:
		return r.code, r.err
	case <-ctx.Done():
		return 0, fmt.Errorf("run %q in service %s: %w", x.Cmd, x.Service, ctx.Err())
	}
}

// serviceLabels select a service's containers as Compose does: its
// project and service labels and a config hash; oneoff "False" leaves
// one-off containers out, "" takes them too.
func serviceLabels(project, service, oneoff string) map[string]string {
	l := map[string]string{labels.ComposeProject: project, labels.ComposeService: service, labels.ComposeConfigHash: ""}
	if oneoff != "" {
		l[labels.ComposeOneoff] = oneoff
	}
	return l
}

// listedWith is the containers with these labels ("" values: present) as
// a listing reports them, by name.
func (f *Fake) listedWith(want map[string]string) []engine.Object {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []engine.Object
	for _, o := range f.objects[engine.Containers] {
		if hasLabels(o.obj.Labels, want) {
			out = append(out, o.listed())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
