package loader

import (
	"maps"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
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
	{"pull_policy", func(s types.ServiceConfig) bool { return pullsAgain(s.PullPolicy) }, false,
		"devenv runs the image devenv.lock pins, pulled only when the engine lacks it; run devenv lock for a newer one, or devenv up --pull always"},
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

// defaultNetworkKeys are the settings of a compose file's networks.default
// that devenv does not apply: the project network is devenv's own (named
// after the project, with devenv's labels) unless the file declares it
// external, and only its name is read from the file.
var defaultNetworkKeys = []struct {
	key string
	set func(n types.NetworkConfig) bool
}{
	{"driver", func(n types.NetworkConfig) bool { return n.Driver != "" }},
	{"driver_opts", func(n types.NetworkConfig) bool { return len(n.DriverOpts) > 0 }},
	{"ipam", func(n types.NetworkConfig) bool {
		return n.Ipam.Driver != "" || len(n.Ipam.Config) > 0 || len(n.Ipam.Options) > 0
	}},
	{"internal", func(n types.NetworkConfig) bool { return n.Internal }},
	{"attachable", func(n types.NetworkConfig) bool { return n.Attachable }},
	{"labels", func(n types.NetworkConfig) bool { return len(n.Labels) > 0 }},
	{"enable_ipv4", func(n types.NetworkConfig) bool { return n.EnableIPv4 != nil }},
	{"enable_ipv6", func(n types.NetworkConfig) bool { return n.EnableIPv6 != nil }},
}

// unappliedDefaultNetwork warns, at the service, once for each setting
// of networks.default that devenv drops, for a service on that network.
func unappliedDefaultNetwork(proj *types.Project, s types.ServiceConfig, pos *positions) []string {
	n, ok := proj.Networks[compose.DefaultNetwork]
	if _, joins := s.Networks[compose.DefaultNetwork]; !ok || !joins || bool(n.External) {
		return nil
	}
	var warns []string
	for _, k := range defaultNetworkKeys {
		if k.set(n) {
			warns = append(warns, pos.problem(s.Name, "", "networks.default.%s is not applied: the project network is devenv's (named after the project); declare networks.default external: true with a name: to run on a network of your own", k.key))
		}
	}
	return warns
}

// devenvLabelPrefix is the namespace of the labels devenv writes.
const devenvLabelPrefix = "dev.devenv."

// devenvLabels warns for each label of the service in devenv's own
// namespace (dev.devenv.*): devenv writes those labels itself, over the
// file's values, and finds its containers, networks and volumes by them.
func devenvLabels(s types.ServiceConfig, pos *positions) []string {
	var warns []string
	for _, k := range slices.Sorted(maps.Keys(s.Labels)) {
		if strings.HasPrefix(k, devenvLabelPrefix) {
			warns = append(warns, pos.problem(s.Name, "labels", "label %s is in devenv's namespace: devenv writes its own %s* labels over the file's values and finds its objects by them; rename the label", k, devenvLabelPrefix))
		}
	}
	return warns
}

// pullsAgain: a pull_policy by which Compose pulls an image it already has
// (always, daily, weekly, every_<duration>, refresh).
func pullsAgain(policy string) bool {
	switch policy {
	case "always", "daily", "weekly", "refresh":
		return true
	}
	return strings.HasPrefix(policy, "every_")
}
