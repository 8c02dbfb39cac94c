// Package dockerfile reads what a Dockerfile builds from: the image each
// stage's FROM names, as the engine's classic builder resolves it (ARGs
// declared before the first FROM, their defaults overridden by build
// args), and writes the same Dockerfile with those FROMs naming pinned
// references instead, so that a compose build: service builds from the
// images devenv.lock pins without the user editing the file.
//
// It parses with BuildKit's own Dockerfile parser and shell lexer (line
// continuations, comments, the escape directive, heredocs and ${VAR:-x}
// read exactly as the builder reads them).
package dockerfile

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/distribution/reference"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/buildkit/frontend/dockerfile/shell"
)

// Scratch is the empty image a stage may start from; nothing to pull.
const Scratch = "scratch"

// From is one stage's FROM that names an image (not scratch, not an
// earlier stage).
type From struct {
	Line    int    // the instruction's first line, from 1
	Written string // the image as written, e.g. "${BASE_IMAGE}:${BASE_TAG}"
	Image   string // as the build resolves it, e.g. "nvcr.io/nvidia/pytorch:23.12-py3"
	Stage   string // the stage's AS name, "" when it has none
}

// Error is a problem at a line of the Dockerfile (0: the whole file).
type Error struct {
	Line int
	Msg  string
	Hint string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// stage is one FROM instruction, whatever it names.
type stage struct {
	node  *parser.Node
	from  From
	image bool // names an image (not scratch, not an earlier stage)
}

// Froms returns the images the build of data pulls, one per stage that
// starts from an image, in the Dockerfile's order. args are the build
// args (compose's build.args): they replace the defaults of ARGs declared
// before the first FROM, and only of those, as the builder does. With a
// target, the stages after it are left out: the classic builder stops
// there.
func Froms(data []byte, args map[string]string, target string) ([]From, error) {
	stages, err := parse(data, args, target)
	if err != nil {
		return nil, err
	}
	var out []From
	for _, s := range stages {
		if s.image {
			out = append(out, s.from)
		}
	}
	return out, nil
}

// Images are the distinct images of froms, in their order.
func Images(froms []From) []string {
	var out []string
	for _, f := range froms {
		if !slices.Contains(out, f.Image) {
			out = append(out, f.Image)
		}
	}
	return out
}

// Pin returns data with each FROM whose image pins has a value naming that
// value instead ("nvcr.io/nvidia/cuda:12.9.1" -> "mirror/nvidia/cuda@sha256:..."),
// its flags and AS name kept. Every other line stays as it was, and an
// instruction that spanned several lines leaves them empty, so the
// builder's line numbers are the file's.
func Pin(data []byte, args map[string]string, target string, pins map[string]string) ([]byte, error) {
	stages, err := parse(data, args, target)
	if err != nil {
		return nil, err
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	for _, s := range stages {
		to, ok := pins[s.from.Image]
		if !s.image || !ok {
			continue
		}
		replace(lines, s.node.StartLine, s.node.EndLine, instruction(s.node.Flags, to, s.from.Stage))
	}
	return bytes.Join(lines, nil), nil
}

// instruction is a FROM with flags (as written) naming image, AS stage.
func instruction(flags []string, image, stage string) string {
	words := append([]string{"FROM"}, flags...)
	words = append(words, image)
	if stage != "" {
		words = append(words, "AS", stage)
	}
	return strings.Join(words, " ")
}

// replace puts text on line start (from 1) and empties the lines after it
// up to end, keeping each line's ending.
func replace(lines [][]byte, start, end int, text string) {
	for n := start; n <= end && n <= len(lines); n++ {
		l := lines[n-1]
		eol := l[len(bytes.TrimRight(l, "\r\n")):]
		if n == start {
			lines[n-1] = append([]byte(text), eol...)
			continue
		}
		lines[n-1] = slices.Clone(eol)
	}
}

// parse reads the stages of data up to target.
func parse(data []byte, args map[string]string, target string) ([]stage, error) {
	res, err := parser.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, parseError(err)
	}
	lex := shell.NewLex(res.EscapeToken)
	meta := env{}
	var stages []stage
	names := map[string]bool{}
	for _, node := range res.AST.Children {
		switch {
		case strings.EqualFold(node.Value, "arg") && len(stages) == 0:
			if err := metaArgs(lex, node, args, meta); err != nil {
				return nil, err
			}
		case strings.EqualFold(node.Value, "from"):
			s, err := fromStage(lex, node, meta, names)
			if err != nil {
				return nil, err
			}
			stages = append(stages, s)
			if s.from.Stage != "" {
				names[strings.ToLower(s.from.Stage)] = true
			}
			if target != "" && strings.EqualFold(s.from.Stage, target) {
				return stages, nil
			}
		}
	}
	if len(stages) == 0 {
		return nil, &Error{Msg: "has no FROM instruction", Hint: "a Dockerfile starts its first stage with FROM IMAGE"}
	}
	if target != "" {
		return nil, &Error{Msg: fmt.Sprintf("has no stage named %q (build.target)", target), Hint: stageHint(stages)}
	}
	return stages, nil
}

func stageHint(stages []stage) string {
	var named []string
	for _, s := range stages {
		if s.from.Stage != "" {
			named = append(named, s.from.Stage)
		}
	}
	if len(named) == 0 {
		return "its stages have no AS names: remove build.target, or name a stage with FROM IMAGE AS NAME"
	}
	return "set build.target to one of its stages: " + strings.Join(named, ", ")
}

// metaArgs declares the ARGs of one instruction before the first FROM: a
// build arg replaces the default; a default may use the ARGs before it.
func metaArgs(lex *shell.Lex, node *parser.Node, args map[string]string, meta env) error {
	for n := node.Next; n != nil; n = n.Next {
		name, def, hasDefault := strings.Cut(n.Value, "=")
		if v, ok := args[name]; ok {
			meta[name] = v
			continue
		}
		if !hasDefault {
			delete(meta, name) // declared without a value: unset, as the builder has it
			continue
		}
		v, _, err := lex.ProcessWord(def, meta)
		if err != nil {
			return &Error{Line: node.StartLine, Msg: fmt.Sprintf("ARG %s: %v", name, err), Hint: "fix the default value's quoting or ${...} expression"}
		}
		meta[name] = v
	}
	return nil
}

// fromStage reads one FROM: its image (expanded with the meta ARGs) and AS
// name; names are the earlier stages' names, lower-case.
func fromStage(lex *shell.Lex, node *parser.Node, meta env, names map[string]bool) (stage, error) {
	s := stage{node: node, from: From{Line: node.StartLine}}
	var words []string
	for n := node.Next; n != nil; n = n.Next {
		if n.Value != "" {
			words = append(words, n.Value)
		}
	}
	switch {
	case len(words) == 3 && strings.EqualFold(words[1], "as"):
		s.from.Stage = words[2]
	case len(words) != 1:
		return s, &Error{Line: node.StartLine, Msg: fmt.Sprintf("FROM %s: want FROM [--platform=...] IMAGE [AS NAME]", strings.Join(words, " ")),
			Hint: "write the image and at most an AS name"}
	}
	s.from.Written = words[0]
	img, _, err := lex.ProcessWord(words[0], meta)
	if err != nil {
		return s, &Error{Line: node.StartLine, Msg: fmt.Sprintf("FROM %s: %v", words[0], err), Hint: "fix the ${...} expression"}
	}
	s.from.Image = img
	switch {
	case img == "":
		return s, &Error{Line: node.StartLine, Msg: fmt.Sprintf("FROM %s names no image: the ARGs it uses are unset", words[0]),
			Hint: "give the ARG a default before the first FROM, or set it in the compose file's build.args"}
	case strings.EqualFold(img, Scratch), names[strings.ToLower(img)]:
		return s, nil
	}
	if _, err := reference.ParseNormalizedNamed(img); err != nil {
		return s, &Error{Line: node.StartLine, Msg: fmt.Sprintf("FROM %s is %q, which is not an image reference (%v)", words[0], img, err),
			Hint: "name an image such as nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04, or an earlier stage by its AS name"}
	}
	s.image = true
	return s, nil
}

// parseError places the parser's error at its line.
func parseError(err error) error {
	e := &Error{Msg: err.Error(), Hint: "`docker build` reads it the same way; fix the Dockerfile"}
	var loc *parser.LocationError
	if errors.As(err, &loc) && len(loc.Locations) > 0 && len(loc.Locations[0]) > 0 {
		e.Line = loc.Locations[0][0].Start.Line
		e.Msg = loc.Unwrap().Error()
	}
	return e
}

// env holds the ARGs the FROM lines can use.
type env map[string]string

func (e env) Get(k string) (string, bool) {
	v, ok := e[k]
	return v, ok
}

func (e env) Keys() []string {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
