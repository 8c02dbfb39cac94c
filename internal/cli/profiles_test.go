package cli

import (
	"os"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestComposeProfilesOnce: --profile P, given before the command or after
// it, sets COMPOSE_PROFILES to P once (the flag is seen from every level
// of the command's lineage: it was P,P,P).
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
				if err := applyComposeProfiles(ctx); err != nil {
					return err
				}
				got = os.Getenv("COMPOSE_PROFILES")
				return nil
			}}},
			Action: func(ctx *cli.Context) error {
				if err := applyComposeProfiles(ctx); err != nil {
					return err
				}
				got = os.Getenv("COMPOSE_PROFILES")
				return nil
			},
		}}}
		if err := app.Run(c.args); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%v: COMPOSE_PROFILES %q, want %q", c.args, got, c.want)
		}
	}
}
