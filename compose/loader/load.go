package loader

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

// convertProject translates the services of a loaded project: the
// services, or the problems that make services unusable, or an error
// (an env_file that cannot be read). proj is left as it is: compose-go
// resolves the environment on a copy.
//
// run says the selection is the one a command runs (the active profiles):
// services of it that share a container_name are then refused, as Compose
// refuses them. The every-profile selection that pins the lock is not a
// run: services in profiles never enabled together may share a name.
func convertProject(proj *types.Project, files []string, pos *positions, run bool) ([]compose.Service, []string, error) {
	resolved, err := proj.WithServicesEnvironmentResolved(false)
	if err != nil {
		// an env_file a compose file names is missing or unreadable: the
		// file devenv.yaml names is invalid, exit 2 as for devenv.yaml
		return nil, nil, exitcode.With(exitcode.Usage, fmt.Errorf("compose files %s: %w; fix the env_file it names", strings.Join(files, ", "), err))
	}
	problems := refusedModels(proj, files, pos)
	if run {
		problems = append(problems, sharedContainerNames(proj, pos)...)
	}
	out := make([]compose.Service, 0, len(proj.Services))
	for _, name := range sortedNames(resolved.Services) {
		svc, ps := convert(resolved.Services[name], pos)
		svc.Warnings = append(svc.Warnings, unappliedDefaultNetwork(resolved, resolved.Services[name], pos)...)
		svc.EnvFiles, svc.EnvFromFiles = envFileKeys(proj.Services[name], resolved.Services[name])
		svc.Config = original(resolved, resolved.Services[name])
		problems = append(problems, ps...)
		out = append(out, svc)
	}
	if len(problems) > 0 {
		return nil, problems, nil
	}
	return out, nil, nil
}

// original is compose-go's value of s with the top-level definitions it
// refers to.
func original(proj *types.Project, s types.ServiceConfig) *compose.Config {
	c := &compose.Config{Service: s}
	for key := range s.Networks {
		if n, ok := proj.Networks[key]; ok {
			if c.Networks == nil {
				c.Networks = types.Networks{}
			}
			c.Networks[key] = n
		}
	}
	for _, v := range s.Volumes {
		if n, ok := proj.Volumes[v.Source]; ok && v.Type == types.VolumeTypeVolume {
			if c.Volumes == nil {
				c.Volumes = types.Volumes{}
			}
			c.Volumes[v.Source] = n
		}
	}
	for _, r := range s.Configs {
		if n, ok := proj.Configs[r.Source]; ok {
			if c.Configs == nil {
				c.Configs = types.Configs{}
			}
			c.Configs[r.Source] = n
		}
	}
	for _, r := range s.Secrets {
		if n, ok := proj.Secrets[r.Source]; ok {
			if c.Secrets == nil {
				c.Secrets = types.Secrets{}
			}
			c.Secrets[r.Source] = n
		}
	}
	return c
}

// rawEnvironment is each service's environment entries that refer to
// variables, as written, of a project loaded without interpolation.
func rawEnvironment(proj *types.Project) map[string]map[string]string {
	return rawRefs(proj, func(svc types.ServiceConfig) types.MappingWithEquals { return svc.Environment })
}

// rawBuildArgs is each service's build args that refer to variables, as
// written, of a project loaded without interpolation: exports keep ${VAR}
// wherever the file wrote it, in build args as in environment entries.
func rawBuildArgs(proj *types.Project) map[string]map[string]string {
	return rawRefs(proj, func(svc types.ServiceConfig) types.MappingWithEquals {
		if svc.Build == nil {
			return nil
		}
		return svc.Build.Args
	})
}

// rawRefs is, by service and key, the entries that refer to a variable
// ($ in the value) of the mapping that of picks from each service.
func rawRefs(proj *types.Project, of func(types.ServiceConfig) types.MappingWithEquals) map[string]map[string]string {
	out := map[string]map[string]string{}
	for name, svc := range proj.Services {
		for k, v := range of(svc) {
			if v == nil || !strings.Contains(*v, "$") {
				continue
			}
			if out[name] == nil {
				out[name] = map[string]string{}
			}
			out[name][k] = *v
		}
	}
	return out
}

// envFileKeys lists the service's env_files and the variables whose value
// comes from one of them (not overridden by environment:), so that exports
// can refer to the files instead of copying their values.
func envFileKeys(raw, resolved types.ServiceConfig) (files, keys []string) {
	if len(raw.EnvFiles) == 0 {
		return nil, nil
	}
	for _, f := range raw.EnvFiles {
		files = append(files, f.Path)
	}
	for k, v := range resolved.Environment {
		if _, explicit := raw.Environment[k]; !explicit && v != nil {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return files, keys
}

func sortedNames(s types.Services) []string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// refusedModels names each top-level model the files declare and each
// service that uses one: devenv does not run Compose's models (Docker
// Model Runner), so it refuses them by name rather than drop them (an
// export without them is a file Compose refuses: "refers to undefined
// model").
func refusedModels(proj *types.Project, files []string, pos *positions) []string {
	var out []string
	names := make([]string, 0, len(proj.Models))
	for name := range proj.Models {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out = append(out, fmt.Sprintf("%s: models: %s: devenv does not run Compose models (Docker Model Runner); run this project with docker compose, or serve the model from a service (an image such as vLLM or Ollama) and remove models:",
			strings.Join(baseNames(files), ", "), name))
	}
	for _, svc := range sortedNames(proj.Services) {
		if len(proj.Services[svc].Models) > 0 {
			out = append(out, pos.problem(svc, "models", "uses models:, which devenv does not run; serve the model from a service instead"))
		}
	}
	return out
}

// sharedContainerNames is each enabled service whose container_name an
// earlier one (by name) already set, in compose-go's words
// (CheckContainerNameUnicity, which `docker compose config` and `up`
// run), with the places of both.
func sharedContainerNames(proj *types.Project, pos *positions) []string {
	var out []string
	first := map[string]string{} // container name -> service
	for _, name := range sortedNames(proj.Services) {
		cn := proj.Services[name].ContainerName
		if cn == "" {
			continue
		}
		if other, ok := first[cn]; ok {
			out = append(out, pos.problem(name, "container_name", "container name %q is already in use by service %s (%s); give each service that runs with the other its own container_name, or none", cn, other, pos.at(other, "container_name")))
			continue
		}
		first[cn] = name
	}
	return out
}

func baseNames(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = filepath.Base(f)
	}
	return out
}
