package spec

import (
	"fmt"
	"net"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/distribution/reference"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// versionRule says what one version key accepts.
type versionRule struct {
	re      func() *regexp.Regexp
	example string
}

var versionRules = map[string]versionRule{
	"spark":   {lazy.Regexp(`^[0-9]+\.[0-9]+(\.[0-9]+)?$`), `"3.5.1" or "3.5"`},
	"rapids":  {lazy.Regexp(`^[0-9]{2}\.[0-9]{2}(\.[0-9]+)?$`), `"25.06.0" or "25.06"`},
	"scala":   {lazy.Regexp(`^2\.1[23]$`), `"2.12" or "2.13"`},
	"java":    {lazy.Regexp(`^(8|11|17|21)$`), `8, 11, 17 or 21`},
	"python":  {lazy.Regexp(`^3\.[0-9]{1,2}(\.[0-9]+)?$`), `"3.11"`},
	"cuda":    {lazy.Regexp(`^[0-9]{1,2}(\.[0-9]{1,2}(\.[0-9]+)?)?$`), `"12", "12.9" or "12.9.1"`},
	"release": {lazy.Regexp(`^[0-9]{2}\.(0[1-9]|1[0-2])$`), `a container release YY.MM such as "25.01"`},
}

// checkVersion returns a message when v is not a valid value for key.
func checkVersion(key, v string) (msg, hint string) {
	r := versionRules[key]
	if r.re().MatchString(v) {
		return "", ""
	}
	return fmt.Sprintf("%s version %q is malformed", key, v), "write it as " + r.example + "; quote it so YAML keeps it a string"
}

var (
	projectNameRE = lazy.Regexp(`^[a-z0-9][a-z0-9_-]*$`)
	serviceNameRE = lazy.Regexp(`^[a-zA-Z0-9][a-zA-Z0-9_.-]*$`)
	volumeNameRE  = lazy.Regexp(`^[a-zA-Z0-9][a-zA-Z0-9_.-]*$`)
	memoryRE      = lazy.Regexp(`^(?i)[0-9]+(\.[0-9]+)?[bkmgt]?b?$`)
	gpuIDRE       = lazy.Regexp(`^([0-9]+|GPU-[0-9a-fA-F-]+|MIG-[0-9a-zA-Z/-]+)$`)
	envNameRE     = lazy.Regexp(`^[A-Za-z_][A-Za-z0-9_]*$`)
	mavenCoordRE  = lazy.Regexp(`^[^:\s]+:[^:\s]+:[^:\s]+(:[^:\s]+)?$`)
)

// DockerName turns s (a directory name) into a valid project name: lower
// case letters, digits, '-' and '_', starting with a letter or digit.
func DockerName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.TrimLeft(b.String(), "-_")
	if out != "" && projectNameProblem(out) != "" {
		// Runs of separators or a trailing one would make the image name
		// devenv/<project>-<service> one Docker refuses; names that work
		// are kept as they are, so existing projects keep their objects.
		out = strings.Trim(separatorRun().ReplaceAllString(out, "-"), "-_")
	}
	if out == "" {
		return "devenv"
	}
	return out
}

// projectNameProblem says why v cannot be a project name, or "".
// CheckProjectName refuses a project name devenv cannot name Docker
// objects with (a -p/--project-name), saying what to write.
func CheckProjectName(v string) error {
	if why := projectNameProblem(v); why != "" {
		return fmt.Errorf("project name %q is not valid: %s, e.g. %q", v, why, DockerName(v))
	}
	return nil
}

func projectNameProblem(v string) string {
	if !projectNameRE().MatchString(v) {
		return "use lower-case letters, digits, '-' and '_', starting with a letter or digit"
	}
	if _, err := reference.ParseNormalizedNamed("devenv/" + v + "-service"); err != nil {
		return "its images are named devenv/" + v + "-<service>, which Docker refuses: end it with a letter or digit, with at most two '_' in a row"
	}
	return ""
}

// Paths devenv itself fills in every container of a devenv service.
const (
	// Workspace is where the project directory is mounted.
	Workspace = "/workspace"
	// ConfDir is where generated configuration (spark-defaults.conf) is
	// copied into the container when it is created.
	ConfDir = "/opt/devenv/conf"
)

// reservedTargets says, per mount target devenv uses itself, what it puts
// there; a volume on one of them would make the engine refuse the container
// ("Duplicate mount point") or hide (or, read-only, refuse) the files
// devenv copies in.
var reservedTargets = map[string]struct{ what, hint string }{
	Workspace: {"the project directory", "remove this entry: the whole project is already at " + Workspace + "; mount other folders elsewhere, e.g. \"./data:/data\""},
	ConfDir:   {"its generated configuration", "mount at another path; devenv writes " + ConfDir + " itself"},
}

// parsePort reads "[ip:]host:container[/proto]" or "container".
func parsePort(s string) (Port, error) {
	p := Port{Protocol: "tcp"}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		p.Protocol = s[i+1:]
		s = s[:i]
		if p.Protocol != "tcp" && p.Protocol != "udp" {
			return p, fmt.Errorf("protocol %q is not tcp or udp", p.Protocol)
		}
	}
	if strings.HasPrefix(s, "[") { // [ipv6]:host:container
		end := strings.Index(s, "]:")
		if end < 0 {
			return p, fmt.Errorf("an IPv6 address must be written [addr]:host:container")
		}
		p.HostIP, s = s[1:end], s[end+2:]
		if net.ParseIP(p.HostIP) == nil {
			return p, fmt.Errorf("%q is not an IP address", p.HostIP)
		}
	}
	parts := strings.Split(s, ":")
	switch {
	case len(parts) == 3 && p.HostIP == "":
		p.HostIP = parts[0]
		if net.ParseIP(p.HostIP) == nil {
			return p, fmt.Errorf("%q is not an IP address", p.HostIP)
		}
		parts = parts[1:]
	case len(parts) > 2:
		return p, fmt.Errorf("too many ':'")
	}
	var err error
	if p.Container, err = portNumber(parts[len(parts)-1]); err != nil {
		return p, err
	}
	if len(parts) == 2 {
		if p.Host, err = portNumber(parts[0]); err != nil {
			return p, err
		}
	}
	return p, nil
}

func portNumber(s string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("a port number is missing")
	}
	if strings.Contains(s, "-") {
		return 0, fmt.Errorf("port ranges like %q are not supported; list each port", s)
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a port number", s)
	}
	if n < 1 || n > 65535 {
		return 0, fmt.Errorf("port %d is out of range 1-65535", n)
	}
	return n, nil
}

// parseVolume reads "source:target[:ro|rw]" without touching the disk; bind
// sources are returned as written.
func parseVolume(s string) (Volume, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return Volume{}, fmt.Errorf("write it as source:target[:ro|rw]")
	}
	v := Volume{Source: parts[0], Target: parts[1]}
	if len(parts) == 3 {
		switch parts[2] {
		case "ro":
			v.ReadOnly = true
		case "rw":
		default:
			return v, fmt.Errorf("mode %q is not ro or rw", parts[2])
		}
	}
	if v.Source == "" || v.Target == "" {
		return v, fmt.Errorf("source and target must not be empty")
	}
	if !strings.HasPrefix(v.Target, "/") {
		return v, fmt.Errorf("target %q must be an absolute path in the container", v.Target)
	}
	v.Target = path.Clean(v.Target)
	if v.Target == "/" {
		return v, fmt.Errorf("target / would hide the container's whole file system; the Docker engine refuses it (mount at a directory such as /data)")
	}
	switch {
	case strings.HasPrefix(v.Source, "~"):
		return v, fmt.Errorf("'~' is not expanded; write an absolute path or one relative to the project")
	case strings.HasPrefix(v.Source, "/"), strings.HasPrefix(v.Source, "."):
	case volumeNameRE().MatchString(v.Source):
		v.Named = true
	default:
		return v, fmt.Errorf("%q is neither a path (start it with ./ or /) nor a volume name", v.Source)
	}
	return v, nil
}
