package doctor

import (
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// checkPorts checks, per service, that the host ports it publishes can be
// bound, leaving out ports this project's own running containers hold; a
// taken port names the container holding it and a free port to use
// (PortConflicts, the same check `up` runs before building).
func checkPorts(e *env) []Check {
	var wants []PortWant
	for _, s := range e.services {
		if s.Spec == nil {
			continue
		}
		for _, p := range s.Spec.Ports {
			wants = append(wants, PortWant{Service: s.Name, Where: "devenv.yaml", HostIP: p.HostIP, HostPort: p.Host, Protocol: p.Protocol})
		}
	}
	if len(wants) == 0 {
		return nil
	}
	var bySvc map[string][]PortConflict
	var probeErr error
	if e.in.Host.PortFree != nil {
		var eng engine.Engine
		if e.info != nil {
			eng = e.in.Engine
		}
		var cs []PortConflict
		cs, probeErr = PortConflicts(e.ctx, eng, e.projectName(), wants, e.in.Host.PortFree)
		bySvc = map[string][]PortConflict{}
		for _, c := range cs {
			bySvc[c.Service] = append(bySvc[c.Service], c)
		}
	}
	own := e.ownPorts()
	var out []Check
	for _, s := range e.services {
		if s.Spec == nil || len(s.Spec.Ports) == 0 {
			continue
		}
		c := Check{ID: IDPorts, Title: "ports of " + s.Name, Service: s.Name}
		switch {
		case bySvc == nil:
			c.Status, c.Message = Skip, "cannot probe ports here"
		case probeErr != nil:
			c.Status, c.Message = Skip, "cannot list the containers holding ports: "+probeErr.Error()
		default:
			portCheck(&c, s, own, bySvc[s.Name])
		}
		out = append(out, c)
	}
	return out
}

func portCheck(c *Check, s service, own map[string]string, conflicts []PortConflict) {
	if len(conflicts) > 0 {
		var msgs []string
		for _, k := range conflicts {
			msgs = append(msgs, strings.TrimPrefix(k.String(), "service "+s.Name+": "))
		}
		c.Status = Fail
		c.Message = strings.Join(msgs, "; ")
		c.Fix = "stop what holds them or change the host side of `ports:` in devenv.yaml (e.g. \"18888:8888\")"
		return
	}
	var mine, free []string
	for _, p := range s.Spec.Ports {
		addr := fmt.Sprintf("%s:%d", p.HostIP, p.Host)
		if o := own[portKey(p.Host, p.Protocol)]; o != "" {
			mine = append(mine, addr+" ("+o+")")
		} else {
			free = append(free, addr)
		}
	}
	c.Status = Pass
	c.Message = "free: " + strings.Join(free, ", ")
	if len(mine) > 0 {
		if len(free) == 0 {
			c.Message = ""
		} else {
			c.Message += "; "
		}
		c.Message += "held by this project's own containers: " + strings.Join(mine, ", ")
	}
}

func portKey(port int, proto string) string {
	if proto == "" {
		proto = "tcp"
	}
	return fmt.Sprintf("%d/%s", port, proto)
}

// ownPorts maps "port/proto" to the name of this project's running
// container publishing it.
func (e *env) ownPorts() map[string]string {
	out := map[string]string{}
	name := e.projectName()
	if e.info == nil || name == "" {
		return out
	}
	objs, err := e.in.Engine.List(e.ctx, engine.Containers, map[string]string{labels.Project: name})
	if err != nil {
		return out
	}
	for _, o := range objs {
		if o.State != "running" {
			continue
		}
		st, err := e.in.Engine.Inspect(e.ctx, o.ID)
		if err != nil {
			continue
		}
		for _, p := range st.Ports {
			out[portKey(p.HostPort, p.Protocol)] = o.Name
		}
	}
	return out
}

func (e *env) projectName() string {
	if e.in.Project != nil {
		return e.in.Project.Name
	}
	if e.in.Lock != nil {
		return e.in.Lock.Project
	}
	return ""
}
