package doctor

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	cproject "github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/hashicorp/go-multierror"
)

// PortWant is one host port a service publishes.
type PortWant struct {
	Service  string
	Where    string // the file that declares it: devenv.yaml or a compose file
	HostIP   string
	HostPort int
	Protocol string
}

func (p PortWant) addr() string {
	ip := p.HostIP
	if ip == "" {
		ip = "0.0.0.0"
	}
	return fmt.Sprintf("%s:%d", ip, p.HostPort)
}

// PortConflict is a wanted port that cannot be bound, with who holds it and
// a free port to use instead (0 when none was found nearby).
type PortConflict struct {
	PortWant
	Holder  string // the container holding it; "" for a program outside Docker
	Program string // the program outside Docker holding it ("python3 (pid 1234)"); "" when unknown
	Twin    string // another service of the project that publishes it too
	Suggest int
}

func (c PortConflict) String() string {
	who := "another program (`ss -ltnp` shows which)"
	fix := "stop it"
	switch {
	case c.Twin != "":
		who, fix = "service "+c.Twin+" of this project too", "give one of them another port"
	case c.Holder != "":
		who = "container " + c.Holder
		fix = "stop it (docker stop " + c.Holder + ")"
	case c.Program != "":
		who = "program " + c.Program
	}
	msg := fmt.Sprintf("service %s: host port %s is in use by %s; %s or change the host side of its ports: entry in %s",
		c.Service, c.addr(), who, fix, c.Where)
	if c.Suggest > 0 {
		msg += fmt.Sprintf(" (%d is free)", c.Suggest)
	}
	return msg
}

// holder is a running container's published port.
type holder struct {
	name, ip string
}

// portHolders maps "port/proto" to the running containers publishing it,
// others' and the project's own apart: devenv stops or keeps its own
// itself. The other containers are only read, to name them in the message.
func portHolders(ctx context.Context, eng engine.Engine, project string) (others map[string][]holder, own map[string]bool, err error) {
	others, own = map[string][]holder{}, map[string]bool{}
	if eng == nil {
		return others, own, nil
	}
	objs, err := eng.List(ctx, engine.Containers, nil)
	if err != nil {
		return nil, nil, err
	}
	for _, o := range objs {
		if o.State != "running" {
			continue
		}
		mine := project != "" && o.Labels[labels.Project] == project
		for _, p := range o.Ports {
			k := portKey(p.HostPort, p.Protocol)
			switch {
			case p.HostPort == 0:
			case mine:
				own[k] = true
			default:
				others[k] = append(others[k], holder{name: o.Name, ip: p.HostIP})
			}
		}
	}
	return others, own, nil
}

// overlaps reports whether two bind addresses can clash: the same address,
// or either one every interface.
func overlaps(a, b string) bool {
	wildcard := func(ip string) bool { return ip == "" || ip == "0.0.0.0" || ip == "::" }
	return a == b || wildcard(a) || wildcard(b)
}

// PortConflicts finds every wanted port that a running container outside the
// project, another program (free says it cannot be bound; owner, when not
// nil, names it) or an earlier want of the same list holds.
func PortConflicts(ctx context.Context, eng engine.Engine, project string, wants []PortWant, free func(ip string, port int) bool, owner func(port int) string) ([]PortConflict, error) {
	if !publishes(wants) {
		return nil, nil // nothing to bind: the engine need not be asked
	}
	holders, own, err := portHolders(ctx, eng, project)
	if err != nil {
		return nil, err
	}
	taken := map[string]bool{}
	for _, w := range wants {
		taken[portKey(w.HostPort, w.Protocol)] = true
	}
	for k := range own {
		taken[k] = true
	}
	var out []PortConflict
	claimed := map[string][]holder{} // the wants seen so far, as holders
	claim := func(k string, w PortWant) { claimed[k] = append(claimed[k], holder{name: w.Service, ip: w.HostIP}) }
	for _, w := range wants {
		if w.HostPort == 0 {
			continue
		}
		k := portKey(w.HostPort, w.Protocol)
		c := PortConflict{PortWant: w}
		switch {
		case holderOf(claimed[k], w.HostIP) != "":
			c.Twin = holderOf(claimed[k], w.HostIP)
		case holderOf(holders[k], w.HostIP) != "":
			c.Holder = holderOf(holders[k], w.HostIP)
		case own[k]:
			claim(k, w) // the project's own container holds it: up replaces or keeps it
			continue
		case free != nil && (w.Protocol == "" || w.Protocol == "tcp") && !free(bindIP(w.HostIP), w.HostPort):
			if owner != nil {
				c.Program = owner(w.HostPort)
			}
		default:
			claim(k, w)
			continue
		}
		c.Suggest = suggest(w, holders, taken, free)
		taken[portKey(c.Suggest, w.Protocol)] = true
		out = append(out, c)
	}
	return out, nil
}

// publishes reports whether any want binds a fixed host port.
func publishes(wants []PortWant) bool {
	for _, w := range wants {
		if w.HostPort != 0 {
			return true
		}
	}
	return false
}

func holderOf(hs []holder, ip string) string {
	for _, h := range hs {
		if overlaps(h.ip, ip) {
			return h.name
		}
	}
	return ""
}

func bindIP(ip string) string {
	if ip == "" {
		return "0.0.0.0"
	}
	return ip
}

// suggest is the first port above the wanted one that nothing holds.
func suggest(w PortWant, holders map[string][]holder, taken map[string]bool, free func(string, int) bool) int {
	for p := w.HostPort + 1; p <= w.HostPort+200 && p < 65536; p++ {
		k := portKey(p, w.Protocol)
		if taken[k] || holderOf(holders[k], w.HostIP) != "" {
			continue
		}
		if free == nil || free(bindIP(w.HostIP), p) {
			return p
		}
	}
	return 0
}

// PlanPorts lists the host ports the planned services publish (all
// services when only is empty, else those and what they depend on, as up
// starts them), in plan order, as proj (the plan rendered) has them.
func PlanPorts(pl *plan.Plan, proj *types.Project, only []string) []PortWant {
	keep := map[string]bool{}
	var add func(n string)
	add = func(n string) {
		if keep[n] {
			return
		}
		keep[n] = true
		if s := pl.Service(n); s != nil {
			for _, d := range s.DependsOn {
				add(d)
			}
		}
	}
	for _, n := range only {
		add(n)
	}
	var out []PortWant
	for _, s := range pl.Services {
		if len(keep) > 0 && !keep[s.Name] {
			continue
		}
		svc := proj.Services[s.Name]
		where := "devenv.yaml"
		if f := svc.Labels[labels.ComposeFile]; f != "" {
			where = f
		}
		for _, p := range cproject.HostPorts(svc.Ports) {
			out = append(out, PortWant{Service: s.Name, Where: where, HostIP: p.HostIP, HostPort: p.Host, Protocol: p.Protocol})
		}
	}
	return out
}

// PortPreflight refuses, before up pulls, builds or creates anything, the
// fixed host ports of pl rendered as proj (of the services in only; all
// when empty) that another container or program holds.
func PortPreflight(ctx context.Context, eng engine.Engine, pl *plan.Plan, proj *types.Project, only []string, free func(ip string, port int) bool, owner func(port int) string) error {
	return PortsFree(ctx, eng, pl.Project, PlanPorts(pl, proj, only), free, owner, "nothing was built or created")
}

// PortsFree returns an error naming, with a fix and a free port, each of
// wants' host ports that another container or program holds (the
// project's own containers may hold theirs); untouched says what the
// refusal left undone.
func PortsFree(ctx context.Context, eng engine.Engine, project string, wants []PortWant, free func(ip string, port int) bool, owner func(port int) string, untouched string) error {
	conflicts, err := PortConflicts(ctx, eng, project, wants, free, owner)
	if err != nil {
		return fmt.Errorf("checking the host ports: %w", err)
	}
	if len(conflicts) == 0 {
		return nil
	}
	var errs *multierror.Error
	for _, c := range conflicts {
		errs = multierror.Append(errs, fmt.Errorf("%s", c))
	}
	errs.ErrorFormat = func(es []error) string {
		lines := make([]string, len(es))
		for i, e := range es {
			lines[i] = "  - " + e.Error()
		}
		sort.Strings(lines)
		return fmt.Sprintf("%d host port(s) of project %s are taken; %s:\n%s",
			len(es), project, untouched, strings.Join(lines, "\n"))
	}
	return errs
}
