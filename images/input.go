package images

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/devenv-dev/devenv/internal/readset"
	"github.com/devenv-dev/devenv/profiles"
)

// DiscoveryScript is the Extra file name of Spark's GPU discovery script. The
// spark-rapids image installs it as /opt/sparkRapidsPlugin/getGpusResources.sh.
const DiscoveryScript = "getGpusResources.sh"

// Artifact names in profiles.Artifact.Name that the spark-rapids template
// places specially. Artifacts named "jar:<group>:<artifact>:<version>" (and
// files matching no artifact whose name ends in ".jar") go to $SPARK_HOME/jars.
const (
	ArtifactSpark     = "spark"
	ArtifactRapidsJar = "rapids-jar"
)

// Input is everything one service's image is made from.
type Input struct {
	Project  string            // project name, e.g. "etl"
	Service  string            // service name, e.g. "spark"
	Resolved profiles.Resolved // the service's resolved environment
	// Base is the lock's pinned base reference, already rewritten through
	// the registry mirror, e.g. "127.0.0.1:5055/nvidia/cuda@sha256:...".
	// For profile image without build it is the image to run.
	Base string
	// ProjectDir is the absolute project directory; Resolved.CACerts and a
	// relative RequirementsPath are read relative to it.
	ProjectDir string
	// Files are the downloaded artifacts, already checked by the lock code.
	Files []File
	// Extra holds generated files by name, such as DiscoveryScript.
	Extra map[string][]byte
	// RequirementsPath is the user's pip requirements file ("" for none).
	RequirementsPath string
	// Jupyter installs JupyterLab (spark-rapids).
	Jupyter bool
	// JupyterLab is the locked JupyterLab release installed with Jupyter.
	JupyterLab string
	// PipIndexURL is the PyPI mirror (a PEP 503 simple index), "" for PyPI.
	PipIndexURL string
	// AptMirror is the Debian/Ubuntu archive mirror of the generated apt
	// steps (mirrors.apt), "" for the base image's own sources. The image
	// hash leaves it out, as it does the other mirrors.
	AptMirror string
	// User is who the image's user (spark-rapids: devenv) is: the host
	// user on a local engine, so that what it writes under /workspace
	// belongs to whoever owns the project. nil: DefaultUser.
	User *UserIDs
	// UserDockerfile is the absolute path of the user's own Dockerfile
	// (profile image with build:, or a compose service's build:).
	UserDockerfile string
	// UserContext is the build context of the user's Dockerfile (compose's
	// build.context); "" is the Dockerfile's own directory (devenv.yaml's
	// build:).
	UserContext string
	// UserDockerfileInline is compose's dockerfile_inline: the Dockerfile
	// itself, sent at the root of UserContext (UserDockerfile is then "").
	UserDockerfileInline string
	// BuildArgs and Target are compose's build.args (those with a value)
	// and build.target, for the user's Dockerfile.
	BuildArgs map[string]string
	Target    string
	// Tags are the other names Compose gives the built image (a compose
	// service's image: and build.tags): the image is tagged with each,
	// and none is part of its content hash or its tag.
	Tags []string
	// Pins map each image the user's Dockerfile builds FROM, as the build
	// resolves it (e.g. "nvcr.io/nvidia/cuda:12.9.1-base-ubuntu22.04"), to
	// the reference devenv.lock pins it by, through the registry mirror
	// ("127.0.0.1:5055/nvidia/cuda@sha256:..."): the Dockerfile the engine
	// gets names those, and the file on disk is left as it is.
	Pins map[string]string
	// Reads records what sealing reads: the context as it is sent, the
	// Dockerfile, the requirements and certificate files; nil records
	// nothing.
	Reads *readset.Set `json:"-"`

	// sealed is what Seal read of the build's inputs; nil: Build reads them.
	sealed *sealed
}

// inlineDockerfile is where a compose dockerfile_inline goes in the context.
const inlineDockerfile = "Dockerfile.devenv-inline"

// UserIDs are a user's numeric ids.
type UserIDs struct{ UID, GID int }

// DefaultUser is the image user's ids when Input.User is nil: those of a
// first desktop user, and of a remote engine's synced volume.
var DefaultUser = UserIDs{UID: 1000, GID: 1000}

// File is one artifact in the build context.
type File struct {
	Name   string      // file name inside the build context, e.g. "spark-3.5.1-bin-hadoop3.tgz"
	Path   string      // local path of the downloaded file
	SHA256 string      // locked sha256, lower-case hex
	Mode   fs.FileMode // permission bits in the context; 0 means 0644
}

// needsBuild reports whether the service needs an image build at all: a plain
// image (profile image without a Dockerfile) does not.
func (in Input) needsBuild() bool {
	return in.Resolved.Profile != profiles.Image || in.userBuild()
}

// userBuild: the image is built from the user's own Dockerfile (a file,
// or a compose service's dockerfile_inline).
func (in Input) userBuild() bool {
	return in.UserDockerfile != "" || in.UserDockerfileInline != ""
}

// userContext is the directory sent as the user's build context.
func (in Input) userContext() string {
	if in.UserContext != "" {
		return in.UserContext
	}
	return filepath.Dir(in.UserDockerfile)
}

// userDockerfileName is the user's Dockerfile's path inside its context,
// slash-separated: what the engine is told to build. A Dockerfile outside
// the context is sent in it as outsideDockerfile.
func (in Input) userDockerfileName() string {
	if in.UserDockerfileInline != "" {
		return inlineDockerfile
	}
	if in.dockerfileOutside() {
		return outsideDockerfile
	}
	rel, _ := filepath.Rel(in.userContext(), in.UserDockerfile) // dockerfileOutside checked it
	return filepath.ToSlash(rel)
}

// dockerfileOutside: the user's Dockerfile is a file outside its build
// context (compose allows it: build.dockerfile "../x.Dockerfile", or an
// absolute path elsewhere).
func (in Input) dockerfileOutside() bool {
	if in.UserDockerfileInline != "" || in.UserDockerfile == "" {
		return false
	}
	rel, err := filepath.Rel(in.userContext(), in.UserDockerfile)
	return err != nil || !filepath.IsLocal(rel)
}

// HostUser is the image user for an engine of this machine (local) or
// another: on Linux with a local engine, this process's uid and gid, as Dev
// Containers' updateRemoteUserUID does, so that what the container writes
// under the bind-mounted /workspace belongs to the host user (root in CI, an
// LDAP uid on a workstation). Elsewhere nil, DefaultUser: a remote engine
// does not see this machine's files (its synced volume is the image user's),
// and Docker Desktop maps ownership on its file shares itself.
func HostUser(local bool) *UserIDs {
	if runtime.GOOS != "linux" || !local {
		return nil
	}
	return &UserIDs{UID: os.Getuid(), GID: os.Getgid()}
}
