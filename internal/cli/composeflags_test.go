package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/urfave/cli/v2"
)

// composeFlag is one flag of a docker compose verb, as its cobra command
// defines it.
type composeFlag struct {
	name, short string
	value       bool
}

// composeVerbs are the verbs whose flags devenv answers, and the file of
// Compose's cmd/compose that defines each one's flags.
var composeVerbs = map[string]string{"up": "up.go", "down": "down.go", "ps": "ps.go", "logs": "logs.go", "exec": "exec.go", "config": "config.go", "cp": "cp.go"}

// pflagCall matches pflag's definers: BoolVarP, StringVar, IntP, StringArrayVar...
var pflagCall = regexp.MustCompile(`^(Bool|String|Int|StringArray|StringSlice|Duration|Count)(Var)?(P)?$`)

// composeFlags reads the flags of the vendored Compose SDK's verbs from its
// source (go list finds the module the build uses), so this test follows
// the Compose devenv is built with.
func composeFlags(t *testing.T) map[string][]composeFlag {
	t.Helper()
	flags := map[string][]composeFlag{}
	for verb, file := range composeVerbs {
		flags[verb] = composeFileFlags(t, file)
	}
	return flags
}

// composeFileFlags are the flags the file of Compose's cmd/compose defines.
func composeFileFlags(t *testing.T, file string) []composeFlag {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: it finds the Compose SDK's source, whose flags this test reads")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/docker/compose/v5").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Fatalf("go list -m github.com/docker/compose/v5: %q, %v", out, err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "cmd", "compose", file), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var flags []composeFlag
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		m := pflagCall.FindStringSubmatch(sel.Sel.Name)
		if m == nil {
			return true
		}
		i := 0
		if m[2] == "Var" {
			i = 1 // the variable comes first
		}
		name, ok := stringLit(call, i)
		if !ok {
			return true
		}
		fl := composeFlag{name: name, value: m[1] != "Bool"}
		if m[3] == "P" {
			fl.short, _ = stringLit(call, i+1)
		}
		flags = append(flags, fl)
		return true
	})
	if len(flags) == 0 {
		t.Fatalf("no flags found in Compose's %s: the reading of Compose's source needs updating", file)
	}
	return flags
}

func stringLit(call *ast.CallExpr, i int) (string, bool) {
	if i >= len(call.Args) {
		return "", false
	}
	lit, ok := call.Args[i].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

func commandNamed(t *testing.T, name string) *cli.Command {
	t.Helper()
	for _, c := range newApp(Streams{}).Commands {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("devenv has no %s command", name)
	return nil
}

func flagNamed(cmd *cli.Command, name string) cli.Flag {
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

// TestComposeFlagsAnswered: every flag docker compose's up, down, ps,
// logs, exec, config and cp take is devenv's too, by the same long and
// short name (its behaviour is tested with the command), or is refused
// with its reason in one line (exit 2), never the flag package's bare
// "flag provided but not defined". A Compose upgrade that adds a flag
// fails here until devenv answers it.
func TestComposeFlagsAnswered(t *testing.T) {
	for verb, flags := range composeFlags(t) {
		cmd := commandNamed(t, verb)
		for _, cf := range flags {
			t.Run(verb+" --"+cf.name, func(t *testing.T) {
				f := flagNamed(cmd, cf.name)
				if f == nil {
					t.Fatalf("compose %s --%s: devenv neither takes nor refuses it (add it to the command, or to composeRefusals with why)", verb, cf.name)
				}
				if cf.short != "" && !slices.Contains(f.Names(), cf.short) {
					t.Errorf("compose %s -%s is --%s; devenv's --%s is %v", verb, cf.short, cf.name, cf.name, f.Names())
				}
				r, refused := refusalOf(verb, cf.name)
				if !refused || r.accept {
					return
				}
				args := []string{verb, "--" + cf.name}
				if cf.value {
					args = append(args, "x")
				}
				_, errOut, code := runCLI(t, args...)
				if code != exitcode.Usage || strings.Count(strings.TrimSpace(errOut), "\n") > 0 ||
					!strings.Contains(errOut, "--"+cf.name+": ") || strings.Contains(errOut, "not defined") {
					t.Errorf("devenv %s: exit %d, want 2 and one line with the reason:\n%s", strings.Join(args, " "), code, errOut)
				}
			})
		}
	}
}

func refusalOf(verb, name string) (refusedFlag, bool) {
	for _, r := range composeRefusals()[verb] {
		if r.name == name {
			return r, true
		}
	}
	return refusedFlag{}, false
}

// TestComposeRootFlagsAnswered: docker compose's own flags (before the
// verb) are devenv's (--project-directory is --project-dir) or refused in
// one line. Compose's hidden -v is --version: devenv's -v alone prints the
// version too, and before a command is --verbose (help says so).
func TestComposeRootFlagsAnswered(t *testing.T) {
	flags := composeFileFlags(t, "compose.go")
	app := newApp(Streams{})
	for _, cf := range flags {
		t.Run("--"+cf.name, func(t *testing.T) {
			var f cli.Flag
			for _, g := range app.Flags {
				if slices.Contains(g.Names(), cf.name) {
					f = g
				}
			}
			if f == nil {
				t.Fatalf("compose --%s: devenv neither takes nor refuses it (add it, or to composeRootRefusals with why)", cf.name)
			}
			if cf.short != "" && cf.name != "version" && !slices.Contains(f.Names(), cf.short) {
				t.Errorf("compose -%s is --%s; devenv's --%s is %v", cf.short, cf.name, cf.name, f.Names())
			}
			i := slices.IndexFunc(composeRootRefusals, func(r refusedFlag) bool { return r.name == cf.name })
			if i < 0 || composeRootRefusals[i].accept {
				return
			}
			args := []string{"--" + cf.name}
			if cf.value {
				args = append(args, "x")
			}
			args = append(args, "ps")
			_, errOut, code := runCLI(t, args...)
			if code != exitcode.Usage || strings.Count(strings.TrimSpace(errOut), "\n") > 0 || !strings.Contains(errOut, "--"+cf.name+": ") {
				t.Errorf("devenv %s: exit %d, want 2 and one line with the reason:\n%s", strings.Join(args, " "), code, errOut)
			}
		})
	}
	if out, _, code := runCLI(t, "-v"); code != 0 || !strings.Contains(out, "devenv") {
		t.Errorf("devenv -v: exit %d, %q, want the version", code, out)
	}
}

// TestComposeRefusalsAreComposes: the refusal table names only flags that
// Compose has (a flag Compose dropped is not kept refused), and none that
// devenv also defines itself.
func TestComposeRefusalsAreComposes(t *testing.T) {
	flags := composeFlags(t)
	own := commands() // without the refusals withCommonFlags adds
	for verb, rs := range composeRefusals() {
		i := slices.IndexFunc(own, func(c *cli.Command) bool { return c.Name == verb })
		for _, r := range rs {
			if i >= 0 && flagNamed(own[i], r.name) != nil {
				t.Errorf("devenv %s defines --%s now: remove it from composeRefusals", verb, r.name)
			}
			i := slices.IndexFunc(flags[verb], func(f composeFlag) bool { return f.name == r.name })
			if i < 0 {
				t.Errorf("composeRefusals[%q] has --%s, which compose %s does not take", verb, r.name, verb)
				continue
			}
			if cf := flags[verb][i]; cf.short != r.short || cf.value != r.value {
				t.Errorf("composeRefusals[%q] --%s: short %q value %v, Compose's: short %q value %v", verb, r.name, r.short, r.value, cf.short, cf.value)
			}
		}
	}
}
