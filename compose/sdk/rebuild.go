package sdk

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/docker/compose/v5/pkg/api"
	"github.com/docker/compose/v5/pkg/watch"
)

// rebuildRule is one develop.watch rebuild rule, matched as the SDK
// matches its rules: a file under path, among include (every file when
// the rule names none), and not ignored by the rule's ignore patterns,
// the build context's .dockerignore or editors' temporary files; nor
// under a .git.
type rebuildRule struct {
	service string
	path    string
	include watch.PathMatcher
	ignore  watch.PathMatcher
}

// newRebuildRule is t, a rebuild rule of s; dir is the project
// directory, which errors name paths from.
func newRebuildRule(s types.ServiceConfig, t types.Trigger, dir string) (rebuildRule, error) {
	if s.Build == nil {
		return rebuildRule{}, fmt.Errorf("develop.watch of %s: the rebuild rule of %s needs a build: section to build the image from; add one, or use sync or restart", s.Name, relTo(dir, t.Path))
	}
	r := rebuildRule{service: s.Name, path: t.Path, include: watch.AnyMatcher{}}
	dockerignore, err := watch.LoadDockerIgnore(s.Build)
	if err != nil {
		return r, fmt.Errorf("develop.watch of %s: %w", s.Name, err)
	}
	// the SDK means to ignore .git too, but its pattern is rooted at / and
	// so ignores only /.git: here a .git anywhere under the rule's path is
	// ignored, so a commit rebuilds nothing
	git, err := watch.NewDockerPatternMatcher(t.Path, []string{"**/.git"})
	if err != nil {
		return r, err
	}
	own, err := watch.NewDockerPatternMatcher(t.Path, t.Ignore)
	if err != nil {
		return r, fmt.Errorf("develop.watch of %s: the ignore patterns of %s: %w", s.Name, relTo(dir, t.Path), err)
	}
	r.ignore = watch.NewCompositeMatcher(dockerignore, watch.EphemeralPathMatcher(), git, own)
	if len(t.Include) > 0 {
		if r.include, err = watch.NewDockerPatternMatcher(t.Path, t.Include); err != nil {
			return r, fmt.Errorf("develop.watch of %s: the include patterns of %s: %w", s.Name, relTo(dir, t.Path), err)
		}
	}
	return r, nil
}

// matches reports whether a change of file is one for the rule.
func (r rebuildRule) matches(file string) bool {
	rel, err := filepath.Rel(r.path, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	included, err := r.include.Matches(file)
	if err != nil || !included {
		return false
	}
	ignored, err := r.ignore.Matches(file)
	return err == nil && !ignored
}

// rebuildsOf are the services whose rules a batch of changes matches,
// sorted, each with the files that matched and the rules' paths.
func rebuildsOf(rules []rebuildRule, batch []watch.FileEvent) (services []string, files map[string]int, paths map[string][]string) {
	files, paths = map[string]int{}, map[string][]string{}
	for _, ev := range batch {
		seen := map[string]bool{}
		for _, r := range rules {
			if !r.matches(string(ev)) {
				continue
			}
			if !slices.Contains(paths[r.service], r.path) {
				paths[r.service] = append(paths[r.service], r.path)
			}
			if !seen[r.service] {
				seen[r.service] = true
				files[r.service]++
			}
		}
	}
	for s := range files {
		services = append(services, s)
	}
	slices.Sort(services)
	return services, files, paths
}

// watchRebuilds watches the rules' paths (started before it returns, so a
// change made after is seen) and, until ctx ends, hands the services a
// batch of changes concerns to rebuild, one rebuild at a time: changes made
// during one are batched for the next. A failed rebuild is warned and the
// watch goes on with the old container.
func watchRebuilds(ctx context.Context, rules []rebuildRule, rebuild func(context.Context, []string) error, log *watchLog) (wait func() error, err error) {
	if rebuild == nil {
		return nil, fmt.Errorf("develop.watch: rebuild rules of %s, and nothing to rebuild with", rules[0].service)
	}
	var paths []string
	for _, r := range rules {
		if !slices.Contains(paths, r.path) {
			paths = append(paths, r.path)
		}
	}
	n, err := watch.NewWatcher(paths)
	if err != nil {
		return nil, fmt.Errorf("develop.watch: watch %s: %w", strings.Join(paths, ", "), err)
	}
	if err := n.Start(); err != nil {
		return nil, fmt.Errorf("develop.watch: watch %s: %w", strings.Join(paths, ", "), err)
	}
	return func() error {
		defer func() { _ = n.Close() }()
		batches := watch.BatchDebounceEvents(ctx, n.Events())
		defer func() {
			go func() {
				for range batches { // until the debouncer sees ctx end
				}
			}()
		}()
		for {
			select {
			case <-ctx.Done():
				return nil
			case err, open := <-n.Errors():
				if !open {
					return nil
				}
				return fmt.Errorf("develop.watch: watching the rebuild rules' paths: %w", err)
			case batch, ok := <-batches:
				if !ok {
					return nil
				}
				rebuildBatch(ctx, rules, batch, rebuild, log)
			}
		}
	}, nil
}

// rebuildBatch rebuilds the services batch concerns, saying so.
func rebuildBatch(ctx context.Context, rules []rebuildRule, batch []watch.FileEvent, rebuild func(context.Context, []string) error, log *watchLog) {
	services, files, paths := rebuildsOf(rules, batch)
	if len(services) == 0 {
		return
	}
	for _, s := range services {
		var rel []string
		for _, p := range paths[s] {
			rel = append(rel, log.rel(p))
		}
		log.Log(api.WatchLogger, fmt.Sprintf("%d file(s) changed under %s; rebuilding %s", files[s], strings.Join(rel, ", "), s))
	}
	if err := rebuild(ctx, services); err != nil && ctx.Err() == nil {
		log.Err(api.WatchLogger, fmt.Sprintf("rebuilding %s: %v; still watching, with the container as it was", strings.Join(services, ", "), err))
	}
}
