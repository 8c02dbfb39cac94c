package argv

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

func testLine() Line {
	app := &cli.App{
		Name:  "prog",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json"}, &cli.StringFlag{Name: "file", Aliases: []string{"f"}}},
		Commands: []*cli.Command{
			{Name: "logs", Flags: []cli.Flag{&cli.StringFlag{Name: "tail"}, &cli.BoolFlag{Name: "follow", Aliases: []string{"f"}}, &cli.BoolFlag{Name: "json"}}},
			{Name: "exec", Aliases: []string{"x"}, Flags: []cli.Flag{&cli.StringFlag{Name: "user", Aliases: []string{"u"}}, &cli.BoolFlag{Name: "json"}}},
			{Name: "up", Flags: []cli.Flag{&cli.GenericFlag{Name: "pull", Value: &choice{}}}},
			{Name: "jobs", Subcommands: []*cli.Command{{Name: "logs", Flags: []cli.Flag{&cli.BoolFlag{Name: "follow"}}}}},
		},
	}
	return Line{App: app, PassArgs: []string{"exec"}}
}

// choice is an OptionalValue with the words always and never.
type choice struct{ v string }

func (c *choice) Set(v string) error { c.v = v; return nil }
func (c *choice) String() string     { return c.v }
func (c *choice) IsBoolFlag() bool   { return true }
func (c *choice) Choices() []string  { return []string{"always", "missing", "never"} }

func TestReorder(t *testing.T) {
	l := testLine()
	tests := []struct{ in, want string }{
		{"prog", "prog"},
		{"prog logs a --tail 5 b -f", "prog logs --tail 5 -f a b"},
		{"prog logs a --tail=5", "prog logs --tail=5 a"},
		{"prog logs a -- --tail 5", "prog logs a -- --tail 5"},
		{"prog --json -f x.yaml logs a --json", "prog --json -f x.yaml logs --json a"},
		{"prog exec -u root svc ls --json", "prog exec -u root svc ls --json"},
		{"prog x svc -u root", "prog x svc -u root"},
		{"prog jobs logs 7 --follow", "prog jobs logs --follow 7"},
		{"prog logs a --tail", "prog logs --tail a"},
		{"prog nosuch --json", "prog --json nosuch"}, // the program's own flags: it reports the word
		{"prog up --pull always app", "prog up --pull=always app"},
		{"prog up app --pull never", "prog up --pull=never app"},
		{"prog up --pull app", "prog up --pull app"}, // bare: app is a service
		{"prog up --pull=missing", "prog up --pull=missing"},
	}
	for _, tt := range tests {
		if got := strings.Join(l.Reorder(strings.Fields(tt.in)), " "); got != tt.want {
			t.Errorf("Reorder(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHasFlag(t *testing.T) {
	l := testLine()
	tests := []struct {
		in   string
		want bool
	}{
		{"prog --json logs", true},
		{"prog logs a --json", true},
		{"prog logs --json=true", true},
		{"prog logs", false},
		{"prog exec svc tool --json", false},
		{"prog exec --json svc tool", true},
		{"prog -f --json logs", false}, // --json is -f's value
		{"prog logs -- --json", false},
		{"prog nosuch --json", true},
	}
	for _, tt := range tests {
		if got := l.HasFlag(strings.Fields(tt.in), "--json"); got != tt.want {
			t.Errorf("HasFlag(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestFindCommand(t *testing.T) {
	cmds := testLine().App.Commands
	if c := FindCommand(cmds, "x"); c == nil || c.Name != "exec" {
		t.Errorf("an alias finds its command: %v", c)
	}
	if c := FindCommand(cmds, "nope"); c != nil {
		t.Errorf("no such command: %v", c)
	}
}
