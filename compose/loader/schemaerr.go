package loader

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/compose-spec/compose-go/v2/schema"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/safefile"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// schemaProblems are the problems compose-go's schema finds in each of the
// files, every one with its file:line:col, its path (services.web.imgae)
// and, for an unknown key, the closest key the schema knows (spec.Suggest,
// as for devenv.yaml). compose-go stops at its first schema problem and
// names no line: when its load failed with one (loadErr), devenv checks
// each file itself against the same schema, so the user fixes them all in
// one go. A file compose-go names in loadErr (an include:d one) is checked
// too. Values that refer to variables are left to compose-go, which checks
// them after interpolation. Nil when loadErr is no schema problem or the
// files show none (compose-go's message is then reported as it is).
func schemaProblems(files []string, projectDir string, loadErr error) []string {
	failed := schemaFailure(loadErr)
	if !failed.ok {
		return nil
	}
	if failed.file != "" && !slices.Contains(files, failed.file) {
		files = append(slices.Clone(files), failed.file)
	}
	s, meta, err := composeSchema()
	if err != nil {
		return nil
	}
	pos := &positions{projectDir: projectDir}
	var out []found
	for _, f := range files {
		in := checkFile(s, meta, pos, f)
		if failed.path != "" {
			in = slices.DeleteFunc(in, func(x found) bool { return x.path == failed.path })
		}
		out = append(out, in...)
	}
	if failed.path != "" {
		out = append(out, castProblem(files, pos, failed))
	}
	if failed.schemaPath != "" && !slices.ContainsFunc(out, func(f found) bool { return f.covers(failed.schemaPath) }) {
		// compose-go's own finding, on a value it checked interpolated
		out = append(out, placedMessage(pos, failed))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].less(out[j], files) })
	lines := make([]string, 0, len(out))
	for _, p := range out {
		if line := p.String(); !slices.Contains(lines, line) {
			lines = append(lines, line)
		}
	}
	return lines
}

// failure is what compose-go's message says of a load that failed its
// schema check ("validating FILE: services.web additional properties
// ...") or a value's type once interpolated ("error while interpolating
// PATH: failed to cast to expected type: ...").
type failure struct {
	ok         bool
	file       string // the file compose-go validated
	path, cast string // the value that is not of its type, and why
	// schemaPath and schemaMsg are compose-go's schema finding
	// ("services.web.image", "must be a string")
	schemaPath, schemaMsg string
}

func schemaFailure(err error) failure {
	if err == nil {
		return failure{}
	}
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, "error while interpolating "); ok {
		path, why, _ := strings.Cut(rest, ": ")
		why, _, _ = strings.Cut(strings.TrimPrefix(why, "failed to cast to expected type: "), "; `docker compose config`")
		return failure{ok: true, path: path, cast: why}
	}
	_, rest, ok := strings.Cut(msg, "validating ")
	if !ok {
		return failure{}
	}
	file, finding, _ := strings.Cut(rest, ": ")
	finding, _, _ = strings.Cut(finding, "; `docker compose config`")
	path, msg, _ := strings.Cut(finding, " ")
	return failure{ok: true, file: file, schemaPath: path, schemaMsg: msg}
}

// composeTypes says compose-go's type names as typeName does.
var composeTypes = strings.NewReplacer("a array", "a list", "a integer", "an integer", "a boolean", "true or false")

// covers says whether f is about path or a key under it.
func (f found) covers(path string) bool {
	return f.path == path || strings.HasPrefix(f.path, path+".")
}

// placedMessage is compose-go's schema finding at the place it names.
func placedMessage(pos *positions, f failure) found {
	msg := composeTypes.Replace(f.schemaMsg)
	out := found{path: f.schemaPath, msg: msg + " (once variables are interpolated)", rel: f.file}
	data, err := safefile.ReadFile(f.file, safefile.MaxConfig)
	if err != nil {
		return out
	}
	out.rel = pos.rel(f.file)
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) == nil && len(doc.Content) > 0 {
		out.at = placeOf(doc.Content[0], strings.Split(f.schemaPath, "."), f.file)
	}
	return out
}

// castProblem places a value compose-go could not read as its type, in
// the last file that writes it (the one whose value wins).
func castProblem(files []string, pos *positions, f failure) found {
	path := strings.Split(f.path, ".")
	at := found{path: f.path, msg: castMessage(f.cast), rel: "compose files"}
	for _, file := range files {
		data, err := safefile.ReadFile(file, safefile.MaxConfig)
		if err != nil {
			continue
		}
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
			continue
		}
		if pl, ok := writtenAt(doc.Content[0], path, file); ok {
			at.at, at.rel = pl, pos.rel(file)
		}
	}
	return at
}

// castMessage says which type a value must be, from the parse that failed
// (strconv.Atoi: parsing "two": invalid syntax).
func castMessage(why string) string {
	value := ""
	if _, rest, ok := strings.Cut(why, "parsing "); ok {
		if q, err := strconv.QuotedPrefix(rest); err == nil {
			value = " (" + q + ")"
		}
	}
	switch {
	case strings.Contains(why, "Atoi"), strings.Contains(why, "ParseInt"), strings.Contains(why, "ParseUint"):
		return "must be an integer" + value
	case strings.Contains(why, "ParseFloat"):
		return "must be a number" + value
	case strings.Contains(why, "ParseBool"):
		return "must be true or false" + value
	case strings.HasPrefix(why, "invalid boolean: "):
		return "must be true or false (" + strings.TrimPrefix(why, "invalid boolean: ") + ")"
	}
	return why
}

var (
	schemaOnce sync.Once
	schemaC    *jsonschema.Schema
	schemaRaw  map[string]any
	schemaErr  error
)

// composeSchema is compose-go's compose-spec schema, compiled (once per
// process, and only when a file failed it) and as JSON, to look up the
// keys a mapping may hold.
func composeSchema() (*jsonschema.Schema, map[string]any, error) {
	schemaOnce.Do(func() {
		if schemaErr = json.Unmarshal([]byte(schema.Schema), &schemaRaw); schemaErr != nil {
			return
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema.Schema))
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		if schemaErr = c.AddResource("compose-spec.json", doc); schemaErr != nil {
			return
		}
		schemaC, schemaErr = c.Compile("compose-spec.json")
	})
	return schemaC, schemaRaw, schemaErr
}

// found is one schema problem with its place.
type found struct {
	at   place
	path string
	msg  string
	rel  string // the file as shown
}

func (f found) String() string {
	if f.at.line == 0 {
		return fmt.Sprintf("%s: %s: %s", f.rel, f.path, f.msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", f.rel, f.at.line, f.at.col, f.path, f.msg)
}

// less orders problems by file, in the order the files are read, then
// by place; those in no file last.
func (f found) less(g found, files []string) bool {
	fi, gi := fileIndex(f.at.file, files), fileIndex(g.at.file, files)
	if fi != gi {
		return fi < gi
	}
	if f.at.line != g.at.line {
		return f.at.line < g.at.line
	}
	return f.at.col < g.at.col
}

func fileIndex(file string, files []string) int {
	if i := slices.Index(files, file); i >= 0 {
		return i
	}
	return len(files)
}

// checkFile validates one file as compose-go reads it (aliases and merge
// keys resolved, !reset keys dropped) and places each problem in it.
func checkFile(s *jsonschema.Schema, meta map[string]any, pos *positions, file string) []found {
	data, err := safefile.ReadFile(file, safefile.MaxConfig)
	if err != nil {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil // compose-go reports what does not parse
	}
	root := doc.Content[0]
	value, err := plainValue(root)
	if err != nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(s.Validate(value), &verr) {
		return nil
	}
	var out []found
	for _, e := range leaves(verr) {
		out = append(out, describe(e, root, value, meta, pos, file)...)
	}
	return out
}

// leaves are the problems of e's tree one by one: every failing property
// is one, and where only one of several forms must match (oneOf, anyOf)
// the form that came closest is the one reported.
func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	switch e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		if c := closest(e); c != nil {
			return []*jsonschema.ValidationError{c}
		}
	}
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// closest is the leaf under e that reaches deepest into the value (an
// unknown key counting one deeper than its mapping): the form the user
// most likely meant.
func closest(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return e
	}
	var best *jsonschema.ValidationError
	for _, c := range e.Causes {
		if l := closest(c); best == nil || depth(l) > depth(best) {
			best = l
		}
	}
	return best
}

func depth(e *jsonschema.ValidationError) int {
	d := len(e.InstanceLocation)
	if _, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
		d++
	}
	return d
}

// describe turns one schema problem into findings placed in the file.
func describe(e *jsonschema.ValidationError, root *yaml.Node, value any, meta map[string]any, pos *positions, file string) []found {
	loc := e.InstanceLocation
	at := func(path []string) found {
		return found{at: placeOf(root, path, file), path: strings.Join(path, "."), rel: pos.rel(file)}
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		known := schemaKeys(meta, e.SchemaURL)
		var out []found
		for _, p := range k.Properties {
			if slices.Contains(known, p) {
				continue
			}
			f := at(append(slices.Clone(loc), p))
			f.msg = "unknown key" + didYouMean(p, known)
			out = append(out, f)
		}
		return out
	case *kind.FalseSchema:
		// a key the mapping's additionalProperties: false refuses
		if len(loc) == 0 {
			break
		}
		key, known := loc[len(loc)-1], schemaKeys(meta, e.SchemaURL)
		if slices.Contains(known, key) {
			// a known key whose value failed: unevaluatedProperties
			// counts it unevaluated, and its own problem is reported
			return nil
		}
		f := at(loc)
		f.msg = "unknown key" + didYouMean(key, known)
		return []found{f}
	case *kind.Type:
		if refersToVariable(value, loc) {
			return nil // compose-go checks it once interpolated
		}
		f := at(loc)
		f.msg = fmt.Sprintf("must be %s, not %s", typeNames(k.Want), typeName(k.Got))
		return []found{f}
	case *kind.Required:
		f := at(loc)
		f.msg = fmt.Sprintf("needs %s", quoteAll(k.Missing))
		return []found{f}
	}
	if refersToVariable(value, loc) {
		return nil
	}
	f := at(loc)
	f.msg = e.ErrorKind.LocalizedString(message.NewPrinter(language.English))
	return []found{f}
}

func didYouMean(key string, known []string) string {
	if s := spec.Suggest(key, known); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	if len(known) > 0 && len(known) <= 12 {
		return "; known keys: " + strings.Join(known, ", ")
	}
	return "; see the Compose file reference for the keys it may hold"
}

// refersToVariable says whether the value at path is a string with a $:
// compose-go interpolates it before it checks its type.
func refersToVariable(v any, path []string) bool {
	for _, tok := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		default:
			return false
		}
	}
	s, ok := v.(string)
	return ok && strings.Contains(s, "$")
}

func typeNames(want []string) string {
	names := make([]string, len(want))
	for i, w := range want {
		names[i] = typeName(w)
	}
	sort.Strings(names)
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// typeName is a JSON schema type as YAML users call it.
func typeName(t string) string {
	switch t {
	case "object":
		return "a mapping"
	case "array":
		return "a list"
	case "string":
		return "a string"
	case "integer":
		return "an integer"
	case "number":
		return "a number"
	case "boolean":
		return "true or false"
	case "null":
		return "empty"
	}
	return t
}

func quoteAll(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, ", ")
}
