package mirror

import (
	"fmt"
	"strings"
)

// shellWords splits a command line the way a POSIX shell would for the
// simple cases found in job scripts: single and double quotes, backslash
// escapes, backslash-newline continuations and # comments. Variables are not
// expanded. An unterminated quote is an error.
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

// importSparkSubmit reads a spark-submit command line from a file.
func importSparkSubmit(path string, data []byte) (*Profile, error) {
	if isBinary(data) {
		return nil, unsupported(path, "a spark-submit command line must be text")
	}
	words, err := shellWords(string(data))
	if err != nil {
		return nil, fmt.Errorf("mirror: %s: %w; fix the quoting of the command line", path, err)
	}
	p := newProfile(path, FormatSparkSubmit)
	i := 0
	for i < len(words) && !strings.HasPrefix(words[i], "-") {
		i++ // skip "spark-submit", env assignments, paths
	}
	if err := readSubmitArgs(p, words[i:]); err != nil {
		return nil, fmt.Errorf("mirror: %s: %w", path, err)
	}
	p.platformFromMaster()
	return p, nil
}

func readSubmitArgs(p *Profile, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
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
