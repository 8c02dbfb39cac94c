package reconcile

import (
	"context"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose/sdk"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/endpoint/dockercli"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/docker/cli/cli/command"
	"github.com/docker/compose/v5/pkg/api"
	composesdk "github.com/docker/compose/v5/pkg/compose"
)

// composeJudge is the executor of TestIntegrationConformance: the Compose
// SDK, and before every up of a scenario (conformance's up helper) the
// judge of devenv's decision. It asks Compose's own dry run (the SDK's
// WithDryRun: its reconcile and plan on the real engine's containers, its
// engine calls faked) what `docker compose up` would do with the project
// devenv renders from the same plan, and fails the test where devenv's
// decision, the one up --dry-run prints and up executes, differs.
type composeJudge struct {
	engine.Executor
	cli *command.DockerCli
}

func newComposeJudge(t *testing.T, eng engine.Engine, x engine.Executor) *composeJudge {
	t.Helper()
	cli, err := dockercli.New(engine.EndpointOf(eng), endpoint.Options{}, dockercli.CLIOptions{Out: io.Discard, Err: io.Discard, Answer: engine.AnswerTimeout()})
	if err != nil {
		t.Fatalf("a docker CLI for Compose's dry run: %v", err)
	}
	return &composeJudge{Executor: x, cli: cli}
}

// judgeOf is r's judge, through a recorder; nil on the fake engine.
func judgeOf(r *Runner) *composeJudge {
	switch x := r.Exec.(type) {
	case *composeJudge:
		return x
	case *recorder:
		j, _ := x.Executor.(*composeJudge)
		return j
	}
	return nil
}

// judge compares devenv's decision for up with opts on pl (devenv, from
// its dry run) with Compose's, container by container. Where devenv
// differs on purpose (knownDifferences), the difference itself is
// asserted, not skipped.
func (j *composeJudge) judge(t *testing.T, r *Runner, pl *plan.Plan, opts UpOptions, devenv map[string]string) {
	t.Helper()
	compose, err := j.composeDecisions(t.Context(), r, pl, opts)
	if err != nil && ambiguous(err) && duplicated(t, r, pl.Network) {
		// devenv's documented difference: Compose refuses a project whose
		// network has a duplicate (two creators raced on an engine before
		// API 1.44), devenv repairs it (repairNetwork)
		t.Logf("Compose refuses the duplicate network %s (%v); devenv repairs it and decides %v", pl.Network, err, devenv)
		return
	}
	if err != nil {
		t.Fatalf("Compose's dry run: %v", err)
	}
	t.Logf("%s: devenv decides %v, Compose %v", upFlags(opts), devenv, compose)
	known, err := knownDifferences(t.Context(), r, pl.Project, pl.Network)
	if err != nil {
		t.Fatal(err)
	}
	for _, svc := range slices.Sorted(maps.Keys(union(devenv, compose))) {
		d, isKnown := known[svc]
		switch {
		case isKnown && (devenv[svc] != d.devenv || compose[svc] != d.compose):
			t.Errorf("service %s: devenv decides %q, Compose %q; want the known difference (%s): devenv %q, Compose %q", svc, devenv[svc], compose[svc], d.why, d.devenv, d.compose)
		case isKnown:
			t.Logf("service %s: %s", svc, d.why)
		case devenv[svc] != compose[svc]:
			t.Errorf("service %s: devenv decides %q, Compose %q (devenv %v; Compose %v)", svc, devenv[svc], compose[svc], devenv, compose)
		}
	}
}

// difference is a decision devenv makes on purpose where Compose makes
// another.
type difference struct{ why, devenv, compose string }

// knownDifferences are the services of project whose container devenv
// decides about differently from Compose, on purpose:
//   - a running container an earlier devenv made (Compose hash
//     "devenv-..."): devenv keeps it, so that an upgrade of devenv
//     recreates nothing; Compose, whose hash it is not, recreates it;
//   - a stopped container whose network is gone (removed behind devenv's
//     back): devenv recreates it on the project network; Compose checks
//     the networks of running containers only and starts it, which the
//     engine refuses ("network ... not found").
func knownDifferences(ctx context.Context, r *Runner, project, network string) (map[string]difference, error) {
	objs, err := r.projectObjects(ctx, engine.Containers, project)
	if err != nil {
		return nil, err
	}
	nets, err := r.Eng.List(ctx, engine.Networks, nil)
	if err != nil {
		return nil, err
	}
	gone := func(id string) bool {
		return id != "" && !slices.ContainsFunc(nets, func(n engine.Object) bool { return n.ID == id })
	}
	out := map[string]difference{}
	for _, o := range objs {
		svc := o.Labels[labels.Service]
		switch {
		case legacyHash(o) && o.State == "running":
			out[svc] = difference{"a running container of an earlier devenv is kept, as an upgrade of devenv recreates nothing", Unchanged, Recreated}
		case o.State != "running" && gone(o.NetworkIDs[network]):
			out[svc] = difference{"a stopped container whose network is gone is recreated, where Compose would start it and the engine refuse", Recreated, Started}
		}
	}
	return out, nil
}

// containerDecisions are the changes of the services' containers (and
// orphans) by service.
func containerDecisions(ch []Change) map[string]string {
	out := map[string]string{}
	for _, c := range ch {
		if c.Service != "" && c.Action != Pulled && c.Action != Built {
			out[c.Service] = c.Action
		}
	}
	return out
}

// composeDecisions runs `docker compose up` (or create, with NoStart) on
// the rendered project in Compose's dry-run mode, with the flags opts
// stands for, and reads Compose's decision per container from the events
// its plan emits.
func (j *composeJudge) composeDecisions(ctx context.Context, r *Runner, pl *plan.Plan, opts UpOptions) (map[string]string, error) {
	svcs, err := selectServices(pl, opts.Services, opts.NoDeps)
	if err != nil {
		return nil, err
	}
	proj, err := r.render(pl)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(svcs))
	for i, s := range svcs {
		names[i] = s.Name
	}
	proj, err = proj.WithSelectedServices(names, types.IgnoreDependencies)
	if err != nil {
		return nil, err
	}
	nets, err := r.Eng.List(ctx, engine.Networks, nil)
	if err != nil {
		return nil, err
	}
	proj = asComposeRunsIt(proj, nets)
	ev := sdk.NewDecisionLog(proj)
	if err := addOrphans(ctx, ev, r, pl); err != nil {
		return nil, err
	}
	c, err := composesdk.NewComposeService(j.cli, composesdk.WithDryRun, composesdk.WithEventProcessor(ev),
		composesdk.WithPrompt(composesdk.AlwaysOkPrompt()))
	if err != nil {
		return nil, err
	}
	create := api.CreateOptions{Services: names, Recreate: api.RecreateDiverged, RecreateDependencies: api.RecreateDiverged,
		RemoveOrphans: opts.RemoveOrphans, IgnoreOrphans: !opts.RemoveOrphans, QuietPull: true, Inherit: true}
	if opts.ForceRecreate {
		create.Recreate = api.RecreateForce
	}
	if opts.NoStart {
		err = c.Create(ctx, proj, create)
	} else {
		err = c.Up(ctx, proj, api.UpOptions{Create: create, Start: api.StartOptions{Project: proj, Services: names}})
	}
	if err != nil {
		return nil, err
	}
	return ev.Result(), nil
}

// asComposeRunsIt is the rendered project as Compose runs it: the images
// are there (these scenarios pull and build none), and a network devenv's
// render marks external because devenv makes it first is Compose's to
// make where it does not exist yet (nets: the engine's networks).
func asComposeRunsIt(proj *types.Project, nets []engine.Object) *types.Project {
	out := *proj
	out.Services = types.Services{}
	for name, s := range proj.Services {
		s.Build, s.PullPolicy = nil, types.PullPolicyNever
		out.Services[name] = s
	}
	out.Networks = types.Networks{}
	for k, n := range proj.Networks {
		if n.External && namedObject(nets, n.Name) == nil {
			n.External = false
		}
		out.Networks[k] = n
	}
	return &out
}

// ambiguous: Compose's errors for a network name two networks have.
func ambiguous(err error) bool {
	return strings.Contains(err.Error(), "is ambiguous") || strings.Contains(err.Error(), "multiple networks with name")
}

// duplicated reports whether several networks are called name.
func duplicated(t *testing.T, r *Runner, name string) bool {
	t.Helper()
	all, err := r.Eng.List(t.Context(), engine.Networks, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, o := range all {
		if o.Name == name {
			n++
		}
	}
	return n > 1
}

func union(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

// addOrphans has ev read the project's containers of services the plan
// lacks under their own service's name.
func addOrphans(ctx context.Context, ev *sdk.DecisionLog, r *Runner, pl *plan.Plan) error {
	objs, err := r.projectObjects(ctx, engine.Containers, pl.Project)
	if err != nil {
		return err
	}
	for _, o := range objs {
		if pl.Service(o.Labels[labels.Service]) == nil {
			ev.Add(o.Name, o.Labels[labels.Service])
		}
	}
	return nil
}
