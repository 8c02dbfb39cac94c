package doctor

import (
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// checkPorts checks, per service, that the host ports it publishes can be
// bound, leaving out ports this project's own running containers hold.
func checkPorts(e *env) []Check {
	own := e.ownPorts()
	var out []Check
	for _, s := range e.services {
		if s.Spec == nil || len(s.Spec.Ports) == 0 {
			continue
		}
		out = append(out, portCheck(e, s, own))
	}
	return out
}

func portCheck(e *env, s service, own map[string]string) Check {
	c := Check{ID: IDPorts, Title: "ports of " + s.Name, Service: s.Name}
	if e.in.Host.PortFree == nil {
		c.Status, c.Message = Skip, "cannot probe ports here"
		return c
	}
	var busy, mine, free []string
	for _, p := range s.Spec.Ports {
		addr := fmt.Sprintf("%s:%d", p.HostIP, p.Host)
		switch {
		case own[portKey(p.Host, p.Protocol)] != "":
			mine = append(mine, addr+" ("+own[portKey(p.Host, p.Protocol)]+")")
		case e.in.Host.PortFree(p.HostIP, p.Host):
			free = append(free, addr)
		default:
			busy = append(busy, addr)
		}
	}
	if len(busy) > 0 {
		c.Status = Fail
		c.Message = "in use by another program: " + strings.Join(busy, ", ")
		c.Fix = "stop what holds them (`ss -ltnp` shows it) or change the host side of `ports:` in devenv.yaml (e.g. \"18888:8888\")"
		return c
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
	return c
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
