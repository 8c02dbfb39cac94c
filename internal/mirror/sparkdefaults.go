package mirror

import (
	"fmt"
	"strconv"
	"strings"
)

// property is one key/value of a Java properties file, with its line.
type property struct {
	Key, Value string
	Line       int
}

// parseProperties reads Java properties syntax (java.util.Properties.load):
// separators whitespace, '=' or ':'; '#' and '!' comment lines; a trailing
// odd backslash continues the line; \t \n \r \f \uXXXX and \x escapes.
func parseProperties(text string) []property {
	var out []property
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		start := i + 1
		line := strings.TrimLeft(lines[i], " \t\f")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		for endsWithContinuation(line) && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + strings.TrimLeft(lines[i], " \t\f")
		}
		if endsWithContinuation(line) {
			line = line[:len(line)-1]
		}
		k, v := splitProperty(line)
		out = append(out, property{Key: unescapeProperty(k), Value: strings.TrimSpace(unescapeProperty(v)), Line: start})
	}
	return out
}

func endsWithContinuation(line string) bool {
	n := 0
	for i := len(line) - 1; i >= 0 && line[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitProperty splits a logical line at the first unescaped separator.
func splitProperty(line string) (key, value string) {
	i := 0
	for i < len(line) {
		c := line[i]
		if c == '\\' {
			i += 2
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			break
		}
		i++
	}
	if i >= len(line) {
		return line, ""
	}
	key, rest := line[:i], line[i:]
	rest = strings.TrimLeft(rest, " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	return key, rest
}

// unescapeProperty applies Properties escapes.
func unescapeProperty(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+4 < len(s) {
				if r, err := strconv.ParseUint(s[i+1:i+5], 16, 32); err == nil {
					b.WriteRune(rune(r))
					i += 4
					continue
				}
			}
			b.WriteByte('u')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// importSparkDefaults reads spark-defaults.conf; like Spark, it keeps only
// keys that start with "spark." and lets later duplicates win.
func importSparkDefaults(path string, data []byte) (*Profile, error) {
	if isBinary(data) {
		return nil, unsupported(path, "spark-defaults.conf must be text")
	}
	p := newProfile(path, FormatSparkDefaults)
	for _, pr := range parseProperties(string(data)) {
		src := fmt.Sprintf("spark-defaults:%d", pr.Line)
		if !strings.HasPrefix(pr.Key, "spark.") {
			p.drop(pr.Key, pr.Value, fmt.Sprintf("line %d: Spark ignores keys that do not start with spark.", pr.Line))
			continue
		}
		p.addConf(pr.Key, pr.Value, src)
	}
	p.platformFromMaster()
	return p, nil
}

// platformFromMaster guesses the platform from spark.master.
func (p *Profile) platformFromMaster() {
	m := p.Conf["spark.master"]
	switch {
	case strings.HasPrefix(m, "k8s://"):
		p.Source.Platform = "kubernetes"
		if p.Source.Cloud == "" {
			p.Source.Cloud = managedKubernetesCloud(m)
		}
	case m == "yarn" || strings.HasPrefix(m, "yarn"):
		if p.Source.Platform != "emr" && p.Source.Platform != "dataproc" { // YARN clusters of their own
			p.Source.Platform = "yarn"
		}
	case strings.HasPrefix(m, "spark://"):
		p.Source.Platform = "standalone"
	case strings.HasPrefix(m, "local"):
		p.Source.Platform = "local"
	case m == "" && p.Source.Platform == "":
		p.Source.Platform = platformFromConfs(p.Conf)
	}
}

// platformFromConfs is, with no master set, "yarn" when the confs set
// spark.yarn.* keys (which only YARN reads: the history server address,
// the queue, the application master's settings), "kubernetes" when they
// set spark.kubernetes.* keys (a client that sets the master itself, as
// Charmed Spark's spark-client does), and "" when they set both or none.
func platformFromConfs(conf map[string]string) string {
	yarn, k8s := false, false
	for k := range conf {
		yarn = yarn || strings.HasPrefix(k, "spark.yarn.")
		k8s = k8s || strings.HasPrefix(k, "spark.kubernetes.")
	}
	switch {
	case yarn && k8s:
		return "" // both: the file does not say
	case yarn:
		return "yarn"
	case k8s:
		return "kubernetes"
	}
	return ""
}

// managedKubernetesCloud names the cloud of a managed Kubernetes service
// by its API server's host name (k8s://https://<id>.<region>.eks.amazonaws.com
// is EKS, *.azmk8s.io AKS); "" for any other host.
func managedKubernetesCloud(master string) string {
	u := strings.TrimPrefix(master, "k8s://")
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	host, _, _ := strings.Cut(u, "/")
	host, _, _ = strings.Cut(host, ":")
	switch host = strings.ToLower(host); {
	case strings.HasSuffix(host, ".eks.amazonaws.com"):
		return "aws"
	case strings.HasSuffix(host, ".azmk8s.io"):
		return "azure"
	}
	return ""
}
