package mirror

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// shellWords splits a command line the way a POSIX shell would for the
// simple cases found in job scripts: single and double quotes, backslash
// escapes, backslash-newline continuations and # comments. Variables are not
// expanded, and a command substitution ($(...) or `...`) stays whole inside
// its word, as the shell keeps it: --conf k=$(cat f | tr a b) is one
// argument. An unterminated quote is an error.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	const none = 0
	quote := byte(none)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = none
			} else {
				cur.WriteByte(c)
			}
		case quote == '"':
			i, quote = inDoubleQuotes(s, i, &cur)
		case c == '\\':
			if i+1 < len(s) {
				i++
				if s[i] == '\n' {
					continue
				}
				cur.WriteByte(s[i])
				inWord = true
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case isSubstitution(s, i):
			end := substitutionEnd(s, i)
			cur.WriteString(s[i : end+1])
			i, inWord = end, true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != none {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// inDoubleQuotes takes s[i], inside double quotes, into cur; it returns the
// index reached and the quote still open (0 once this one closes).
func inDoubleQuotes(s string, i int, cur *strings.Builder) (int, byte) {
	switch c := s[i]; {
	case c == '"':
		return i, 0
	case isSubstitution(s, i):
		end := substitutionEnd(s, i)
		cur.WriteString(s[i : end+1])
		return end, '"'
	case c == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0:
		i++
		if s[i] != '\n' {
			cur.WriteByte(s[i])
		}
	default:
		cur.WriteByte(c)
	}
	return i, '"'
}

// isSubstitution reports whether a command substitution that closes
// starts at s[i]: $( ... ) or ` ... `.
func isSubstitution(s string, i int) bool {
	if s[i] != '`' && !strings.HasPrefix(s[i:], "$(") {
		return false
	}
	return substitutionEnd(s, i) > i
}

// substitutionEnd is the index of the ) or ` that closes the command
// substitution starting at s[i], with nested parentheses and quotes
// inside it; -1 when it does not close.
func substitutionEnd(s string, i int) int {
	if s[i] == '`' {
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '`':
				return j
			}
		}
		return -1
	}
	depth := 0
	var quote byte
	for j := i + 1; j < len(s); j++ {
		c := s[j]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			j++
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// submitFlags maps spark-submit options to the confs they set.
var submitFlags = map[string]string{
	"--master":               "spark.master",
	"--deploy-mode":          "spark.submit.deployMode",
	"--name":                 "spark.app.name",
	"--jars":                 "spark.jars",
	"--packages":             "spark.jars.packages",
	"--exclude-packages":     "spark.jars.excludes",
	"--repositories":         "spark.jars.repositories",
	"--py-files":             "spark.submit.pyFiles",
	"--files":                "spark.files",
	"--archives":             "spark.archives",
	"--driver-memory":        "spark.driver.memory",
	"--driver-cores":         "spark.driver.cores",
	"--driver-java-options":  "spark.driver.extraJavaOptions",
	"--driver-library-path":  "spark.driver.extraLibraryPath",
	"--driver-class-path":    "spark.driver.extraClassPath",
	"--executor-memory":      "spark.executor.memory",
	"--executor-cores":       "spark.executor.cores",
	"--num-executors":        "spark.executor.instances",
	"--total-executor-cores": "spark.cores.max",
	"--queue":                "spark.yarn.queue",
	"--principal":            "spark.kerberos.principal",
	"--keytab":               "spark.kerberos.keytab",
	"--proxy-user":           "spark.proxyUser",
	"--class":                "",
	"--properties-file":      "",
	"--conf":                 "",
	"-c":                     "",
	"--supervise":            "",
	"--verbose":              "",
	"-v":                     "",
	"--kill":                 "",
	"--status":               "",
}

// noValueFlags take no argument.
var noValueFlags = map[string]bool{"--supervise": true, "--verbose": true, "-v": true}

// importSparkSubmit reads a spark-submit command line from a file: a bare
// command, or a job script (variables assigned before it are expanded;
// comments, continuations and heredocs are understood; a heredoc holding
// a cluster description is read too).
func importSparkSubmit(path string, data []byte) (*Profile, error) {
	if isBinary(data) {
		return nil, unsupported(path, "a spark-submit command line must be text")
	}
	p := newProfile(path, FormatSparkSubmit)
	sc, err := readScript(string(data))
	switch {
	case errors.Is(err, errNoSubmit):
		words, werr := shellWords(string(data))
		if werr != nil {
			return nil, fmt.Errorf("mirror: %s: %w; fix the quoting of the command line", path, werr)
		}
		i := 0
		for i < len(words) && !strings.HasPrefix(words[i], "-") {
			if isSubmitCommand(words[i]) {
				sc.command = words[i]
			}
			i++ // skip a command name, env assignments, paths
		}
		sc.args = words[i:]
	case err != nil:
		return nil, fmt.Errorf("mirror: %s: %w; fix the quoting of the command line", path, err)
	}
	for _, l := range sc.lostLines {
		p.warn(fmt.Sprintf("line %d: options with no backslash before them were read as the command's above them; the shell would run them as a command of their own", l))
	}
	if sc.optionsVar != "" {
		p.warn(fmt.Sprintf("the script runs no spark-submit: read the spark-submit options that %s holds (line %d), as the script that passes them would run them", sc.optionsVar, sc.line))
	}
	if sc.command == startJobRun || sc.command == serverlessJobRun {
		readStartJobRun(p, sc.args, sc.command == serverlessJobRun)
	} else if err := readSubmitArgs(p, sc.args); err != nil {
		return nil, fmt.Errorf("mirror: %s: %w", path, err)
	}
	p.readCloudCommands(sc.cloud)
	p.readModules(sc.modules)
	for _, k := range slices.Sorted(maps.Keys(sc.env)) {
		p.addEnv(k, sc.env[k])
	}
	p.sparkFromSubmitPath(sc.command)
	p.platformFromMaster()
	for i, doc := range sc.heredocs {
		p.mergeHeredoc(path, i, doc)
	}
	return p, nil
}

// mergeHeredoc reads a heredoc that holds a cluster description (a
// Databricks cluster JSON the script posts, an EMR Configurations file it
// writes) and takes what the command line did not say.
func (p *Profile) mergeHeredoc(path string, i int, doc string) {
	format := detectBytes([]byte(doc))
	if format == "" || format == FormatSparkSubmit || format == FormatSparkDefaults && !strings.Contains(doc, "spark.") {
		return
	}
	hp, err := importBytes(path, format, []byte(doc))
	if err != nil {
		p.warn(fmt.Sprintf("heredoc %d looks like a %s description but does not read: %v", i+1, format, err))
		return
	}
	src := fmt.Sprintf(" (heredoc %d, %s)", i+1, format)
	for k, v := range hp.Conf {
		if _, set := p.Conf[k]; !set {
			p.addConf(k, v, hp.ConfProvenance[k]+src)
		}
	}
	p.Redacted = append(p.Redacted, hp.Redacted...)
	for k, v := range hp.Env {
		if _, set := p.Env[k]; !set {
			p.addEnv(k, v)
		}
	}
	r := hp.Runtime
	setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, r.Label, r.LabelProvenance+src, false)
	if r.Spark != "" { // by rank: a heredoc's declared Spark beats one the command's path names
		p.setSparkRanked(firstNonEmpty(r.SparkBuild, r.Spark), r.SparkProvenance+src, hp.rankOf("spark"))
	}
	setStr(&p.Runtime.Scala, &p.Runtime.ScalaProvenance, r.Scala, r.ScalaProvenance+src, false)
	setStr(&p.Runtime.Java, &p.Runtime.JavaProvenance, r.Java, r.JavaProvenance+src, false)
	setStr(&p.Runtime.Python, &p.Runtime.PythonProvenance, r.Python, r.PythonProvenance+src, false)
	setStr(&p.GPU.Rapids, &p.GPU.RapidsProvenance, hp.GPU.Rapids, hp.GPU.RapidsProvenance+src, false)
	if hp.Source.Platform != "" && (p.Source.Platform == "" || p.Source.Platform == "local") {
		p.Source.Platform = hp.Source.Platform
	}
	if p.Source.Cloud == "" {
		p.Source.Cloud = hp.Source.Cloud
	}
	if p.Topology.WorkerType == "" {
		p.Topology.WorkerType, p.Topology.DriverType = hp.Topology.WorkerType, hp.Topology.DriverType
		setInt(&p.Topology.Workers, &p.Topology.WorkersProvenance, hp.Topology.Workers, hp.Topology.WorkersProvenance+src, false)
	}
	for _, w := range hp.Warnings {
		p.warn(w)
	}
}

// sparkDistRe finds a Spark distribution's directory in a path, as Apache's
// tarballs unpack: spark-3.5.1-bin-hadoop3, spark-3.5.1-bin-without-hadoop,
// spark-3.5.1.
var sparkDistRe = lazy.Regexp(`(?:^|/)spark-(\d+\.\d+\.\d+)(?:-bin-[A-Za-z0-9.-]+)?/`)

// sparkFromSubmitPath reads the Spark release from the path of the
// spark-submit the command runs (/opt/spark-3.5.1-bin-hadoop3/bin/spark-submit):
// a name, so a version the file declares beats it (precedence.go).
func (p *Profile) sparkFromSubmitPath(command string) {
	if m := sparkDistRe().FindStringSubmatch(command); m != nil {
		src := "spark-submit path " + command
		p.inferSpark(m[1], src)
		if strings.Contains(m[0], "-bin-") {
			p.prebuiltScala(m[1], m[0], src)
		}
	}
}

// prebuiltScala records the Scala of Apache's pre-built distribution of
// Spark release whose name is dist (spark-2.4.0-bin-hadoop2.7,
// spark-3.5.1-bin-hadoop3-scala2.13, EasyBuild's Spark/2.4.0-Hadoop-2.7):
// spark.apache.org/downloads.html, "Spark 2.x is pre-built with Scala 2.11
// except version 2.4.2, which is pre-built with Scala 2.12. Spark 3.0+ is
// pre-built with Scala 2.12", and 3.2+ also as a -scala2.13 package.
func (p *Profile) prebuiltScala(release, dist, src string) {
	major, _, _ := strings.Cut(release, ".")
	scala := ""
	switch {
	case strings.Contains(strings.ToLower(dist), "scala2.13"):
		scala = "2.13"
	case major == "2" && release == "2.4.2":
		scala = "2.12"
	case major == "2":
		scala = "2.11"
	case major == "3":
		scala = "2.12"
	}
	if scala != "" {
		p.setFact("scala", scala, src+" (Apache's pre-built Spark "+release+" is built for Scala "+scala+")", rankInferred)
	}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func readSubmitArgs(p *Profile, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			if strings.HasSuffix(a, ".jar") { // Spark's own module jar names Spark and Scala
				p.jarNameFacts(path.Base(a), "spark-submit application jar "+path.Base(a))
			}
			p.files = append(p.files, args[i:]...)
			if len(args[i+1:]) > 0 {
				p.warn(fmt.Sprintf("application arguments after %s are not Spark confs and were ignored", a))
			}
			return nil // the application jar or script
		}
		name, val, hasEq := strings.Cut(a, "=")
		if name == "--conf" || name == "-c" {
			var err error
			if val, i, err = flagValue(args, i, "--conf", val, hasEq); err != nil {
				return fmt.Errorf("--conf needs key=value")
			}
			k, v, ok := strings.Cut(val, "=")
			if !ok {
				p.warn(fmt.Sprintf("--conf %q is not key=value; skipped", val))
				continue
			}
			p.addConf(k, v, "spark-submit:--conf")
			continue
		}
		key, known := submitFlags[name]
		if !known {
			p.warn(fmt.Sprintf("unknown spark-submit option %s; skipped", name))
		}
		if noValueFlags[name] {
			continue
		}
		var err error
		if val, i, err = flagValue(args, i, name, val, hasEq); err != nil {
			return err
		}
		if name == "--properties-file" {
			p.warn(fmt.Sprintf("--properties-file %s: import that file too to see its confs", val))
		}
		if key != "" {
			p.addConf(key, val, "spark-submit:"+name)
		}
	}
	return nil
}

// flagValue is the value of the option at args[i]: the part after '=' when
// it had one, else the next argument (and the index moves onto it).
func flagValue(args []string, i int, name, val string, hasEq bool) (string, int, error) {
	if hasEq {
		return val, i, nil
	}
	if i+1 >= len(args) {
		return "", i, fmt.Errorf("%s needs a value", name)
	}
	return args[i+1], i + 1, nil
}
