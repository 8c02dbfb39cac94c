package loader

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
)

// load is Load without the watch on ctx: the services, or the problems that
// make services unusable, or an error that kept the files from loading.
func load(ctx context.Context, files []string, projectDir, projectName string, profiles []string) ([]compose.Service, []string, error) {
	proj, err := loadProject(ctx, files, projectDir, projectName, profiles)
	if err != nil {
		return nil, nil, fmt.Errorf("compose files %s: %w; `docker compose config` shows the same problem, fix it in the file", strings.Join(files, ", "), err)
	}
	resolved, err := proj.WithServicesEnvironmentResolved(false)
	if err != nil {
		return nil, nil, fmt.Errorf("compose files %s: %w; fix the env_file it names", strings.Join(files, ", "), err)
	}
	pos := readPositions(files, projectDir)
	var problems []string
	out := make([]compose.Service, 0, len(proj.Services))
	for _, name := range sortedNames(resolved.Services) {
		svc, ps := convert(resolved.Services[name], pos)
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

func loadProject(ctx context.Context, files []string, projectDir, projectName string, profiles []string) (*types.Project, error) {
	return loadProjectWith(ctx, files, projectDir, projectName, profiles, true)
}

// rawEnvironment is RawEnvironment without the watch on ctx: each service's
// environment entries that refer to variables, as written; nil when the
// files load only after interpolation.
func rawEnvironment(ctx context.Context, files []string, projectDir, projectName string) map[string]map[string]string {
	proj, err := loadProjectWith(ctx, files, projectDir, projectName, []string{"*"}, false)
	if err != nil {
		return nil
	}
	out := map[string]map[string]string{}
	for name, svc := range proj.Services {
		for k, v := range svc.Environment {
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

func loadProjectWith(ctx context.Context, files []string, projectDir, projectName string, profiles []string, interpolate bool) (*types.Project, error) {
	opts, err := cli.NewProjectOptions(files,
		cli.WithWorkingDirectory(projectDir),
		cli.WithOsEnv,
		cli.WithEnvFiles(), // the project directory's .env, when there is one
		cli.WithDotEnv,
		cli.WithName(projectName),
		// profiles, else COMPOSE_PROFILES from the environment or .env, as compose does
		cli.WithDefaultProfiles(profiles...),
		cli.WithInterpolation(interpolate),
		cli.WithResolvedPaths(true),
		// env_file is merged by Load, which keeps apart what came from it
		cli.WithoutEnvironmentResolution,
	)
	if err != nil {
		return nil, err
	}
	return opts.LoadProject(ctx)
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
