package loader

import (
	"context"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/consts"
	cgloader "github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose-spec/compose-go/v2/utils"
	"github.com/devenv-dev/devenv/internal/projpath"
)

// model is the compose files as compose-go read, interpolated (or not),
// merged (include, extends, overrides), validated against the schema and
// normalized them: everything of a load that does not depend on profiles,
// so that every profile selection is made from one read of the files.
type model struct {
	env     types.Mapping // the OS's environment, then the project's .env
	details types.ConfigDetails
	options []func(*cgloader.Options)
	dict    map[string]any
}

// readModel reads the files as cli.ProjectOptions.LoadProject does with
// the options cliProject passes (the same environment, .env, working
// directory and name), and stops before profiles are applied: compose-go's
// LoadProject is LoadModelWithContext followed by ModelToProject, and
// only the second depends on the profiles. projectName must not be empty
// (cli then names the project from the files or the directory; Files uses
// cliProject for that).
func readModel(ctx context.Context, files []string, projectDir, projectName string, interpolate bool) (*model, error) {
	o, err := cliOptions(files, projectDir, projectName)
	if err != nil {
		return nil, err
	}
	wd, err := o.GetWorkingDir()
	if err != nil {
		return nil, err
	}
	read, err := o.ReadConfigFiles(ctx, wd, o)
	if err != nil {
		return nil, err
	}
	m := &model{env: o.Environment, options: loadOptions(o, interpolate),
		details: types.ConfigDetails{ConfigFiles: read.ConfigFiles, WorkingDir: read.WorkingDir, Environment: o.Environment}}
	if m.dict, err = cgloader.LoadModelWithContext(ctx, m.details, m.options...); err != nil {
		return nil, err
	}
	return m, nil
}

// loadOptions are the loader options cli hands compose-go's loader for
// cliProject's options, profiles aside: WithInterpolation,
// WithResolvedPaths(true) and WithoutEnvironmentResolution, then what
// LoadProject's prepare adds for a project with a name: the name, taken
// as explicit, and Windows paths (COMPOSE_CONVERT_WINDOWS_PATHS).
// TestModelIsCLILoad holds the two paths to the same projects.
func loadOptions(o *cli.ProjectOptions, interpolate bool) []func(*cgloader.Options) {
	return []func(*cgloader.Options){func(lo *cgloader.Options) {
		lo.SkipInterpolation = !interpolate
		lo.ResolvePaths = true
		lo.SkipResolveEnvironment = true
		lo.SetProjectName(o.Name, true)
		lo.ConvertWindowsPaths = utils.StringToBool(o.Environment["COMPOSE_CONVERT_WINDOWS_PATHS"])
	}}
}

// selection is the profiles a load asked for profiles enables, as
// cli.WithDefaultProfiles picks them: profiles, else COMPOSE_PROFILES of
// the environment the files were read with (the OS's, then .env).
func (m *model) selection(profiles []string) []string {
	if len(profiles) > 0 {
		return profiles
	}
	var out []string
	for _, s := range strings.Split(m.env[consts.ComposeProfiles], ",") {
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

// project is the model with profiles applied, by compose-go's own
// ModelToProject: services outside the profiles disabled, then the
// consistency checks (a depends_on on a disabled service, an undefined
// network...) on the services left, as a load with these profiles makes
// it. ModelToProject changes the map it is given (x- keys move), so it
// gets a copy and the model stays as read.
func (m *model) project(profiles []string) (*types.Project, error) {
	opts := cgloader.ToOptions(&m.details, append(slices.Clone(m.options), cgloader.WithProfiles(profiles)))
	proj, err := cgloader.ModelToProject(copyTree(m.dict).(map[string]any), opts, m.details)
	if err != nil {
		return nil, err
	}
	for _, f := range m.details.ConfigFiles {
		proj.ComposeFiles = append(proj.ComposeFiles, f.Filename)
	}
	return proj, nil
}

// copyTree copies a YAML tree of maps and lists; the leaves (strings,
// numbers, booleans) are values.
func copyTree(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = copyTree(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = copyTree(x)
		}
		return out
	}
	return v
}

// cliOptions are the options of compose-go's cli that both readModel and
// cliProject load with (the same environment, .env, working directory and
// name), then more.
func cliOptions(files []string, projectDir, projectName string, more ...cli.ProjectOptionsFn) (*cli.ProjectOptions, error) {
	return cli.NewProjectOptions(files, append([]cli.ProjectOptionsFn{
		cli.WithWorkingDirectory(projpath.ComposeDir(files, projectDir)),
		cli.WithOsEnv,
		cli.WithEnvFiles(), // the project directory's .env, when there is one
		cli.WithDotEnv,
		cli.WithName(projectName),
	}, more...)...)
}

// cliProject is compose-go's own one-call load through its cli package:
// what readModel and project split in two, and what Files uses for a
// project without a name.
func cliProject(ctx context.Context, files []string, projectDir, projectName string, profiles []string, interpolate bool) (*types.Project, error) {
	opts, err := cliOptions(files, projectDir, projectName,
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
