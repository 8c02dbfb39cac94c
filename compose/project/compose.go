package project

import (
	"maps"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/labels"
)

// composeLabels are what the SDK's own loader puts on every service, so
// the SDK finds the containers it makes and `docker compose ls` names the
// project's files (kept out of the config hash by compose-go: adding one
// recreates no container).
func composeLabels(pl *plan.Plan, service string, opts Options) types.Labels {
	l := types.Labels(labels.Compose(pl.Project, service, opts.WorkingDir, ""))
	delete(l, labels.ComposeConfigHash)
	delete(l, labels.ComposeNumber)
	if opts.ComposeVersion != "" {
		l[labels.ComposeVersion] = opts.ComposeVersion
	}
	if files := configFiles(pl); files != "" {
		l[labels.ComposeConfigFiles] = files
	}
	return l
}

// configFiles are the project's files as Compose names them in
// labels.ComposeConfigFiles: its compose files, absolute and comma-joined,
// or devenv.yaml when it has none; "" for a plan made without its spec.
func configFiles(pl *plan.Plan) string {
	p := pl.Project0
	switch {
	case p == nil:
		return ""
	case len(p.Compose) > 0:
		return strings.Join(p.Compose, ",")
	}
	return p.File
}

// composeObjects adds the top-level networks, volumes, configs and
// secrets a compose service refers to, as Compose has them, devenv's
// project labels added to the networks and volumes it (through Compose)
// makes. The project network (default) stays devenv's; a volume devenv
// makes itself (External: one of the plan's volumes, under Compose's name
// for it) stays external.
func composeObjects(proj *types.Project, pl *plan.Plan, orig *compose.Config, opts Options) {
	own := types.Labels(plan.Labels(pl.Project, ""))
	for key, n := range orig.Networks {
		if key == DefaultNetwork {
			continue
		}
		if !bool(n.External) {
			n.Labels = withLabels(n.Labels, own)
		}
		proj.Networks[key] = n
	}
	for key, v := range orig.Volumes {
		if !bool(v.External) {
			v.Labels = withLabels(v.Labels, own)
			v.External = types.External(opts.External && slices.Contains(pl.Volumes, v.Name))
		}
		if proj.Volumes == nil {
			proj.Volumes = types.Volumes{}
		}
		proj.Volumes[key] = v
	}
	for key, c := range orig.Configs {
		if proj.Configs == nil {
			proj.Configs = types.Configs{}
		}
		proj.Configs[key] = c
	}
	for key, sec := range orig.Secrets {
		if proj.Secrets == nil {
			proj.Secrets = types.Secrets{}
		}
		proj.Secrets[key] = sec
	}
}

func withLabels(written, own types.Labels) types.Labels {
	out := types.Labels{}
	maps.Copy(out, written)
	maps.Copy(out, own)
	return out
}
