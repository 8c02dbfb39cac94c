package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/internal/readset"
	"github.com/devenv-dev/devenv/internal/safefile"
	"github.com/devenv-dev/devenv/profiles"
	"go.yaml.in/yaml/v3"
)

// FileName is the name devenv looks for in a project directory.
const FileName = "devenv.yaml"

// Load reads, validates and defaults the devenv.yaml at path; the project
// directory is the file's directory. Problems with the file's content come
// back together as a *multierror.Error of *Error (see IsInvalid).
func Load(path string) (*Project, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve %s: %w", path, err)
	}
	data, err := safefile.ReadFile(abs, safefile.MaxConfig)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &Error{File: path, Msg: "no such file", Hint: "run devenv init to write a starter devenv.yaml, or pass the right path"}
	}
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error(), Hint: "point devenv at the project's devenv.yaml, a regular file"}
	}
	return Parse(abs, data, filepath.Dir(abs))
}

// Parse validates and defaults devenv.yaml content. file names it (absolute
// or relative to projectDir) and projectDir is where relative paths in it
// point; both are used for error messages and file checks.
func Parse(file string, data []byte, projectDir string) (*Project, error) {
	return ParseWith(file, data, projectDir, ParseOptions{})
}

// ParseOptions steer ParseWith.
type ParseOptions struct {
	// Reads records every file the load reads or looks at beside
	// devenv.yaml itself (profile files, compose files and their .env,
	// the files services name, bind sources); nil records nothing.
	Reads *readset.Set
}

// ParseWith is Parse, recording what it reads in o.Reads.
func ParseWith(file string, data []byte, projectDir string, o ParseOptions) (*Project, error) {
	dir, err := filepath.Abs(projectDir)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve project directory %s: %w", projectDir, err)
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	l := newLoader(file, dir, data)
	l.reads = o.Reads
	l.d.reads = o.Reads
	l.run(data)
	if err := joinErrors(l.d.file, l.errs); err != nil {
		return nil, err
	}
	l.applyDefaults()
	l.p.ComposeServices = append([]string{}, slices.Sorted(maps.Keys(l.compose))...) // [] rather than null in dumps
	return l.p, nil
}

// loader holds the state of one Parse.
type loader struct {
	d        *decoder
	p        *Project
	errs     []*Error
	services []*svcNodes
	// compose lists, per service name found in the compose files, the file.
	compose map[string]string
	// emptyServices is set when services: is a map without entries.
	emptyServices bool
	// customAt is where each custom profile was defined.
	customAt map[string]Location
	reads    *readset.Set
}

func newLoader(file, dir string, data []byte) *loader {
	l := &loader{
		p: &Project{Dir: dir, File: file, Raw: data, Profiles: map[string]*profiles.Custom{},
			Pos: map[string]Pos{}, ProfileLoc: map[string]Location{}},
		compose:  map[string]string{},
		customAt: map[string]Location{},
	}
	l.d = l.decoderFor(file)
	return l
}

// decoderFor returns a decoder that reports into this load's problems.
func (l *loader) decoderFor(abs string) *decoder {
	return &decoder{file: l.display(abs), dir: l.p.Dir, errs: &l.errs, reads: l.reads}
}

// display shows abs relative to the project when it is inside it.
func (l *loader) display(abs string) string {
	if rel, ok := projpath.Within(l.p.Dir, abs); ok && rel != "." {
		return rel
	}
	return abs
}

var yamlLineRE = lazy.Regexp(`line ([0-9]+)`)

// parseYAML parses one file's content into its root mapping, or reports why
// it cannot be read. An empty document gives nil.
func (d *decoder) parseYAML(data []byte) *yaml.Node {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		p := Pos{}
		if m := yamlLineRE().FindStringSubmatch(err.Error()); m != nil {
			p.Line, _ = strconv.Atoi(m[1])
			p.Col = 1
		}
		d.errPos(p, "fix the YAML syntax; indent with spaces, not tabs", "%v", err)
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	var second yaml.Node
	if err := dec.Decode(&second); err == nil {
		d.errPos(Pos{Line: second.Line, Col: 1}, "keep one document: remove the '---' and what follows, or merge it into the first",
			"a second YAML document starts here; %s holds one", d.file)
		return nil
	} else if !errors.Is(err, io.EOF) {
		d.errPos(Pos{Line: second.Line, Col: 1}, "keep one document: remove the '---' and what follows", "a second YAML document follows the first: %v", err)
		return nil
	}
	if d.nulBytes(doc.Content[0]) || !d.aliasBudget(doc.Content[0]) {
		return nil
	}
	d.unsupportedTags(doc.Content[0])
	return doc.Content[0]
}

// nulBytes reports every key or value holding a NUL byte (written "\0" or
// "\x00" in a quoted string): no file name, command or variable can hold
// one, and later stages would cut the value short.
func (d *decoder) nulBytes(n *yaml.Node) bool {
	found := false
	if n.Kind == yaml.ScalarNode && strings.ContainsRune(n.Value, 0) {
		d.errAt(n, `remove the "\0"; values cannot hold NUL bytes`, "%q holds a NUL byte", n.Value)
		found = true
	}
	for _, c := range n.Content {
		if d.nulBytes(c) {
			found = true
		}
	}
	return found
}

func (l *loader) run(data []byte) {
	root := l.d.parseYAML(data)
	if len(l.errs) > 0 {
		return
	}
	if root == nil || isNull(root) {
		l.d.errPos(Pos{Line: 1, Col: 1}, "add a services: map, or run devenv init for a starter file", "%s is empty", l.d.file)
		return
	}
	if !l.checkVersion(root) {
		return
	}
	done := fields(l.d, root, l.d.file, topKeys, l)
	for _, f := range done {
		l.p.Pos[f.name] = posOf(f.key)
	}
	_, composeOnly := l.p.Pos["compose"] // a plain compose project: devenv runs the files' services
	if _, ok := l.p.Pos["services"]; !composeOnly && (!ok || len(l.services) == 0) {
		if ok && (l.emptyServices || isNullServices(root)) {
			l.d.errPos(l.p.Pos["services"], "add at least one service, e.g. spark: {profile: spark-rapids}", "services is empty")
		} else if !ok {
			l.d.errPos(Pos{Line: 1, Col: 1}, "add a services: map, e.g. services: {spark: {profile: spark-rapids}}, or compose: [compose.yaml] to run a compose project", "services is required")
		}
	}
	l.validate()
}

// checkVersion reads version: first; a file written for a newer devenv is
// reported alone, since the rest would only be noise.
func (l *loader) checkVersion(root *yaml.Node) bool {
	l.p.Version = SchemaVersion
	root = resolve(root)
	if root.Kind != yaml.MappingNode {
		return true // fields reports the type
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "version" {
			continue
		}
		v, err := 0, error(nil)
		n := resolve(root.Content[i+1])
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			err = fmt.Errorf("not a whole number")
		} else {
			err = n.Decode(&v)
		}
		switch {
		case err != nil || v < 1:
			l.d.errAt(n, fmt.Sprintf("write version: %d", SchemaVersion), "version must be a schema version (1 or more), got %s", kindName(n))
		case v > SchemaVersion:
			l.d.errAt(n, fmt.Sprintf("this devenv reads schema version %d and older", SchemaVersion), "version %d is written for a newer devenv; upgrade devenv", v)
			return false
		default:
			l.p.Version = v
		}
		return true
	}
	return true
}

var topKeys = map[string]handler[*loader]{
	"version":       func(*decoder, *loader, field) {}, // read by checkVersion
	"name":          decodeName,
	"compose":       decodeCompose,
	"profile_files": decodeProfileFiles,
	"profiles": func(d *decoder, l *loader, f field) {
		l.decodeCustoms(d, f.val)
	},
	"services": decodeServices,
	"mirrors":  decodeMirrors,
}

func decodeName(d *decoder, l *loader, f field) {
	v, ok := d.str(f, "name")
	if !ok {
		return
	}
	if why := projectNameProblem(v); why != "" {
		d.errAt(f.val, fmt.Sprintf("%s, e.g. %q", why, DockerName(v)), "name %q is not a valid project name", v)
		return
	}
	l.p.Name = v
}

func decodeServices(d *decoder, l *loader, f field) {
	l.emptyServices = f.val.Kind == yaml.MappingNode && len(f.val.Content) == 0
	for _, sf := range d.mapping(f.val, "services") {
		l.services = append(l.services, d.decodeService(sf.name, sf.key, sf.val))
	}
}

// isNullServices reports whether root has services: with no value.
func isNullServices(root *yaml.Node) bool {
	root = resolve(root)
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "services" {
			return isNull(root.Content[i+1])
		}
	}
	return false
}
