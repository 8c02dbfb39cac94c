package cli

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"
)

// Global flags are accepted before and after the command name
// (`devenv --json config` and `devenv config --json`).
func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "file", Aliases: []string{"f"}, Usage: "devenv.yaml to use (default: PROJECT-DIR/devenv.yaml); after a command name only --file (logs -f is follow)"},
		&cli.StringFlag{Name: "project-dir", Aliases: []string{"project-directory"}, Usage: "the project directory (default: the directory holding devenv.yaml, searched upwards from here)"},
		&cli.StringFlag{Name: "project-name", Aliases: []string{"p"}, Usage: "the project's name, instead of devenv.yaml's name: (its containers, network and volumes are named after it)"},
		&cli.BoolFlag{Name: "json", Usage: "print results as JSON on stdout and progress as JSON lines on stderr"},
		&cli.BoolFlag{Name: "debug", Usage: "print debugging detail and error chains"},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "show build output and progress in plain mode (-v alone prints the version, as docker -v; after a command name -v is the command's: down -v is --volumes, as with Compose)"},
		&cli.BoolFlag{Name: "version", Usage: "print devenv's version"},
		&cli.StringFlag{Name: "context", Usage: "the docker `CONTEXT` to use (default: $DOCKER_CONTEXT, else `docker context use`'s)"},
		&cli.StringFlag{Name: "host", Aliases: []string{"H"}, Usage: "the Docker Engine's `ADDRESS` (unix://, tcp:// or ssh://user@host; default: $DOCKER_HOST)"},
		composeProfileFlag(),
	}
}

// composeProfileFlag is docker compose's --profile: compose profiles to
// enable, before the command name (`devenv --profile debug up`) and after
// up's; without it COMPOSE_PROFILES applies, as with compose.
func composeProfileFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "profile", Usage: "enable the compose `PROFILE` (repeatable; default: $COMPOSE_PROFILES)"}
}

// composeProfiles are the --profile values for the compose loader, which
// applies them as compose does (the flag wins over COMPOSE_PROFILES). Each
// profile is named once, in the order given from the outermost command
// in: a level of the lineage also sees its parents' values.
func composeProfiles(c *cli.Context) []string {
	var ps []string
	lineage := c.Lineage()
	for i := len(lineage) - 1; i >= 0; i-- {
		for _, p := range lineage[i].StringSlice("profile") { // nil for init's own --profile
			if !slices.Contains(ps, p) {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// localCopies are the global flags as a command accepts them after its
// name. Only the long form names the file there: -f belongs to the command
// (`devenv logs -f` follows, as with docker compose).
func localCopies() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "file", Hidden: true},
		&cli.StringFlag{Name: "project-dir", Aliases: []string{"project-directory"}, Hidden: true},
		&cli.StringFlag{Name: "project-name", Aliases: []string{"p"}, Hidden: true},
		&cli.BoolFlag{Name: "json", Usage: "print results as JSON"},
		&cli.BoolFlag{Name: "debug", Hidden: true},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Hidden: true},
		&cli.StringFlag{Name: "context", Hidden: true},
	}
}

// localCopiesFor are the local copies a command with these flags takes:
// a short name the command gives a flag of its own is the command's (down
// -v is --volumes, as with Compose; --verbose stays).
func localCopiesFor(own []cli.Flag) []cli.Flag {
	taken := map[string]bool{}
	for _, f := range own {
		for _, n := range f.Names() {
			taken[n] = true
		}
	}
	var out []cli.Flag
	for _, f := range localCopies() {
		if b, ok := f.(*cli.BoolFlag); ok {
			b.Aliases = slices.DeleteFunc(b.Aliases, func(a string) bool { return taken[a] })
		}
		if s, ok := f.(*cli.StringFlag); ok {
			s.Aliases = slices.DeleteFunc(s.Aliases, func(a string) bool { return taken[a] })
		}
		if !taken[f.Names()[0]] {
			out = append(out, f)
		}
	}
	return out
}

// boolOpt is true when the flag was set at any level (command or global).
func boolOpt(c *cli.Context, name string) bool {
	for _, cc := range c.Lineage() {
		if cc.IsSet(name) && cc.Bool(name) {
			return true
		}
	}
	return false
}

// stringOpt is the innermost value set for a flag at any level.
func stringOpt(c *cli.Context, name string) string {
	for _, cc := range c.Lineage() {
		if cc.IsSet(name) {
			return cc.String(name)
		}
	}
	return ""
}

// pullPolicy is up's --pull as Compose spells it: bare (always), or one
// of always, missing (what up does anyway) and never. Compose's `build`
// policy is refused: devenv builds what changed on every up.
type pullPolicy struct{ value string }

func (p *pullPolicy) Set(v string) error {
	switch v {
	case "true", "always":
		p.value = "always"
	case "false", "missing", "":
		p.value = "missing"
	case "never":
		p.value = "never"
	case "build":
		return fmt.Errorf("--pull build: devenv builds the images whose inputs changed on every up; use --pull always, missing or never")
	default:
		return fmt.Errorf("--pull %q: use always, missing or never (bare --pull is always)", v)
	}
	return nil
}

func (p *pullPolicy) String() string    { return p.value }
func (p *pullPolicy) IsBoolFlag() bool  { return true }
func (p *pullPolicy) Choices() []string { return []string{"always", "missing", "never", "build"} }

// pullOf is the --pull policy given to c ("missing" when none was).
func pullOf(c *cli.Context) string {
	if p, ok := c.Generic("pull").(*pullPolicy); ok && p.value != "" {
		return p.value
	}
	return "missing"
}

// rmiPolicy is down's --rmi as Compose spells it: local (bare --rmi, as
// devenv had it) removes the images devenv built for the project, which
// carry its labels and no tag of the user's. all is refused: it would add
// the pulled images, which devenv did not label and another project or
// docker run may use.
type rmiPolicy struct{ value string }

func (p *rmiPolicy) Set(v string) error {
	switch v {
	case "true", "local", "":
		p.value = "local"
	case "all":
		return fmt.Errorf("--rmi all: devenv removes only the images it built and labelled for the project (--rmi local); the images it pulled are not its own and may serve other projects: remove them with docker image rm")
	default:
		return fmt.Errorf("--rmi %q: use local (the images devenv built; Compose's all is refused)", v)
	}
	return nil
}

func (p *rmiPolicy) String() string    { return p.value }
func (p *rmiPolicy) IsBoolFlag() bool  { return true }
func (p *rmiPolicy) Choices() []string { return []string{"local", "all"} }

// secondsOrDuration is a time given as Compose gives it (whole seconds:
// --wait-timeout 60) or as a Go duration (5m, 90s).
type secondsOrDuration struct{ d time.Duration }

func (s *secondsOrDuration) Set(v string) error {
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		s.d = time.Duration(n) * time.Second
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return fmt.Errorf("%q: give seconds (60) or a duration (5m, 90s)", v)
	}
	s.d = d
	return nil
}

func (s *secondsOrDuration) String() string {
	if s == nil || s.d == 0 {
		return ""
	}
	return s.d.String()
}

// durationOf is the secondsOrDuration flag name's value (its default when
// not given).
func durationOf(c *cli.Context, name string) time.Duration {
	if s, ok := c.Generic(name).(*secondsOrDuration); ok {
		return s.d
	}
	return 0
}
