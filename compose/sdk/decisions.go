package sdk

import (
	"context"
	"strings"
	"sync"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/docker/compose/v5/pkg/api"
)

// DecisionLog reads what the SDK decided for each container of a run
// from the events its plan emits ("Container p-db" Running, Starting,
// Creating, Recreate, Removing, ...): for each service the strongest one
// seen. The same reading serves a run and its dry run, so what up
// --dry-run says is what Compose then does; it is an api.EventProcessor,
// for a Compose service made elsewhere (the conformance tests' judge).
type DecisionLog struct {
	mu       sync.Mutex
	byName   map[string]string // container name -> service
	services []string          // the project's, each unchanged unless seen otherwise
	seen     map[string]ranked // service -> its strongest decision
}

type ranked struct {
	decided string
	n       int
}

// eventRank orders the SDK's event texts by how much they change: a
// created container is also started, a recreated one also stopped and
// created.
var eventRank = map[string]ranked{
	"Running":  {engine.DecidedUnchanged, 1},
	"Starting": {engine.DecidedStarted, 2}, "Started": {engine.DecidedStarted, 2},
	"Creating": {engine.DecidedCreated, 3}, "Created": {engine.DecidedCreated, 3},
	"Removing": {engine.DecidedRemoved, 4}, "Removed": {engine.DecidedRemoved, 4},
	"Recreate": {engine.DecidedRecreated, 5}, "Recreated": {engine.DecidedRecreated, 5},
}

// NewDecisionLog reads the decisions about proj's services' containers
// (container_name, or Compose's <project>-<service>-1).
func NewDecisionLog(proj *types.Project) *DecisionLog {
	d := &DecisionLog{byName: map[string]string{}, seen: map[string]ranked{}}
	for name, s := range proj.Services {
		cn := s.ContainerName
		if cn == "" {
			cn = strings.Join([]string{proj.Name, name, "1"}, api.Separator)
		}
		d.byName[cn] = name
		d.services = append(d.services, name)
	}
	return d
}

// Add has the decisions about the container called name read as
// service's (an orphan's, which the project does not name).
func (d *DecisionLog) Add(name, service string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.byName[name] = service
}

func (d *DecisionLog) Start(context.Context, string) {}
func (d *DecisionLog) Done(string, bool)             {}

// On notes the decisions the SDK's events show.
func (d *DecisionLog) On(rs ...api.Resource) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, r := range rs {
		name, isContainer := strings.CutPrefix(r.ID, "Container ")
		svc, known := d.byName[name]
		k, isDecision := eventRank[r.Text]
		if isContainer && known && isDecision && d.seen[svc].n < k.n {
			d.seen[svc] = k
		}
	}
}

// Result is each service's decision: a service of the project the SDK
// said nothing about was left as it was; an orphan (Add) is there only
// when the SDK decided something about it.
func (d *DecisionLog) Result() engine.Decisions {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := engine.Decisions{}
	for _, svc := range d.services {
		out[svc] = engine.DecidedUnchanged
	}
	for svc, k := range d.seen {
		out[svc] = k.decided
	}
	return out
}
