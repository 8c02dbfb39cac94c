// Package project renders a plan as one Compose project: a compose-go
// types.Project whose services are exactly the containers the plan wants
// (image pinned by the lock, environment, ports on 127.0.0.1 unless an
// address was written, volumes, healthchecks, devenv's labels, GPU device
// reservations from devenv's placement, generated files as `configs:` with
// `content:`).
//
// It is the value the Compose SDK runs and `docker compose -p NAME` sees.
// Compose's config hash of each rendered service is what compose-go's own
// loader computes from the same service written as YAML (the golden test
// holds that), so a container devenv made and one `docker compose` made
// from the same file are the same to both. Compose leaves a config's
// content out of its hash, so the digest of the files goes in a label
// (labels.FilesDigest): a changed spark-defaults.conf recreates the
// container.
package project

import (
	"fmt"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/hashicorp/go-multierror"
)

// DefaultNetwork is the key of the project network in the project's
// networks; its engine name is the plan's network (the project name).
const DefaultNetwork = compose.DefaultNetwork

// Options say where the project lives.
type Options struct {
	// WorkingDir is the project directory (devenv.yaml's).
	WorkingDir string
	// External marks the network and volumes as external: devenv makes
	// them (with its ownership checks and repairs) before Compose runs the
	// project, and Compose uses them as they are.
	External bool
	// ComposeVersion is the Compose SDK's version (compose/sdk.Version),
	// which every service's container carries as Compose's own does in
	// com.docker.compose.version; "" leaves the label out.
	ComposeVersion string
}

// FromPlan renders pl as a Compose project. Every problem is reported at
// once, each naming its service.
func FromPlan(pl *plan.Plan, opts Options) (*types.Project, error) {
	proj := &types.Project{
		Name:       pl.Project,
		WorkingDir: opts.WorkingDir,
		Services:   types.Services{},
		Networks:   types.Networks{DefaultNetwork: projectNetwork(pl, opts)},
	}
	vols := volumeKeys(pl)
	if len(vols) > 0 {
		proj.Volumes = types.Volumes{}
		for key, name := range vols {
			proj.Volumes[key] = types.VolumeConfig{Name: name, Labels: types.Labels(plan.Labels(pl.Project, "")), External: types.External(opts.External)}
		}
	}
	var errs *multierror.Error
	for _, s := range pl.Services {
		svc := s.Container
		svc.CustomLabels = composeLabels(pl, s.Name, opts)
		if s.Compose != nil && s.Compose.Config != nil {
			composeObjects(proj, pl, s.Compose.Config, opts)
		} else if err := checkService(pl.Project, svc, vols); err != nil {
			errs = multierror.Append(errs, fmt.Errorf("service %s: %w", s.Name, err))
			continue
		}
		proj.Services[s.Name] = svc
		for _, f := range s.Files {
			if proj.Configs == nil {
				proj.Configs = types.Configs{}
			}
			proj.Configs[plan.ConfigName(s.Name, f.Path)] = types.ConfigObjConfig{Content: string(f.Data)}
		}
	}
	if err := errs.ErrorOrNil(); err != nil {
		return nil, err
	}
	return proj, nil
}

// projectNetwork is the project network (default): made by devenv (or by
// Compose) with devenv's labels, or, where a compose file declares it
// external, used as it is.
func projectNetwork(pl *plan.Plan, opts Options) types.NetworkConfig {
	if pl.NetworkExternal {
		return types.NetworkConfig{Name: pl.Network, External: true}
	}
	return types.NetworkConfig{Name: pl.Network, Labels: types.Labels(plan.Labels(pl.Project, "")), External: types.External(opts.External)}
}

// volumeKeys maps each named volume's key in the project (its name without
// the project prefix) to its engine name.
func volumeKeys(pl *plan.Plan) map[string]string {
	declared := map[string]bool{} // a compose volume with its own name: composeObjects adds it under its key
	for _, s := range pl.Services {
		if s.Compose != nil && s.Compose.Config != nil {
			for key, v := range s.Compose.Config.Volumes {
				declared[v.Name] = v.Name != plan.VolumeName(pl.Project, key)
			}
		}
	}
	out := map[string]string{}
	for _, name := range pl.Volumes {
		if !declared[name] {
			out[volumeKey(pl.Project, name)] = name
		}
	}
	return out
}

func volumeKey(project, name string) string {
	if k, ok := strings.CutPrefix(name, project+"_"); ok && k != "" {
		return k
	}
	return name
}

// checkService refuses what the engine could not run of a devenv
// service: a container port out of range, a volume that is not one of the
// project's (vols: key to engine name), a mount that is neither a bind
// nor a volume.
func checkService(project string, svc types.ServiceConfig, vols map[string]string) error {
	var errs *multierror.Error
	for _, p := range svc.Ports {
		if p.Target == 0 || p.Target > 65535 {
			errs = multierror.Append(errs, fmt.Errorf("port %d: a container port is 1 to 65535", p.Target))
		}
	}
	for _, v := range svc.Volumes {
		switch v.Type {
		case types.VolumeTypeBind:
		case types.VolumeTypeVolume:
			if _, ok := vols[v.Source]; !ok {
				errs = multierror.Append(errs, fmt.Errorf("volume %s at %s is not one of the project's volumes", plan.VolumeName(project, v.Source), v.Target))
			}
		default:
			errs = multierror.Append(errs, fmt.Errorf("mount %s at %s: type %q is neither bind nor volume", v.Source, v.Target, v.Type))
		}
	}
	return errs.ErrorOrNil()
}
