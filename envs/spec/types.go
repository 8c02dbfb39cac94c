// Package spec is devenv.yaml: its types, strict loading with file:line:col
// errors, defaults and validation (every problem reported at once).
package spec

import (
	"errors"
	"io/fs"
	"os"

	"github.com/devenv-dev/devenv/profiles"
)

// SchemaVersion is the devenv.yaml schema this devenv reads.
const SchemaVersion = 1

// Pos is a place in devenv.yaml.
type Pos struct {
	Line, Col int
}

// Project is a loaded, defaulted and validated devenv.yaml.
type Project struct {
	Version int
	Name    string // default: the directory name, made a valid Docker name
	Dir     string // absolute project directory
	File    string // absolute path of devenv.yaml
	Compose []string
	// ComposeServices names the services the compose files define.
	ComposeServices []string   // absolute paths of the project's compose files
	Services        []*Service // in file order
	Profiles        map[string]*profiles.Custom
	// ProfileFiles are project files that hold custom profiles (profile_files:).
	ProfileFiles []string
	Mirrors      Mirrors
	// Raw is the file's bytes, for hashing into the lock.
	Raw []byte
	// Pos holds where each top-level key was written ("services", ...).
	Pos map[string]Pos
	// ProfileLoc is where each custom profile was defined (devenv.yaml or
	// one of the profile files).
	ProfileLoc map[string]Location
}

// Service returns the named service or nil.
func (p *Project) Service(name string) *Service {
	for _, s := range p.Services {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Service is one entry under services:.
type Service struct {
	Name    string
	Profile string // spark-rapids | rapids | triton | image | a custom profile
	// Versions; empty means newest compatible.
	Spark, Rapids, Scala, Java, Python, CUDA, Release string
	Image                                             string   // profile image: a plain image reference
	Build                                             string   // profile image: a Dockerfile path (absolute after Load, inside Dir)
	GPUs                                              GPUs     // gpus:
	GPU                                               string   // "required" (the default) | "optional"
	Ports                                             []Port   // ports:
	Volumes                                           []Volume // volumes:
	Env                                               map[string]string
	EnvFile                                           string // absolute after Load, inside Dir; it may not exist (see EnvFileMissing)
	Requirements                                      string // pip requirements file, absolute after Load, inside Dir
	Jars                                              []string
	Conf                                              map[string]string // Spark confs from the user
	DependsOn                                         []string
	Command                                           []string
	Workers                                           int    // spark-rapids: standalone workers (0 = local[*])
	Mirror                                            string // production description (devenv mirror), absolute after Load, inside Dir
	MirrorFormat                                      string // the format of Mirror when forced (mirror_format:, devenv mirror --format); "" detects it
	Jupyter                                           *bool  // spark-rapids: install and start JupyterLab (default true)
	Healthcheck                                       *Healthcheck
	Memory                                            string // memory limit, e.g. "16g" (empty: no limit)
	// Pos holds where each key of this service was written, by YAML key name
	// ("ports", "gpus", ...) plus "" for the service's own key.
	Pos map[string]Pos
}

// Request is the profile request this service makes.
func (s *Service) Request() profiles.Request {
	return profiles.Request{Profile: s.Profile, Spark: s.Spark, Rapids: s.Rapids, Scala: s.Scala,
		Java: s.Java, Python: s.Python, CUDA: s.CUDA, Release: s.Release}
}

// GPUs is gpus: all | N | [index or UUID or MIG UUID, ...] | 0.
type GPUs struct {
	Set   bool     // the key was written
	All   bool     // all
	Count int      // N (0 with Set and no IDs means no GPU)
	IDs   []string // explicit devices
}

// Wants reports whether the service asks for at least one GPU.
func (g GPUs) Wants() bool { return g.All || g.Count > 0 || len(g.IDs) > 0 }

// Port is one ports: entry, "[ip:]host:container[/proto]" or "container".
type Port struct {
	HostIP    string // default 127.0.0.1
	Host      int    // 0: same as Container
	Container int
	Protocol  string // tcp | udp
}

// Volume is one volumes: entry, "source:target[:ro|rw]".
type Volume struct {
	Source   string // absolute host path for binds, or a volume name
	Target   string
	ReadOnly bool
	Named    bool // a named volume rather than a bind mount
}

// Healthcheck overrides the profile's healthcheck.
type Healthcheck struct {
	Test        []string
	Interval    string
	Timeout     string
	Retries     int
	StartPeriod string
	Disable     bool
}

// Mirrors rewrites where images and artifacts come from.
type Mirrors struct {
	Registries map[string]string // nvcr.io -> 127.0.0.1:5055
	Maven      string            // replaces https://repo1.maven.org/maven2
	Apache     string            // replaces https://archive.apache.org/dist
	PyPI       string            // a PEP 503 simple index
	APT        string            // replaces the scheme://host of the base's Debian and Ubuntu archives in generated apt steps
}

// Location is a place in one of the project's files.
type Location struct {
	File string // relative to the project directory
	Pos  Pos
}

// EnvFileMissing reports whether the service names an env_file that does
// not exist: commands that read the project work without it, commands that
// start containers refuse (see plan.Service.EnvFileError).
func (s *Service) EnvFileMissing() bool {
	if s.EnvFile == "" {
		return false
	}
	_, err := os.Stat(s.EnvFile)
	return errors.Is(err, fs.ErrNotExist)
}
