package spec

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/dotenv"
	"github.com/compose-spec/compose-go/v2/template"
	"go.yaml.in/yaml/v3"

	"github.com/devenv-dev/devenv/internal/projpath"
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
// the .env of Compose's project directory): each must be a regular file of
// bounded size, where Compose reads it (inside the project or outside it,
// as written), not reached through a link in the project that leads out of
// it (projpath.LinkOut, the one rule for compose paths), and no value may
// nest interpolation deeper than maxInterpolationDepth. Bind sources are
// held to the same link rule.
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
	// Compose's project directory: its .env, and where the files' relative paths point
	dir := projpath.ComposeDir(files, l.p.Dir)
	dotEnv := filepath.Join(dir, ".env")
	g.envFile(nil, nil, dotEnv, strconv.Quote(g.l.display(dotEnv)))
	l.reads.File(dotEnv) // read, or looked for: one that appears changes the interpolation
	g.env = interpolationEnv(root, dotEnv)
	for _, f := range files {
		g.file(nil, nil, "include", f, dir, 0)
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

// readable reads abs (through the project's root when it is inside the
// project as written, so a link on the way cannot lead out; as written
// when it is outside, as Compose reads it), reporting at (d, n) (or at the
// top of abs's own file when d is nil) why it cannot be.
func (g *composeGuard) readable(d *decoder, n *yaml.Node, abs, key, written string) ([]byte, bool) {
	var data []byte
	var err error
	g.l.reads.File(abs)
	if _, within := projpath.Within(g.root.Dir(), abs); within {
		data, err = g.root.ReadFile(abs, safefile.MaxConfig)
	} else {
		data, err = safefile.ReadFile(abs, safefile.MaxConfig)
	}
	if err == nil {
		return data, true
	}
	if d == nil {
		return nil, false // a file devenv.yaml names: decodeCompose reports it
	}
	hint := "keep the files compose reads as regular files; write the path of the file itself instead of a link that leads out of the project"
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
func (g *composeGuard) file(from *decoder, at *yaml.Node, key, abs, workDir string, depth int) {
	if g.seen[abs] {
		return
	}
	g.seen[abs] = true
	data, ok := g.readable(from, at, abs, key, g.display(at, abs))
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
	g.hostFiles(d, top, workDir)
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
		g.include(d, resolve(item), workDir, depth)
	}
}

// include checks one item of an include: list: its env files, and each
// of its files; without env_file, compose-go reads the .env of the
// included project's directory, which is recorded as read.
func (g *composeGuard) include(d *decoder, item *yaml.Node, workDir string, depth int) {
	var paths []*yaml.Node
	dir, ownEnv := "", true
	switch item.Kind {
	case yaml.ScalarNode:
		paths = []*yaml.Node{item}
	case yaml.MappingNode:
		paths = scalars(mapGet(item, "path"))
		for _, e := range scalars(mapGet(item, "env_file")) {
			g.envFileAt(d, e, workDir)
			ownEnv = false
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
		if !g.allowed(d, p, "include", shown(p.Value, v), abs) {
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
		if i == 0 && ownEnv {
			g.l.reads.File(filepath.Join(sub, ".env"))
		}
		g.file(d, p, "include", abs, sub, depth+1)
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
			if ok && g.allowed(d, f, "extends file", shown(f.Value, v), abs) && depth+1 <= maxIncludeDepth {
				g.file(d, f, "extends file", abs, filepath.Dir(abs), depth+1)
			}
		}
	}
	if b := mapGet(svc, "build"); b != nil {
		g.build(d, b, workDir)
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
	g.linkRule(d, src, "volume source", src.Value, workDir)
}

// linkRule applies safefile's one link rule to a host path written at n
// under key (expanded: its value after interpolation): written inside the
// project, it must not be a link out of it.
func (g *composeGuard) linkRule(d *decoder, n *yaml.Node, key, expanded, workDir string) {
	if real, out := g.root.LinkOut(join(workDir, expanded)); out {
		d.errAt(n, "keep the file or directory itself in the project, or write its absolute path if you mean to share a host path",
			"%s %q is a symbolic link to %s, outside the project directory", key, expanded, real)
	}
}

// hostFiles applies the link rule to the top-level secrets' and configs'
// file: (environment: and content: name no host file).
func (g *composeGuard) hostFiles(d *decoder, top *yaml.Node, workDir string) {
	for _, key := range []string{"secrets", "configs"} {
		defs := mapGet(top, key)
		if defs == nil || defs.Kind != yaml.MappingNode {
			continue
		}
		for i := 1; i < len(defs.Content); i += 2 {
			f := mapGet(defs.Content[i], "file")
			if f == nil || f.Kind != yaml.ScalarNode {
				continue
			}
			if v, ok := g.expand(f.Value); ok {
				g.linkRule(d, f, key[:len(key)-1]+" "+defs.Content[i-1].Value+" file", v, workDir)
			}
		}
	}
}

// build applies the link rule to a service's build context and its
// Dockerfile (relative to the context); a URL context names no host path.
func (g *composeGuard) build(d *decoder, b *yaml.Node, workDir string) {
	ctx, df := b, (*yaml.Node)(nil)
	if b.Kind == yaml.MappingNode {
		ctx, df = mapGet(b, "context"), mapGet(b, "dockerfile")
	}
	dir := workDir
	if ctx != nil && ctx.Kind == yaml.ScalarNode {
		v, ok := g.expand(ctx.Value)
		if !ok || strings.Contains(v, "://") || strings.HasPrefix(v, "git@") {
			return
		}
		g.linkRule(d, ctx, "build context", v, workDir)
		dir = join(workDir, v)
	}
	if df != nil && df.Kind == yaml.ScalarNode {
		if v, ok := g.expand(df.Value); ok {
			g.linkRule(d, df, "build dockerfile", v, dir)
		}
	}
}

// allowed reports whether abs (written as written under key) may be read,
// by devenv's one rule for host paths (safefile's Root.LinkOut): anywhere
// Compose reads it, except through a link that leads out of the project.
func (g *composeGuard) allowed(d *decoder, n *yaml.Node, key, written, abs string) bool {
	if real, out := g.root.LinkOut(abs); out {
		d.errAt(n, "write the path of the file itself (inside or outside the project, as compose reads it), not a link in the project that leads out of it",
			"%s %s is a symbolic link to %s, outside the project directory", key, written, real)
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
	if g.allowed(d, n, "env_file", shown(n.Value, v), abs) {
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
	g.l.reads.File(abs)
	if _, err := os.Stat(abs); err != nil {
		return // missing (compose-go reports a required one), or a dangling link (read below)
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
