package doctor

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/compose"
	cproject "github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// checkPorts checks, per service (devenv.yaml's, then the compose files'),
// that the host ports it publishes can be bound, leaving out ports this
// project's own running containers hold; a taken port names the container
// holding it and a free port to use (PortConflicts, the same check `up`
// runs before building).
func checkPorts(e *env) []Check {
	names, wants := e.portWants()
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
		cs, probeErr = PortConflicts(e.ctx, eng, e.projectName(), wants, e.in.Host.PortFree, e.in.Host.PortOwner)
		bySvc = map[string][]PortConflict{}
		for _, c := range cs {
			bySvc[c.Service] = append(bySvc[c.Service], c)
		}
	}
	own := e.ownPorts()
	var out []Check
	for _, name := range names {
		c := Check{ID: IDPorts, Title: "ports of " + name, Service: name}
		switch {
		case bySvc == nil:
			c.Status, c.Message = Skip, "cannot probe ports here"
		case probeErr != nil:
			c.Status, c.Message = Skip, "cannot list the containers holding ports: "+probeErr.Error()
		default:
			portCheck(&c, wantsOf(wants, name), own, bySvc[name])
		}
		out = append(out, c)
	}
	return out
}

// portWants are the host ports of the services in scope, and the names of
// the services that publish any, in order.
func (e *env) portWants() ([]string, []PortWant) {
	var names []string
	var wants []PortWant
	for _, s := range e.services {
		if s.Spec == nil || len(s.Spec.Ports) == 0 {
			continue
		}
		names = append(names, s.Name)
		for _, p := range s.Spec.Ports {
			wants = append(wants, PortWant{Service: s.Name, Where: "devenv.yaml", HostIP: p.HostIP, HostPort: p.Host, Protocol: p.Protocol})
		}
	}
	for _, cs := range e.composeServices() {
		ports := cproject.HostPorts(compose.LocalPorts(cs.Config.Service.Ports))
		if len(ports) == 0 {
			continue
		}
		names = append(names, cs.Name)
		for _, p := range ports {
			wants = append(wants, PortWant{Service: cs.Name, Where: filepath.Base(cs.File), HostIP: p.HostIP, HostPort: p.Host, Protocol: p.Protocol})
		}
	}
	return names, wants
}

// composeServices are the project's compose services in scope, each with
// compose-go's config (what devenv renders and runs); none when the
// compose files do not load (up reports why).
func (e *env) composeServices() []compose.Service {
	p := e.in.Project
	if p == nil || len(p.Compose) == 0 {
		return nil
	}
	svcs, err := e.in.Compose.For(p.Compose, p.Dir, p.Name).Services(e.ctx, nil)
	if err != nil {
		return nil
	}
	var out []compose.Service
	for _, s := range svcs {
		if s.Config != nil && (len(e.in.Services) == 0 || slices.Contains(e.in.Services, s.Name)) {
			out = append(out, s)
		}
	}
	return out
}

func wantsOf(wants []PortWant, service string) []PortWant {
	var out []PortWant
	for _, w := range wants {
		if w.Service == service {
			out = append(out, w)
		}
	}
	return out
}

func portCheck(c *Check, wants []PortWant, own map[string]string, conflicts []PortConflict) {
	if len(conflicts) > 0 {
		var msgs []string
		for _, k := range conflicts {
			msgs = append(msgs, strings.TrimPrefix(k.String(), "service "+c.Service+": "))
		}
		c.Status = Fail
		c.Message = strings.Join(msgs, "; ")
		c.Fix = fmt.Sprintf("stop what holds them or change the host side of `ports:` in %s (e.g. \"18888:8888\")", wants[0].Where)
		return
	}
	var mine, free []string
	for _, p := range wants {
		addr := fmt.Sprintf("%s:%d", p.HostIP, p.HostPort)
		if o := own[portKey(p.HostPort, p.Protocol)]; o != "" {
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
