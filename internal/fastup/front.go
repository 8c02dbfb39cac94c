package fastup

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ProjectFile is the file devenv looks for, upwards from the working
// directory.
const ProjectFile = "devenv.yaml"

// Nearest is the devenv.yaml in dir or the nearest parent ("" when none):
// the project devenv opens when no --file or --project-dir says otherwise.
func Nearest(dir string) string {
	for ; ; dir = filepath.Dir(dir) {
		f := filepath.Join(dir, ProjectFile)
		if _, err := os.Stat(f); err == nil {
			return f
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// Call is one run of devenv as the front program sees it.
type Call struct {
	Args    []string // os.Args
	Environ []string
	WorkDir string
	Program string // the full devenv that runs otherwise
	Stdout  io.Writer
	Stderr  io.Writer
}

// Try answers a `devenv up` that would change nothing from the project's
// receipt, and reports whether it did (it then printed up's result and the
// command is done, exit 0). Anything it does not recognise, any error and
// any difference leaves the command to the full devenv.
func Try(ctx context.Context, c Call) bool {
	flags, ok := plainUp(c.Args)
	if !ok {
		return false
	}
	err := fmt.Errorf("%s=0", EnvSwitch)
	if getenv(c.Environ, EnvSwitch) != "0" {
		err = try(ctx, c, flags)
	}
	if flags.debug {
		if err != nil {
			fmt.Fprintf(c.Stderr, "debug: fast up: running devenv in full: %v\n", err)
		} else {
			fmt.Fprintf(c.Stderr, "debug: fast up: nothing changed since the last up\n")
		}
	}
	return err == nil
}

func try(ctx context.Context, c Call, f upFlags) error {
	file := Nearest(c.WorkDir)
	if file == "" {
		return fmt.Errorf("no %s here", ProjectFile)
	}
	r, err := Read(filepath.Join(filepath.Dir(file), ".devenv"))
	switch {
	case err != nil:
		return err
	case r == nil:
		return fmt.Errorf("no receipt of a whole-project up")
	case r.File != file:
		return fmt.Errorf("the receipt is for %s", r.File)
	}
	if err := Check(ctx, r, World{WorkDir: c.WorkDir, Environ: c.Environ, Program: ProgramID(c.Program)}); err != nil {
		return err
	}
	out := r.Text
	if f.json {
		out = r.JSON
	}
	_, err = io.WriteString(c.Stdout, out)
	return err
}

type upFlags struct{ json, debug bool }

// plainUp recognises `devenv up` with nothing but -d/--detach, --json and
// --debug, before or after the command: the one command line a receipt
// answers. Every other word (services, --file, -p, --profile, --wait...)
// changes what up would do, and is devenv's full program's to read.
func plainUp(args []string) (upFlags, bool) {
	var f upFlags
	up := false
	for _, a := range args[1:] {
		switch a {
		case "up":
			if up {
				return f, false
			}
			up = true
		case "-d", "--detach":
			if !up {
				return f, false
			}
		case "--json":
			f.json = true
		case "--debug":
			f.debug = true
		default:
			return f, false
		}
	}
	return f, up
}

func getenv(environ []string, key string) string {
	for _, kv := range environ {
		if len(kv) > len(key) && kv[len(key)] == '=' && kv[:len(key)] == key {
			return kv[len(key)+1:]
		}
	}
	return ""
}
