package compose

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/hashicorp/go-multierror"
)

// Load reads the project's compose files with compose-go: variables are
// interpolated from the environment and the project's .env, services
// outside the active profiles (profiles; when none are given,
// COMPOSE_PROFILES from the environment or .env; "*" for all) are dropped, env_file is merged into the
// environment and relative paths are made absolute against projectDir.
// It returns the services sorted by name. Every problem of every service is
// reported at once, each naming the compose file, the service and the fix.
func Load(ctx context.Context, files []string, projectDir, projectName string, profiles []string) ([]Service, error) {
	if len(files) == 0 {
		return nil, nil
	}
	proj, err := loadProject(ctx, files, projectDir, projectName, profiles)
	if err != nil {
		return nil, fmt.Errorf("compose files %s: %w; `docker compose config` shows the same problem, fix it in the file", strings.Join(files, ", "), err)
	}
	resolved, err := proj.WithServicesEnvironmentResolved(false)
	if err != nil {
		return nil, fmt.Errorf("compose files %s: %w; fix the env_file it names", strings.Join(files, ", "), err)
	}
	pos := readPositions(files, projectDir)
	var errs *multierror.Error
	out := make([]Service, 0, len(proj.Services))
	for _, name := range sortedNames(resolved.Services) {
		svc, problems := convert(resolved.Services[name], pos)
		svc.EnvFiles, svc.EnvFromFiles = envFileKeys(proj.Services[name], resolved.Services[name])
		for _, p := range problems {
			errs = multierror.Append(errs, fmt.Errorf("%s", p))
		}
		out = append(out, svc)
	}
	if err := errs.ErrorOrNil(); err != nil {
		errs.ErrorFormat = listErrors
		return nil, err
	}
	return out, nil
}

func loadProject(ctx context.Context, files []string, projectDir, projectName string, profiles []string) (*types.Project, error) {
	return loadProjectWith(ctx, files, projectDir, projectName, profiles, true)
}

// RawEnvironment is each service's environment entries as the compose files
// write them, for the entries that refer to variables (`${VAR}`). Exports
// write these instead of the values, so docker compose reads .env and the
// shell when it runs the export and devenv never copies a value from them
// into a file. Files that load only after interpolation (a `${N}` where a
// number must be) give no raw entries.
func RawEnvironment(ctx context.Context, files []string, projectDir, projectName string) map[string]map[string]string {
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

// listErrors renders every problem on its own line.
func listErrors(errs []error) string {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = "  " + e.Error()
	}
	return fmt.Sprintf("%d problem(s) in the compose files:\n%s", len(errs), strings.Join(lines, "\n"))
}
