// Package export writes a devenv environment in other tools' formats: a
// compose file `docker compose up` runs the same way, a devcontainer.json
// for editors, and Kubernetes manifests (Spark Operator SparkApplications,
// Triton Deployments). Exports read the Compose project devenv runs
// (compose/project.FromPlan: each container as a compose-go ServiceConfig,
// the project's networks, volumes and configs) and devenv's facts of the
// plan beside it (profiles, Spark settings, placement, the lock); images
// are by digest when the plan was made from devenv.lock and by tag
// otherwise, and each export says which in its header.
package export

import (
	"context"
	"fmt"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/labels"
)

// entry is one service of the export: a planned devenv service or a
// service of the project's compose files.
type entry struct {
	name     string
	profile  string // devenv profile; "" for compose services
	image    string
	built    bool                // devenv builds image (devenv build)
	svc      types.ServiceConfig // the container, as the project renders it
	spark    *plan.SparkInfo
	replica  string
	fromFile string // compose file of a compose service
	// envFiles are the service's env_files (absolute) and fileKeys the
	// variables whose values come from them: exports refer to the files
	// and never write those values.
	envFiles []string
	fileKeys map[string]bool
	// rawEnv are a compose service's environment entries that refer to
	// variables, as its compose file writes them (loader.RawEnvironment).
	rawEnv  map[string]string
	rawArgs map[string]string // likewise, its build args (loader.RawBuildArgs)
	onCPU   string            // why a service that can use a GPU runs on the CPU
	localID string            // a compose image no registry has, locked by this image ID
}

// rendered is pl as the Compose project `devenv export compose` writes:
// the project directory its working directory, nothing external.
func rendered(pl *plan.Plan) (*types.Project, error) {
	return project.FromPlan(pl, project.Options{WorkingDir: projectDir(pl)})
}

// entries lists the plan's services (a compose file's among them), each
// with its container as proj (pl rendered) has it and what exports need
// beyond the plan: env_files, and the environment entries a compose file
// writes as ${VAR}.
func entries(pl *plan.Plan, proj *types.Project) ([]entry, error) {
	composed, raw, rawArgs, err := loadCompose(pl)
	if err != nil {
		return nil, err
	}
	byName := map[string]compose.Service{}
	for _, cs := range composed {
		byName[cs.Name] = cs
	}
	var out []entry
	for _, s := range pl.Services {
		e := entry{name: s.Name, profile: s.Profile, image: s.Image, built: s.Build != nil,
			svc: proj.Services[s.Name], spark: s.Spark, replica: s.Replica}
		if s.CPUFallback {
			e.onCPU = s.Reason
		}
		if cs, ok := byName[s.Name]; ok && s.Profile == lock.ComposeProfile {
			e.envFiles, e.fileKeys, e.rawEnv, e.fromFile = cs.EnvFiles, keySet(cs.EnvFromFiles), raw[s.Name], cs.File
			e.rawArgs = rawArgs[s.Name]
			if ls := lockedService(pl, s.Name); ls != nil && ls.Base != nil && ls.Base.Local && ls.Base.Ref == cs.Image {
				e.image, e.localID = cs.Image, ls.Base.Digest
			}
		} else {
			e.envFiles, e.fileKeys = specEnvFile(pl, s)
		}
		out = append(out, e)
	}
	return out, nil
}

// loadCompose is the project's compose services, and their environment
// entries and build args that refer to variables as written, from the
// read of the files the plan was made from (pl.Compose; nil: read now).
func loadCompose(pl *plan.Plan) (svcs []compose.Service, rawEnv, rawArgs map[string]map[string]string, err error) {
	p := pl.Project0
	if p == nil || len(p.Compose) == 0 {
		return nil, nil, nil, nil
	}
	files := pl.Compose.For(p.Compose, p.Dir, p.Name)
	if svcs, err = files.Services(context.Background(), nil); err != nil {
		return nil, nil, nil, err
	}
	if rawEnv, err = files.RawEnvironment(context.Background()); err != nil {
		return nil, nil, nil, err
	}
	rawArgs, err = files.RawBuildArgs(context.Background())
	return svcs, rawEnv, rawArgs, err
}

// specEnvFile is the env_file of a devenv service (a standalone worker's is
// its master's) and the variables whose values come from it: those it sets
// that devenv.yaml's env: does not override. A compose service planned
// with devenv's services has its own record from the compose loader.
func specEnvFile(pl *plan.Plan, s *plan.Service) ([]string, map[string]bool) {
	p := pl.Project0
	if p == nil {
		return nil, nil
	}
	name := s.Name
	if s.Replica != "" {
		name = s.Replica
	}
	ss := p.Service(name)
	if ss == nil || ss.EnvFile == "" {
		return nil, nil
	}
	fromFile, err := plan.ReadEnvFile(ss.EnvFile)
	if err != nil {
		// unreadable: the plan took nothing from it either
		return []string{ss.EnvFile}, nil
	}
	keys := map[string]bool{}
	for k := range fromFile {
		if _, set := ss.Env[k]; !set {
			keys[k] = true
		}
	}
	return []string{ss.EnvFile}, keys
}

func keySet(keys []string) map[string]bool {
	if len(keys) == 0 {
		return nil
	}
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		out[k] = true
	}
	return out
}

// envWithoutFiles is the container's environment less the variables whose
// values come from an env_file.
func (e entry) envWithoutFiles() map[string]string {
	env := envMap(e.svc.Environment)
	for k := range e.fileKeys {
		delete(env, k)
	}
	return env
}

// pinnedHeader says where the images come from.
func pinnedHeader(lf *lock.File) string {
	if lf == nil {
		return "No devenv.lock: images are tags, not digests, and may change. Run `devenv lock` and export again to pin them."
	}
	return "Images are pinned by digest from devenv.lock."
}

// envMap is a service's environment as values; a variable passed from
// the caller's environment (no value) is "".
func envMap(env types.MappingWithEquals) map[string]string {
	out := make(map[string]string, len(env))
	for k, v := range env {
		out[k] = ""
		if v != nil {
			out[k] = *v
		}
	}
	return out
}

// gpuRequest is the GPU request of a rendered service (project.FromPlan
// writes devenv's placement there), or nil. A request for every GPU has
// Count -1.
func gpuRequest(svc types.ServiceConfig) *types.DeviceRequest { return compose.GPURequest(svc) }

// hasFiles: devenv places generated files in the service's container
// (project.FromPlan carries them as configs and their digest as a label).
func hasFiles(svc types.ServiceConfig) bool {
	return svc.Labels[labels.FilesDigest] != ""
}

// entryOf is the entry of service name.
func entryOf(es []entry, name string) entry {
	for _, e := range es {
		if e.name == name {
			return e
		}
	}
	return entry{name: name}
}

// notInProject is an error for a service name the plan does not hold.
func notInProject(pl *plan.Plan, name string) error {
	var names []string
	for _, s := range pl.Services {
		names = append(names, s.Name)
	}
	return fmt.Errorf("no service %q in project %s (services: %s)", name, pl.Project, strings.Join(names, ", "))
}

// lockedService is the plan's locked service, or nil (no lock).
func lockedService(pl *plan.Plan, name string) *lock.Service {
	if pl.Lock == nil {
		return nil
	}
	return pl.Lock.Service(name)
}
