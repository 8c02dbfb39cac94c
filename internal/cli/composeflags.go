package cli

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/urfave/cli/v2"
)

// A Compose user types docker compose's flags. Those of up, down, ps,
// logs, exec, config and cp that devenv has no flag for are refused here,
// each with the reason in one line (exit 2), never with the flag package's
// bare "flag provided but not defined". TestComposeFlagsAnswered reads
// Compose's own flag set and fails for a flag neither devenv nor this
// table answers.

// refusedFlag is a Compose flag devenv refuses, and why; or, with
// accept, one whose effect devenv has anyway, accepted and ignored.
type refusedFlag struct {
	name, short string
	value       bool // takes a value (--scale app=2), so it is not read as an argument
	accept      bool
	why         string
}

const (
	whyDetached   = "devenv up always runs detached (as up -d) and attaches to no logs: follow them with devenv logs -f"
	whyOneEach    = "devenv runs one container per service (no replicas), so there is no index to pick"
	whyModel      = "devenv config shows devenv's resolved configuration, not a Compose model: `devenv export compose` writes one, which `docker compose -f FILE config` reads"
	whyRecreate   = "devenv recreates exactly the containers whose configuration or image changed (and all with --force-recreate)"
	whyNoReplicas = "devenv runs one container per service: compose's scale and deploy.replicas are not applied"
)

// composeRefusals is made on first use: a map literal costs every start of
// devenv-core (TestInitDoesNoWork).
var composeRefusals = sync.OnceValue(func() map[string][]refusedFlag {
	return map[string][]refusedFlag{
		"up": {
			{name: "scale", value: true, why: whyNoReplicas},
			{name: "no-color", why: whyDetached},
			{name: "no-log-prefix", why: whyDetached},
			{name: "timestamps", why: whyDetached},
			{name: "attach", value: true, why: whyDetached},
			{name: "no-attach", value: true, why: whyDetached},
			{name: "attach-dependencies", why: whyDetached},
			{name: "abort-on-container-exit", why: whyDetached},
			{name: "abort-on-container-failure", why: whyDetached},
			{name: "exit-code-from", value: true, why: whyDetached},
			{name: "menu", why: whyDetached},
			{name: "no-recreate", why: whyRecreate + "; it never keeps a container that no longer matches devenv.yaml"},
			{name: "always-recreate-deps", why: whyRecreate + "; a dependency is recreated only when it changed"},
			{name: "renew-anon-volumes", short: "V", why: "devenv keeps anonymous volumes across a recreate, as Compose does by default; `devenv down -v` then up starts them empty"},
			{name: "quiet-pull", accept: true, why: "devenv prints one line per pull; the progress only with --verbose"},
			{name: "quiet-build", accept: true, why: "devenv prints one line per build; the build output only with --verbose"},
			{name: "yes", short: "y", accept: true, why: "devenv up asks no questions"},
		},
		"ps": {
			{name: "no-trunc", accept: true, why: "devenv ps truncates nothing"},
		},
		"logs": {
			{name: "index", value: true, why: whyOneEach},
			{name: "no-color", accept: true, why: "devenv logs prints no colours"},
		},
		"exec": {
			{name: "index", value: true, why: whyOneEach},
			{name: "privileged", why: "devenv runs its containers unprivileged and does not raise one command's privileges: use docker exec --privileged CONTAINER if you must"},
		},
		"config": {
			{name: "format", value: true, why: whyModel + " (devenv config --json prints devenv's as JSON)"},
			{name: "output", short: "o", value: true, why: whyModel},
			{name: "resolve-image-digests", why: "devenv.lock pins every image by digest already (devenv lock); " + whyModel},
			{name: "lock-image-digests", why: "devenv.lock pins every image by digest already (devenv lock); " + whyModel},
			{name: "no-interpolate", why: whyModel},
			{name: "no-normalize", why: whyModel},
			{name: "no-path-resolution", why: whyModel},
			{name: "no-consistency", why: whyModel},
			{name: "no-env-resolution", why: whyModel},
			{name: "volumes", why: whyModel},
			{name: "networks", why: whyModel},
			{name: "models", why: whyModel},
			{name: "profiles", why: whyModel + "; `devenv profiles` lists devenv's service profiles"},
			{name: "images", why: whyModel + "; `devenv images` lists the project's images"},
			{name: "hash", value: true, why: whyModel},
			{name: "variables", why: whyModel},
			{name: "environment", why: whyModel},
		},
		"cp": {
			{name: "index", value: true, why: whyOneEach},
			{name: "all", accept: true, why: "devenv has no one-off containers (devenv run executes in the service's own): the service's container is all there is"},
			{name: "follow-link", short: "L", why: "devenv cp never follows or writes links (they are listed as skipped)"},
			{name: "archive", short: "a", why: "devenv cp writes the files as you on this machine, not with the container's uid/gid"},
		},
	}
})

// withComposeRefusals gives cmd Compose's flags that it refuses: hidden,
// and answered with their reason before the command runs. A flag the
// command has come to define itself is its own (the table's entry is then
// stale, which TestComposeRefusalsAreComposes says).
func withComposeRefusals(cmd *cli.Command) {
	refused := slices.DeleteFunc(slices.Clone(composeRefusals()[cmd.Name]), func(r refusedFlag) bool {
		return slices.ContainsFunc(cmd.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), r.name) })
	})
	if len(refused) == 0 || cmd.Action == nil {
		return
	}
	for _, r := range refused {
		var aliases []string
		if r.short != "" {
			aliases = []string{r.short}
		}
		if r.value {
			cmd.Flags = append(cmd.Flags, &cli.StringFlag{Name: r.name, Aliases: aliases, Hidden: true})
		} else {
			cmd.Flags = append(cmd.Flags, &cli.BoolFlag{Name: r.name, Aliases: aliases, Hidden: true})
		}
	}
	action := cmd.Action
	cmd.Action = func(c *cli.Context) error {
		for _, r := range refused {
			if c.IsSet(r.name) {
				return refusal(cmd.Name, r)
			}
		}
		return action(c)
	}
}

func refusal(command string, r refusedFlag) error {
	flag := "--" + r.name
	if r.short != "" {
		flag = fmt.Sprintf("-%s/--%s", r.short, r.name)
	}
	return app.Exitf(app.ExitUsage, "devenv %s %s: %s", command, flag, strings.TrimSpace(r.why))
}

// composeRootRefusals are docker compose's own flags (before the verb)
// that devenv has no flag for. --dry-run is Compose's for every verb;
// devenv's up and down have one, the others are refused.
var composeRootRefusals = []refusedFlag{
	{name: "env-file", value: true, why: "devenv reads the project folder's .env for the compose files, as Compose does by default; another env file is not supported"},
	{name: "insecure-registry", value: true, why: "devenv pulls through devenv.yaml's mirrors.registries, not Compose OCI artifacts"},
	{name: "workdir", value: true, why: "it is Compose's old name of --project-directory: use --project-dir (or --project-directory)"},
	{name: "compatibility", why: "devenv has one naming of its objects (PROJECT-SERVICE containers), not Compose v1's"},
	{name: "progress", value: true, why: "devenv prints one line per step: --verbose adds the plain build and pull output, --json makes progress JSON lines"},
	{name: "all-resources", why: "devenv creates the networks and volumes its services use, and no others"},
	{name: "parallel", value: true, why: "devenv pulls, builds and starts what it can side by side, with no limit to set"},
	{name: "ansi", value: true, accept: true, why: "devenv prints no ANSI colours or cursor movements"},
	{name: "no-ansi", accept: true, why: "devenv prints no ANSI colours or cursor movements"},
	{name: "dry-run", why: "only devenv up and down have a dry run"},
}

// dryRunVerbs are the commands Compose's global --dry-run reaches.
var dryRunVerbs = []string{"up", "down"}

// withRootRefusals gives the app Compose's root flags it refuses (hidden)
// and answers them, before the command runs, with their reason.
func withRootRefusals(devenv *cli.App) {
	for _, r := range composeRootRefusals {
		if r.value {
			devenv.Flags = append(devenv.Flags, &cli.StringFlag{Name: r.name, Hidden: true})
		} else {
			devenv.Flags = append(devenv.Flags, &cli.BoolFlag{Name: r.name, Hidden: true})
		}
	}
	devenv.Before = func(c *cli.Context) error {
		for _, r := range composeRootRefusals {
			if r.accept || !c.IsSet(r.name) || (r.name == "dry-run" && slices.Contains(dryRunVerbs, c.Args().First())) {
				continue
			}
			return app.Exitf(app.ExitUsage, "devenv --%s: %s", r.name, r.why)
		}
		return nil
	}
}
