package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestComposeProfilesOnce: --profile P, given before the command or after
// it, is handed to the loader once (the flag is seen from every level of
// the command's lineage: it was P,P,P), and the process environment is
// left alone (it was set through os.Setenv, process-wide state).
func TestComposeProfilesOnce(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"devenv", "--profile", "debug", "export"}, "debug"},
		{[]string{"devenv", "export", "--profile", "debug"}, "debug"},
		{[]string{"devenv", "--profile", "a", "export", "--profile", "b", "--profile", "a"}, "a,b"},
		{[]string{"devenv", "--profile", "debug", "export", "compose"}, "debug"},
	} {
		t.Setenv("COMPOSE_PROFILES", "")
		var got string
		app := &cli.App{Name: "devenv", Flags: []cli.Flag{composeProfileFlag()}, Commands: []*cli.Command{{
			Name: "export", Flags: []cli.Flag{composeProfileFlag()},
			Subcommands: []*cli.Command{{Name: "compose", Action: func(ctx *cli.Context) error {
				got = strings.Join(composeProfiles(ctx), ",")
				return nil
			}}},
			Action: func(ctx *cli.Context) error {
				got = strings.Join(composeProfiles(ctx), ",")
				return nil
			},
		}}}
		if err := app.Run(c.args); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%v: profiles %q, want %q", c.args, got, c.want)
		}
		if env := os.Getenv("COMPOSE_PROFILES"); env != "" {
			t.Errorf("%v: COMPOSE_PROFILES set to %q in the process environment", c.args, env)
		}
	}
}
