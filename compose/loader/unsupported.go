package loader

import (
	"github.com/compose-spec/compose-go/v2/types"
)

// check is one compose key devenv does not apply as compose would.
type check struct {
	key    string
	set    func(s types.ServiceConfig) bool
	fatal  bool   // an error rather than a warning: running without it would behave differently
	advice string // what to do
}

// checks lists the keys devenv does not run as Compose would. Every other
// key reaches the Compose SDK as compose-go loaded it (compose/project
// renders compose services from compose-go's own value). Errors are keys
// whose absence would make the service behave differently in ways a
// person would not notice until it broke; warnings say what differs.
var checks = []check{
	{"scale", func(s types.ServiceConfig) bool { return s.Scale != nil && *s.Scale > 1 }, true,
		"devenv runs one container per service (exec, logs and jobs name it); remove scale or define one service per replica"},
	{"deploy", func(s types.ServiceConfig) bool {
		return s.Deploy != nil && s.Deploy.Replicas != nil && *s.Deploy.Replicas > 1
	}, true, "devenv runs one container per service (exec, logs and jobs name it); remove deploy.replicas"},
}

// checkKeys reports the unsupported keys service sets: errors and warnings.
func checkKeys(s types.ServiceConfig, pos *positions) (errs, warns []string) {
	for _, c := range checks {
		if !c.set(s) {
			continue
		}
		if c.fatal {
			errs = append(errs, pos.problem(s.Name, c.key, "%s is not supported: %s", c.key, c.advice))
			continue
		}
		warns = append(warns, pos.problem(s.Name, c.key, "%s works differently from Compose: %s", c.key, c.advice))
	}
	return errs, warns
}

// buildKeys are the build: keys compose-go accepts that devenv's builder
// does not apply: it builds a compose service's image itself (FROM the
// images the lock pins) from context, dockerfile or dockerfile_inline,
// args and target, as images.Input holds them.
var buildKeys = []struct {
	key string
	set func(b *types.BuildConfig) bool
}{
	{"ssh", func(b *types.BuildConfig) bool { return len(b.SSH) > 0 }},
	{"secrets", func(b *types.BuildConfig) bool { return len(b.Secrets) > 0 }},
	{"additional_contexts", func(b *types.BuildConfig) bool { return len(b.AdditionalContexts) > 0 }},
	{"cache_from", func(b *types.BuildConfig) bool { return len(b.CacheFrom) > 0 }},
	{"cache_to", func(b *types.BuildConfig) bool { return len(b.CacheTo) > 0 }},
	{"no_cache", func(b *types.BuildConfig) bool { return b.NoCache }},
	{"no_cache_filter", func(b *types.BuildConfig) bool { return len(b.NoCacheFilter) > 0 }},
	{"pull", func(b *types.BuildConfig) bool { return b.Pull }},
	{"platforms", func(b *types.BuildConfig) bool { return len(b.Platforms) > 0 }},
	{"network", func(b *types.BuildConfig) bool { return b.Network != "" }},
	{"extra_hosts", func(b *types.BuildConfig) bool { return len(b.ExtraHosts) > 0 }},
	{"shm_size", func(b *types.BuildConfig) bool { return b.ShmSize != 0 }},
	{"ulimits", func(b *types.BuildConfig) bool { return len(b.Ulimits) > 0 }},
	{"labels", func(b *types.BuildConfig) bool { return len(b.Labels) > 0 }},
	{"tags", func(b *types.BuildConfig) bool { return len(b.Tags) > 0 }},
	{"isolation", func(b *types.BuildConfig) bool { return b.Isolation != "" }},
	{"privileged", func(b *types.BuildConfig) bool { return b.Privileged }},
	{"entitlements", func(b *types.BuildConfig) bool { return len(b.Entitlements) > 0 }},
	{"provenance", func(b *types.BuildConfig) bool { return b.Provenance != "" }},
	{"sbom", func(b *types.BuildConfig) bool { return b.SBOM != "" }},
}

// unappliedBuildKeys warns, at the service's build: key, once for each
// build key of buildKeys that it sets.
func unappliedBuildKeys(s types.ServiceConfig, pos *positions) []string {
	if s.Build == nil {
		return nil
	}
	var warns []string
	for _, k := range buildKeys {
		if k.set(s.Build) {
			warns = append(warns, pos.problem(s.Name, "build", "build.%s is not applied: devenv builds the image itself from build.context, dockerfile (or dockerfile_inline), args and target; remove it, or build the image with docker compose build and name it in image:", k.key))
		}
	}
	return warns
}
