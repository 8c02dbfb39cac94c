package loader

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/readset"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
)

// Files are one project's compose files as one command sees them. The
// first question reads them with compose-go (files, include, extends,
// .env, interpolation, schema): once, whatever is asked after. Each
// profile selection asked (lock wants every profile, the plan the active
// ones) is then made from that one read by compose-go's ModelToProject,
// which applies profiles and checks consistency exactly as a load with
// those profiles does, and is kept. The services returned are made anew
// for every call (env_file read again, converted from a copy), so a
// caller may change what it gets.
//
// internal/app makes one per opened project and hands it to lock, plan,
// doctor and the exports; packages take it as an optional *Files, where
// nil means "load now" (For). A Files is safe for concurrent use.
type Files struct {
	files     []string
	dir, name string
	profiles  []string // the command's --profile: the active selection where given

	mu       sync.Mutex
	models   map[bool]*modelResult // by interpolation
	projects map[string]*projectResult
	pos      *positions
	stats    Stats
	reads    *readset.Set // Recording
}

// Stats count the work a Files did: tests hold a command to one read of
// the files.
type Stats struct {
	// Reads is how often compose-go read, interpolated and merged the
	// files: once with interpolation, once more without for
	// RawEnvironment (an export's ${VAR} entries as written).
	Reads int
	// Selections is how many profile selections were made from the reads.
	Selections int
}

// reads counts the reads of compose files in this process, every Files'
// and the package functions', for tests that hold a whole command to one
// read, including the packages that could read without the command's
// Files (ProcessReads). A count only: nothing read is kept outside a Files.
var reads atomic.Int64

// ProcessReads is how often compose-go read compose files in this
// process so far (Stats.Reads of every Files together).
func ProcessReads() int64 { return reads.Load() }

type modelResult struct {
	m   *model
	err error
}

type projectResult struct {
	proj *types.Project
	err  error
}

// NewFiles is the compose files of a project, in projectDir, named
// projectName; nothing is read until asked.
func NewFiles(files []string, projectDir, projectName string) *Files {
	return &Files{files: slices.Clone(files), dir: projectDir, name: projectName}
}

// For is f when it holds exactly these files of this project, else a new
// Files for them with f's profiles: nil (the caller has none) loads now.
func (f *Files) For(files []string, projectDir, projectName string) *Files {
	if f != nil && slices.Equal(f.files, files) && f.dir == projectDir && f.name == projectName {
		return f
	}
	n := NewFiles(files, projectDir, projectName)
	if f != nil {
		n.profiles = f.profiles
	}
	return n
}

// Selecting is f, unread, for a command that enables these compose
// profiles (--profile): its active selection is them, where COMPOSE_PROFILES
// (the environment's, then .env's) picks it otherwise, as Compose does.
// Nothing process-wide carries the flag.
func (f *Files) Selecting(profiles []string) *Files {
	n := NewFiles(f.files, f.dir, f.name)
	n.profiles = slices.Clone(profiles)
	return n
}

// selected is the selection a question asks: profiles where given, else
// the command's --profile, else nil (COMPOSE_PROFILES).
func (f *Files) selected(profiles []string) []string {
	if profiles == nil && len(f.profiles) > 0 {
		return f.profiles
	}
	return profiles
}

// Stats is what f did so far.
func (f *Files) Stats() Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stats
}

// Services are the services of the profiles selected, as Load returns
// them. profiles nil is the active profiles, the selection a command runs:
// services of it that share a container_name are refused, as Compose
// refuses them; an explicit list (the lock's "*") is not checked.
func (f *Files) Services(ctx context.Context, profiles []string) ([]compose.Service, error) {
	if len(f.files) == 0 {
		return nil, nil
	}
	type result struct {
		svcs     []compose.Service
		problems []string
		err      error
	}
	r, err := untilDone(ctx, func() result {
		svcs, problems, err := f.services(ctx, profiles)
		return result{svcs, problems, err}
	})
	switch {
	case err != nil:
		return nil, err
	case r.err != nil:
		return nil, r.err
	case len(r.problems) > 0:
		return nil, problemList(r.problems)
	}
	return r.svcs, nil
}

// RawEnvironment is what the package's RawEnvironment returns, from a
// read without interpolation (the ${VAR} of an entry is gone from the
// interpolated one), made once.
func (f *Files) RawEnvironment(ctx context.Context) (map[string]map[string]string, error) {
	return f.raw(ctx, rawEnvironment)
}

// RawBuildArgs is each service's build args that refer to variables, as
// the files write them, from the same read as RawEnvironment.
func (f *Files) RawBuildArgs(ctx context.Context) (map[string]map[string]string, error) {
	return f.raw(ctx, rawBuildArgs)
}

// raw is pick of the files' project read with every profile and without
// interpolation; files that do not load give nothing.
func (f *Files) raw(ctx context.Context, pick func(*types.Project) map[string]map[string]string) (map[string]map[string]string, error) {
	return untilDone(ctx, func() map[string]map[string]string {
		f.mu.Lock()
		defer f.mu.Unlock()
		proj, err := f.project(ctx, false, []string{"*"})
		if err != nil {
			return nil
		}
		return pick(proj)
	})
}

// ActiveProfiles are the profiles the active selection enables (Services
// with nil): --profile or COMPOSE_PROFILES of the environment, else of
// .env, each once and in their order; "*" for every profile. Files that
// do not load give none.
func (f *Files) ActiveProfiles(ctx context.Context) []string {
	if len(f.files) == 0 {
		return nil
	}
	ps, _ := untilDone(ctx, func() []string {
		f.mu.Lock()
		defer f.mu.Unlock()
		proj, err := f.project(ctx, true, f.selected(nil))
		if err != nil {
			return nil
		}
		var out []string
		for _, p := range proj.Profiles {
			if p = strings.TrimSpace(p); p != "" && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
		return out
	})
	return ps
}

// services is Services without the watch on ctx.
func (f *Files) services(ctx context.Context, profiles []string) ([]compose.Service, []string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	proj, err := f.project(ctx, true, f.selected(profiles))
	if ps := schemaProblems(f.files, f.dir, err); len(ps) > 0 {
		return nil, ps, nil
	}
	if err != nil {
		err = fmt.Errorf("compose files %s: %w; `docker compose config` shows the same problem, fix it in the file", strings.Join(f.files, ", "), err)
		if ctx.Err() != nil {
			return nil, nil, err
		}
		// a file devenv.yaml names is invalid: exit 2, as for devenv.yaml
		return nil, nil, exitcode.With(exitcode.Usage, err)
	}
	if f.pos == nil {
		f.pos = readPositions(f.files, f.dir)
	}
	return convertProject(proj, f.files, f.pos, profiles == nil)
}

// project is the compose-go project of the profiles selected, made once
// per selection from the one read of the files. The caller holds f.mu.
// A project without a name is loaded by compose-go's cli in one call per
// selection: cli names it from the files or the directory.
func (f *Files) project(ctx context.Context, interpolate bool, profiles []string) (*types.Project, error) {
	if f.projects == nil {
		f.projects, f.models = map[string]*projectResult{}, map[bool]*modelResult{}
	}
	if f.name == "" {
		key := selectionKey(interpolate, profiles)
		if r, ok := f.projects[key]; ok {
			return r.proj, r.err
		}
		f.stats.Reads++
		f.stats.Selections++
		reads.Add(1)
		proj, err := cliProject(ctx, f.files, f.dir, f.name, profiles, interpolate)
		recordRead(f.reads, proj)
		f.projects[key] = &projectResult{proj, err}
		return proj, err
	}
	mr, ok := f.models[interpolate]
	if !ok {
		f.stats.Reads++
		reads.Add(1)
		m, err := readModel(ctx, f.files, f.dir, f.name, interpolate)
		mr = &modelResult{m, err}
		f.models[interpolate] = mr
	}
	if mr.err != nil {
		return nil, mr.err
	}
	selected := mr.m.selection(profiles)
	key := selectionKey(interpolate, selected)
	if r, ok := f.projects[key]; ok {
		return r.proj, r.err
	}
	f.stats.Selections++
	proj, err := mr.m.project(selected)
	recordRead(f.reads, proj)
	f.projects[key] = &projectResult{proj, err}
	return proj, err
}

func selectionKey(interpolate bool, profiles []string) string {
	return strconv.FormatBool(interpolate) + "\x00" + strings.Join(profiles, "\x00")
}
