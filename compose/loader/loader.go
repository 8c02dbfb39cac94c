// Package loader loads a project's compose files with compose-go's loader
// and translates their services into compose.Service: the one devenv
// package that calls compose-go's cli and loader packages. Package compose
// holds the types; every command that reads compose files does it here, in
// devenv's own process, through one Files per command (files.go), which
// reads the files once whatever the command asks of them; Load and
// RawEnvironment read them for one question.
//
// compose-go compiles its JSON schema once per process, on the first load
// (sync.Once in compose-go/schema).
package loader

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/hashicorp/go-multierror"
)

// Load reads the project's compose files with compose-go: variables are
// interpolated from the environment and the project's .env, services
// outside the active profiles (profiles; when none are given,
// COMPOSE_PROFILES from the environment or .env; "*" for all) are dropped,
// env_file is merged into the environment and relative paths are made
// absolute against projectDir. It returns the services sorted by name.
// Every problem of every service is reported at once, each naming the
// compose file, its line, the service and the fix. When ctx ends first it
// returns ctx's error at once.
//
// Load reads the files for this one question; a command that asks several
// (lock check, plan, port checks) shares one Files, which reads them once.
func Load(ctx context.Context, files []string, projectDir, projectName string, profiles []string) ([]compose.Service, error) {
	return NewFiles(files, projectDir, projectName).Services(ctx, profiles)
}

// RawEnvironment is each service's environment entries as the compose files
// write them, for the entries that refer to variables (`${VAR}`). Exports
// write these instead of the values, so docker compose reads .env and the
// shell when it runs the export and devenv never copies a value from them
// into a file. Files that load only after interpolation (a `${N}` where a
// number must be) give no raw entries. The only error is ctx's end: an
// export must then stop rather than write the values.
func RawEnvironment(ctx context.Context, files []string, projectDir, projectName string) (map[string]map[string]string, error) {
	return NewFiles(files, projectDir, projectName).RawEnvironment(ctx)
}

// untilDone runs f and returns its result, or ctx's error as soon as ctx
// ends: compose-go does not watch the context, so a load in flight is left
// to finish (it reads local files and ends by itself) and its result
// dropped.
func untilDone[T any](ctx context.Context, f func() T) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, loadCancelled(ctx)
	}
	ch := make(chan T, 1)
	go func() { ch <- f() }()
	select {
	case v := <-ch:
		return v, nil
	case <-ctx.Done():
		return zero, loadCancelled(ctx)
	}
}

func loadCancelled(ctx context.Context) error {
	return fmt.Errorf("loading compose files: %w", ctx.Err())
}

// problemList is every problem of the files as one error, each on its own
// line.
func problemList(problems []string) error {
	var errs *multierror.Error
	for _, p := range problems {
		errs = multierror.Append(errs, errors.New(p))
	}
	errs.ErrorFormat = listErrors
	// a file devenv.yaml names is invalid: exit 2, as for devenv.yaml
	return exitcode.With(exitcode.Usage, errs)
}

func listErrors(errs []error) string {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = "  " + e.Error()
	}
	return fmt.Sprintf("%d problem(s) in the compose files:\n%s", len(errs), strings.Join(lines, "\n"))
}
