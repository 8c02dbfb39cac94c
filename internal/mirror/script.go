package mirror

import (
	"fmt"
	"path"
	"strings"
)

// A job script, as spark-submit is usually run: variable assignments,
// comments, continuation lines, heredocs (often of a cluster's JSON), and
// somewhere the spark-submit command. The script is read, never run: only
// NAME=value assignments made earlier in the file are expanded.

// scriptLine is one logical line (continuations joined) and the bodies of
// the heredocs it opens.
type scriptLine struct {
	text     string
	line     int // first physical line, 1-based
	heredocs []string
	// lost is the first physical line (1-based) of options read as the
	// command's although no backslash continued the line before them; 0
	// when none were
	lost int
}

// scriptLines splits a script into logical lines, taking heredoc bodies out.
func scriptLines(text string) []scriptLine {
	phys := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var out []scriptLine
	for i := 0; i < len(phys); i++ {
		sl := scriptLine{line: i + 1}
		cur := phys[i]
		for i+1 < len(phys) {
			if strings.HasSuffix(cur, "\\") && !strings.HasSuffix(cur, "\\\\") {
				i++
				cur = cur[:len(cur)-1] + "\n" + phys[i]
				continue
			}
			if openQuote(cur) == 0 && !openArray(cur) {
				break
			}
			i++ // a quoted word spans lines: --job-driver '{ ... }'; so does NAME=( ... )
			cur += "\n" + phys[i]
		}
		for i+1 < len(phys) && lostContinuation(cur, phys[i+1]) {
			if sl.lost == 0 {
				sl.lost = i + 2
			}
			i++
			cur += "\n" + phys[i]
		}
		sl.text = cur
		for _, hd := range heredocMarkers(cur) {
			var body []string
			for i+1 < len(phys) {
				i++
				l := phys[i]
				if hd.dash {
					l = strings.TrimLeft(l, "\t")
				}
				if l == hd.word {
					break
				}
				body = append(body, l)
			}
			sl.heredocs = append(sl.heredocs, strings.Join(body, "\n"))
		}
		out = append(out, sl)
	}
	return out
}

// lostContinuation reports whether next is an indented line of options
// (--region ...) that follows the command cur without the backslash that
// would continue it, as scripts copied from documentation often are: the
// shell would run it as a command of its own, and fail; no command is
// named --something, so it is read as the options its author meant.
func lostContinuation(cur, next string) bool {
	opt := strings.TrimLeft(next, " \t")
	if len(opt) == len(next) || len(opt) <= 2 || !strings.HasPrefix(opt, "--") {
		return false // the common case, decided on the next line alone
	}
	c := strings.TrimSpace(cur)
	return c != "" && !strings.HasPrefix(c, "#") && openQuote(cur) == 0 && heredocMarkers(cur) == nil
}

// openQuote is the quote still open at the end of a logical line (0 when
// none), as the shell reads it: a quote inside the other kind is a
// character, a backslash escapes outside single quotes, and a # that
// starts a word outside quotes starts a comment.
func openQuote(line string) byte {
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			i++
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return 0
		}
	}
	return quote
}

// openArray reports whether a line opens a bash array assignment,
// NAME=( ..., that it does not close: its elements go on on the next
// lines until the ")" outside quotes.
func openArray(line string) bool {
	start := strings.Index(line, "=(")
	if start <= 0 || strings.HasPrefix(strings.TrimSpace(line), "#") {
		return false
	}
	if name, _, ok := assignment(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line[:start+1]), "export ")) + "x"); !ok || name == "" {
		return false
	}
	quote := byte(0)
	for i := start + 2; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == ')':
			return false
		}
	}
	return true
}

type heredoc struct {
	word string
	dash bool
}

// heredocMarkers finds <<WORD, <<-WORD, <<'WORD' and <<"WORD" outside
// quotes (not <<< here-strings).
func heredocMarkers(line string) []heredoc {
	var out []heredoc
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '\'' || c == '"':
			quote = c
			continue
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return out
		case c != '<' || !strings.HasPrefix(line[i:], "<<") || strings.HasPrefix(line[i:], "<<<"):
			continue
		}
		j := i + 2
		hd := heredoc{}
		if j < len(line) && line[j] == '-' {
			hd.dash = true
			j++
		}
		for j < len(line) && line[j] == ' ' {
			j++
		}
		k := j
		for k < len(line) && !strings.ContainsRune(" \t;|&<>", rune(line[k])) {
			k++
		}
		hd.word = strings.Trim(line[j:k], `'"`)
		if hd.word != "" {
			out = append(out, hd)
		}
		i = k
	}
	return out
}

// expandVars replaces $NAME, ${NAME} and ${NAME:-default} with the values
// the script assigned, outside single quotes; unknown names stay as
// written (and are flagged later as placeholders).
func expandVars(s string, vars map[string]string) string {
	var b strings.Builder
	inSingle, inDouble := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' && !inDouble:
			inSingle = !inSingle
		case c == '"' && !inSingle:
			inDouble = !inDouble
		case c == '\\' && !inSingle && i+1 < len(s):
			b.WriteByte(c)
			i++
			c = s[i]
		case c == '$' && !inSingle:
			if v, n, ok := expandAt(s[i:], vars); ok {
				if inDouble { // "$VAR" is its value, whatever quotes it holds
					v = doubleQuoted(v, true)
				}
				b.WriteString(v)
				i += n - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// expandAt expands the variable reference at the start of s, returning
// the value and the length of the reference.
func expandAt(s string, vars map[string]string) (string, int, bool) {
	if strings.HasPrefix(s, "${") {
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return "", 0, false
		}
		name, def, hasDef := strings.Cut(s[2:end], ":-")
		if v, ok := vars[name]; ok && (v != "" || !hasDef) {
			return v, end + 1, true
		}
		if hasDef {
			return expandVars(def, vars), end + 1, true
		}
		return "", 0, false
	}
	n := 1
	for n < len(s) && (s[n] == '_' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || n > 1 && s[n] >= '0' && s[n] <= '9') {
		n++
	}
	if v, ok := vars[s[1:n]]; ok && n > 1 {
		return v, n, true
	}
	return "", 0, false
}

// assignment splits NAME=value (value already unquoted by shellWords).
func assignment(w string) (name, value string, ok bool) {
	name, value, ok = strings.Cut(w, "=")
	if !ok || name == "" {
		return "", "", false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return "", "", false
		}
	}
	return name, value, true
}

// isSubmitCommand reports whether a word runs spark-submit (bin/spark-submit,
// spark-submit.sh, ${SPARK_HOME}/bin/spark-submit once expanded).
func isSubmitCommand(w string) bool {
	b := path.Base(w)
	b = strings.TrimPrefix(b, "spark-client.") // Charmed Spark's snap wraps them: spark-client.spark-submit
	switch b {
	case "spark-submit", "spark-submit.sh", "spark-submit.cmd", "pyspark", "spark-shell", "spark-sql", "sparkR":
		return true // the shells take spark-submit's options
	}
	return false
}

// startJobRun is the command of an EMR on EKS job: its --job-driver
// holds spark-submit's parameters, its --configuration-overrides EMR
// classifications.
const startJobRun = "aws emr-containers start-job-run"

// serverlessJobRun is the command of an EMR Serverless job: its
// --job-driver's sparkSubmit holds spark-submit's parameters; the
// application it runs on (--application-id) has the release label.
const serverlessJobRun = "aws emr-serverless start-job-run"

// isStartJobRun reports whether words[j:] is `aws emr-containers
// start-job-run` (or emr-serverless), also inside a command substitution
// (JOB_ID=$(aws ...).
func isStartJobRun(words []string, j int) bool {
	if j+2 >= len(words) || (words[j+1] != "emr-containers" && words[j+1] != "emr-serverless") || words[j+2] != "start-job-run" {
		return false
	}
	return words[j] == "aws" || strings.HasSuffix(words[j], "=$(aws") || words[j] == "$(aws"
}

// submitScript is what a script says: the spark-submit arguments, where
// they are, and the heredoc documents it writes.
type submitScript struct {
	command  string // the spark-submit word itself, such as /opt/spark-3.5.1-bin-hadoop3/bin/spark-submit
	args     []string
	line     int
	heredocs []string
	// optionsVar names the variable whose spark-submit options were read
	// when the script runs no spark-submit itself (SPARKCONF="--master ...",
	// SPARK_CONF=("--conf" "k=v" ...)), for another script to pass them
	optionsVar string
	// cloud lists the cloud CLI commands of the script (cloudcli.go)
	cloud []cloudCommand
	// modules are the Environment Modules the script loads (modules.go)
	modules []moduleLoad
	// env is what the script sets, before its spark-submit, of the
	// variables spark-submit reads (scriptEnvVars)
	env map[string]string
	// lostLines are the first lines of options read without the
	// continuation their line lacks (scriptLine.lost)
	lostLines []int
}

// scriptEnvVars are the variables a job script sets for the spark-submit
// it runs: its Python and Java.
var scriptEnvVars = []string{"PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "JAVA_HOME"}

// readScript finds the first spark-submit command of a script, with the
// variables assigned before it expanded.
func readScript(text string) (submitScript, error) {
	var out submitScript
	vars := map[string]string{}
	var opts optionVars
	found := false
	for _, sl := range scriptLines(inlineCatHeredocs(text)) {
		out.heredocs = append(out.heredocs, sl.heredocs...)
		if sl.lost > 0 {
			out.lostLines = append(out.lostLines, sl.lost)
		}
		words, err := shellWords(expandVars(sl.text, vars))
		if found {
			if err == nil {
				out.cloud = append(out.cloud, cloudCommands(words, sl.line)...)
			}
			continue
		}
		if err != nil {
			return out, fmt.Errorf("line %d: %w", sl.line, err)
		}
		found = out.readLine(words, sl.line, vars, &opts)
	}
	out.env = scriptEnv(vars)
	if !found && len(out.cloud) > 0 {
		out.line, found = out.cloud[0].line, true // the cloud CLI's commands say what runs
	}
	if !found && opts.best != "" {
		out.command, out.args, out.line, out.optionsVar = "", opts.words, opts.line, opts.best
		found = true
	}
	if !found {
		return out, errNoSubmit
	}
	return out, nil
}

// readLine reads one logical line of the script before its spark-submit:
// module loads, assignments, and the command it runs (a spark-submit, an
// EMR on EKS job, cloud CLI commands); it reports whether the line is the
// spark-submit (or job) the script runs.
func (out *submitScript) readLine(words []string, line int, vars map[string]string, opts *optionVars) bool {
	if len(words) > 0 && (words[0] == "export" || words[0] == "readonly" || words[0] == "local" || words[0] == "declare") {
		words = words[1:]
	}
	for _, m := range moduleLoads(words) {
		out.modules = append(out.modules, moduleLoad{module: m, line: line})
	}
	i := readAssignments(words, line, vars, opts)
	if i == len(words) && i > 0 { // ID=$(aws emr create-cluster ...): the assignment runs the command
		words, i = substitutedWords(words[i-1]), 0
	}
	lineCloud := cloudCommands(words[i:], line)
	if len(lineCloud) == 0 && findSubmit(words, i, line, out) { // gcloud's "jobs submit pyspark" is no pyspark shell
		return true
	}
	if findStartJobRun(words, line, out) {
		return true
	}
	out.cloud = append(out.cloud, lineCloud...)
	return false
}

// scriptEnv is what the script set of scriptEnvVars, or nil.
func scriptEnv(vars map[string]string) map[string]string {
	var env map[string]string
	for _, k := range scriptEnvVars {
		if v := vars[k]; v != "" {
			if env == nil {
				env = map[string]string{}
			}
			env[k] = v
		}
	}
	return env
}

// readAssignments reads the NAME=value words that open words (bash arrays
// included) into vars, noting spark-submit options kept in them, and
// returns the index of the first word that is no assignment.
func readAssignments(words []string, line int, vars map[string]string, opts *optionVars) int {
	i := 0
	for ; i < len(words); i++ {
		name, value, ok := assignment(words[i])
		if !ok {
			break
		}
		if elems, n, isArray := arrayElements(value, words[i+1:]); isArray {
			vars[name] = strings.Join(elems, " ")
			opts.note(name, elems, line)
			i += n
			continue
		}
		if hasSubstitution(value) {
			// what the command prints is unknown here: $NAME stays as written
			// (its output, pasted in, would also break the JSON it lands in)
			delete(vars, name)
			continue
		}
		vars[name] = value
		if ws, err := shellWords(value); err == nil {
			opts.note(name, ws, line)
		}
	}
	return i
}

// findSubmit records in out the first spark-submit-like command of words
// from index from on, with its arguments.
func findSubmit(words []string, from, line int, out *submitScript) bool {
	for j := from; j < len(words); j++ {
		if words[j] == "eval" {
			// eval joins its arguments and reads them again: a quoted
			// "${OPTS}" becomes the options it holds
			again, err := shellWords(strings.Join(words[j+1:], " "))
			return err == nil && findSubmit(again, 0, line, out)
		}
		if isSubmitCommand(words[j]) {
			out.command, out.args, out.line = words[j], words[j+1:], line
			return true
		}
		if inner := quotedCommand(words[j]); inner != nil && findSubmit(inner, 0, line, out) {
			return true // bash -c 'spark-submit ...', kubectl exec pod -- sh -c "..."
		}
	}
	return false
}

// quotedCommand is the words of a command line quoted as one word (the
// argument of bash -c, su -c, eval), or nil when w holds none.
func quotedCommand(w string) []string {
	if !strings.ContainsAny(w, " \t\n") {
		return nil
	}
	words, err := shellWords(w)
	if err != nil || len(words) < 2 {
		return nil
	}
	return words
}

// findStartJobRun records in out an `aws emr-containers start-job-run`
// of words, with the words after it.
func findStartJobRun(words []string, line int, out *submitScript) bool {
	for j := range words {
		if isStartJobRun(words, j) {
			out.command, out.args, out.line = "aws "+words[j+1]+" start-job-run", words[j+3:], line
			return true
		}
	}
	return false
}

// arrayElements reads a bash array assignment's elements: value is the
// first word after NAME= ("(--master" when the array opens there), rest
// the words after it; n is how many of rest the array took.
func arrayElements(value string, rest []string) (elems []string, n int, ok bool) {
	first, isArray := strings.CutPrefix(value, "(")
	if !isArray {
		return nil, 0, false
	}
	words := append([]string{first}, rest...)
	for j, w := range words {
		if last, closed := strings.CutSuffix(w, ")"); closed {
			return append(elems, nonEmpty(last)...), j, true
		}
		elems = append(elems, nonEmpty(w)...)
	}
	return elems, len(rest), true
}

func nonEmpty(w string) []string {
	if w == "" {
		return nil
	}
	return []string{w}
}

// optionVars keeps the variable that holds the most spark-submit options
// (two at least), for a script that runs no spark-submit itself.
type optionVars struct {
	best  string
	words []string
	line  int
	count int
}

func (o *optionVars) note(name string, words []string, line int) {
	n := 0
	for _, w := range words {
		flag, _, _ := strings.Cut(w, "=")
		if _, ok := submitFlags[flag]; ok && strings.HasPrefix(flag, "--") {
			n++
		}
	}
	if n >= 2 && n >= o.count {
		o.best, o.words, o.line, o.count = name, words, line, n
	}
}

var errNoSubmit = fmt.Errorf("no spark-submit command")
