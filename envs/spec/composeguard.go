package spec

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/dotenv"
	"github.com/compose-spec/compose-go/v2/template"
	"gopkg.in/yaml.v3"

	"github.com/devenv-dev/devenv/internal/safefile"
)

// Limits on what compose files may ask of their reader.
const (
	// maxInterpolationDepth bounds ${...} nested in ${...}: compose-go's
	// interpolation costs the cube of the depth (2,000 deep: half a second,
	// 20,000: minutes), and no real file nests more than a few.
	maxInterpolationDepth = 32
	// maxIncludeDepth bounds include: chains.
	maxIncludeDepth = 16
)

// composeGuard checks, before compose-go reads anything, every file the
// compose files make it read (included files, extends files, env_files,
// the project's .env): each must be a regular file of bounded size inside
// the project, reached without a link that leads out, and no value may
// nest interpolation deeper than maxInterpolationDepth. Relative bind
// sources that are links leading outside the project are refused too.
// Problems are reported at the compose file's line and column, with the
// exit code of an invalid devenv.yaml, like `compose: [../x]`.
type composeGuard struct {
	l    *loader
	root *safefile.Root
	seen map[string]bool
	// env is what compose-go interpolates paths with: the process
	// environment, then the project's .env for what it leaves unset.
	env map[string]string
}

// guardCompose checks the project's compose files and its .env.
func (l *loader) guardCompose(files []string) {
	if len(files) == 0 {
		return
	}
	root, err := safefile.OpenRoot(l.p.Dir)
	if err != nil {
		return // the directory itself cannot be opened: reading the files reports it
	}
	defer func() { _ = root.Close() }()
	g := &composeGuard{l: l, root: root, seen: map[string]bool{}}
	dotEnv := filepath.Join(l.p.Dir, ".env")
	g.envFile(nil, nil, dotEnv, strconv.Quote(".env"))
	g.env = interpolationEnv(root, dotEnv)
	for _, f := range files {
		g.file(nil, nil, f, l.p.Dir, 0)
	}
}

// hasVariable reports whether a path is written with a variable: where it
// leads is known only after interpolation.
func hasVariable(s string) bool { return strings.Contains(s, "$") }

// interpolationEnv is the environment compose-go interpolates the files
// with (compose/loader: cli.WithOsEnv, then the project's .env for the
// variables the process leaves unset, unless COMPOSE_DISABLE_ENV_FILE).
func interpolationEnv(root *safefile.Root, dotEnv string) map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	if off, err := strconv.ParseBool(env["COMPOSE_DISABLE_ENV_FILE"]); err == nil && off {
		return env
	}
	data, err := root.ReadFile(dotEnv, safefile.MaxConfig)
	if err != nil {
		return env // missing, or refused above
	}
	vars, err := dotenv.UnmarshalBytesWithLookup(data, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		return env // compose-go reports the syntax
	}
	for k, v := range vars {
		if _, set := env[k]; !set {
			env[k] = v
		}
	}
	return env
}

// expand is a path as compose-go reads it: interpolated with g.env. ok is
// false when it cannot be interpolated (compose-go reports why).
func (g *composeGuard) expand(s string) (string, bool) {
	if !hasVariable(s) {
		return s, true
	}
	v, err := template.Substitute(s, func(k string) (string, bool) { x, ok := g.env[k]; return x, ok })
	return v, err == nil
}

// shown is a path as written, with what it interpolates to when that
// differs: "${DIR}/a.yaml" (../out/a.yaml).
func shown(written, expanded string) string {
	if written == expanded {
		return strconv.Quote(written)
	}
	return strconv.Quote(written) + " (" + expanded + ")"
}

// readable reads abs through the project's root, reporting at (d, n) (or
// at the top of abs's own file when d is nil) why it cannot be.
func (g *composeGuard) readable(d *decoder, n *yaml.Node, abs, key, written string) ([]byte, bool) {
	data, err := g.root.ReadFile(abs, safefile.MaxConfig)
	if err == nil {
		return data, true
	}
	if d == nil {
		return nil, false // a file devenv.yaml names: decodeCompose reports it
	}
	hint := "keep the files compose reads inside the project, as regular files; copy the file into the project instead of linking to it"
	var se *safefile.Error
	if errors.As(err, &se) {
		d.errAt(n, hint, "%s %s %s", key, written, se.Problem)
		return nil, false
	}
	d.errAt(n, "check the path and its permissions", "%s %s cannot be read: %v", key, written, err)
	return nil, false
}

// file checks one compose file and what it names; workDir is where its
// relative paths point.
func (g *composeGuard) file(from *decoder, at *yaml.Node, abs, workDir string, depth int) {
	if g.seen[abs] {
		return
	}
	g.seen[abs] = true
	data, ok := g.readable(from, at, abs, "include", g.display(at, abs))
	if !ok {
		return
	}
	d := g.l.decoderFor(abs)
	if !g.nesting(d, data) {
		return
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return // compose-go reports the syntax
	}
	if !d.aliasBudget(doc.Content[0]) {
		return
	}
	top := resolve(doc.Content[0])
	if top.Kind != yaml.MappingNode {
		return
	}
	if inc := mapGet(top, "include"); inc != nil {
		g.includes(d, inc, workDir, depth)
	}
	if svcs := mapGet(top, "services"); svcs != nil && svcs.Kind == yaml.MappingNode {
		for i := 1; i < len(svcs.Content); i += 2 {
			g.service(d, resolve(svcs.Content[i]), workDir, depth)
		}
	}
}

// includes checks an include: list (short and long syntax).
func (g *composeGuard) includes(d *decoder, inc *yaml.Node, workDir string, depth int) {
	if inc.Kind != yaml.SequenceNode {
		return
	}
	for _, item := range inc.Content {
		item = resolve(item)
		var paths []*yaml.Node
		dir := ""
		switch item.Kind {
		case yaml.ScalarNode:
			paths = []*yaml.Node{item}
		case yaml.MappingNode:
			paths = scalars(mapGet(item, "path"))
			for _, e := range scalars(mapGet(item, "env_file")) {
				g.envFileAt(d, e, workDir)
			}
			if pd := mapGet(item, "project_directory"); pd != nil && pd.Kind == yaml.ScalarNode {
				if v, ok := g.expand(pd.Value); ok {
					dir = join(workDir, v)
				}
			}
		}
		for i, p := range paths {
			v, ok := g.expand(p.Value)
			if !ok {
				continue
			}
			abs := join(workDir, v)
			if !g.inside(d, p, "include", shown(p.Value, v), abs) {
				continue
			}
			if depth+1 > maxIncludeDepth {
				d.errAt(p, "flatten the chain of includes", "include %s is more than %d includes deep", shown(p.Value, v), maxIncludeDepth)
				continue
			}
			sub := dir
			if sub == "" && i == 0 {
				sub = filepath.Dir(abs)
			}
			g.file(d, p, abs, sub, depth+1)
		}
	}
}

// service checks one service's env_file, extends file and bind sources.
func (g *composeGuard) service(d *decoder, svc *yaml.Node, workDir string, depth int) {
	if svc.Kind != yaml.MappingNode {
		return
	}
	ef := resolve(mapGet(svc, "env_file"))
	if ef != nil && ef.Kind == yaml.SequenceNode {
		for _, e := range ef.Content {
			if e = resolve(e); e.Kind == yaml.MappingNode {
				e = mapGet(e, "path")
			}
			if e != nil {
				g.envFileAt(d, e, workDir)
			}
		}
	} else if ef != nil {
		g.envFileAt(d, ef, workDir)
	}
	if ext := resolve(mapGet(svc, "extends")); ext != nil && ext.Kind == yaml.MappingNode {
		if f := mapGet(ext, "file"); f != nil && f.Kind == yaml.ScalarNode {
			v, ok := g.expand(f.Value)
			abs := join(workDir, v)
			if ok && g.inside(d, f, "extends file", shown(f.Value, v), abs) && depth+1 <= maxIncludeDepth {
				g.file(d, f, abs, filepath.Dir(abs), depth+1)
			}
		}
	}
	if vols := resolve(mapGet(svc, "volumes")); vols != nil && vols.Kind == yaml.SequenceNode {
		for _, v := range vols.Content {
			g.bind(d, resolve(v), workDir)
		}
	}
	g.engineLimits(d, svc)
}

// bind refuses a relative bind source that leads outside the project
// through a link.
func (g *composeGuard) bind(d *decoder, v *yaml.Node, workDir string) {
	src := v
	switch v.Kind {
	case yaml.ScalarNode:
		whole, ok := g.expand(v.Value)
		s, _, _ := strings.Cut(whole, ":")
		if !ok || !strings.HasPrefix(s, ".") {
			return
		}
		src = &yaml.Node{Kind: yaml.ScalarNode, Value: s, Line: v.Line, Column: v.Column}
	case yaml.MappingNode:
		src = mapGet(v, "source")
		if t := mapGet(v, "type"); src == nil || src.Kind != yaml.ScalarNode || t == nil || t.Value != "bind" {
			return
		}
		s, ok := g.expand(src.Value)
		if !ok || filepath.IsAbs(s) || strings.HasPrefix(s, "~") {
			return
		}
		src = &yaml.Node{Kind: yaml.ScalarNode, Value: s, Line: src.Line, Column: src.Column}
	default:
		return
	}
	abs := join(workDir, src.Value)
	if _, err := g.root.Rel(abs); err != nil {
		return // written as outside the project: compose's choice, as an absolute path would be
	}
	if _, err := g.root.Stat(abs); errors.Is(err, safefile.ErrOutside) {
		real, _ := filepath.EvalSymlinks(abs)
		d.errAt(src, "bind the directory itself, or write its absolute path if you mean to share a host directory",
			"volume source %q is a symbolic link to %s, outside the project directory", src.Value, real)
	}
}

// inside reports whether abs (written as written under key) is inside the
// project as written, reporting it otherwise.
func (g *composeGuard) inside(d *decoder, n *yaml.Node, key, written, abs string) bool {
	if _, err := g.root.Rel(abs); err != nil {
		d.errAt(n, "devenv reads only files inside the project directory, so that every teammate gets the same result; copy the file into it",
			"%s %s is outside the project directory", key, written)
		return false
	}
	return true
}

// envFileAt checks an env_file written at n.
func (g *composeGuard) envFileAt(d *decoder, n *yaml.Node, workDir string) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return
	}
	v, ok := g.expand(n.Value)
	if !ok {
		return
	}
	abs := join(workDir, v)
	if g.inside(d, n, "env_file", shown(n.Value, v), abs) {
		g.envFile(d, n, abs, shown(n.Value, v))
	}
}

// envFile checks an env file when it exists (compose-go reports a missing
// one that is required).
func (g *composeGuard) envFile(d *decoder, n *yaml.Node, abs, written string) {
	if g.seen[abs] {
		return
	}
	g.seen[abs] = true
	if _, err := g.root.Stat(abs); err != nil && !errors.Is(err, safefile.ErrOutside) {
		return // missing
	}
	if d == nil {
		d = g.l.decoderFor(abs)
		n = &yaml.Node{}
	}
	data, ok := g.readable(d, n, abs, "env_file", written)
	if ok {
		g.nesting(g.l.decoderFor(abs), data)
	}
}

// nesting refuses interpolation nested deeper than maxInterpolationDepth,
// at the line where it goes too deep ("$$" is a literal dollar).
func (g *composeGuard) nesting(d *decoder, data []byte) bool {
	depth, line, col := 0, 1, 0
	for i := 0; i < len(data); i++ {
		col++
		switch c := data[i]; {
		case c == '\n':
			line, col = line+1, 0
		case c == '$' && i+1 < len(data) && data[i+1] == '$':
			i++
			col++
		case c == '$' && i+1 < len(data) && data[i+1] == '{':
			depth++
			if depth > maxInterpolationDepth {
				d.errPos(Pos{Line: line, Col: col}, "write the value without nesting ${...} so deep",
					"interpolation nested more than %d deep (${...} inside ${...}); devenv refuses it before compose reads it, as its cost grows with the cube of the depth", maxInterpolationDepth)
				return false
			}
		case c == '}' && depth > 0:
			depth--
		}
	}
	return true
}

// mapGet returns the value of key in mapping m, or nil.
func mapGet(m *yaml.Node, key string) *yaml.Node {
	m = resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return resolve(m.Content[i+1])
		}
	}
	return nil
}

// scalars is a scalar or a list of scalars as a list.
func scalars(n *yaml.Node) []*yaml.Node {
	n = resolve(n)
	switch {
	case n == nil:
		return nil
	case n.Kind == yaml.ScalarNode:
		return []*yaml.Node{n}
	case n.Kind == yaml.SequenceNode:
		var out []*yaml.Node
		for _, c := range n.Content {
			if c = resolve(c); c.Kind == yaml.ScalarNode {
				out = append(out, c)
			}
		}
		return out
	}
	return nil
}

// join makes p absolute against dir.
func join(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// display is a file reached from node at (an include or extends path), as
// the project's path, with the path as written when it holds a variable.
func (g *composeGuard) display(at *yaml.Node, abs string) string {
	d := g.l.display(abs)
	if at != nil && hasVariable(at.Value) {
		return strconv.Quote(at.Value) + " (" + d + ")"
	}
	return strconv.Quote(d)
}
