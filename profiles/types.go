// Package profiles holds devenv's built-in profile catalog and compatibility
// matrix (embedded data that cites its sources) and resolves what a service
// asks for into explicit versions, a base image and the artifacts to fetch.
// Resolution is pure: no I/O, no clock.
package profiles

// The built-in profile names.
const (
	SparkRapids = "spark-rapids"
	Rapids      = "rapids"
	Triton      = "triton"
	Image       = "image"
)

// Request is what one service asks for. Empty fields mean "newest compatible".
type Request struct {
	Profile string // a built-in name or a custom profile's name
	Spark   string // "3.5.1" or "3.5"
	Rapids  string // RAPIDS Accelerator "25.06.0" (spark-rapids) or RAPIDS release "25.06" (rapids)
	Scala   string // "2.12" | "2.13"
	Java    string // "8" | "11" | "17" | "21"
	Python  string // "3.11"
	CUDA    string // "12" | "12.9" | "12.9.1"
	Release string // container release YY.MM (rapids, triton)
	Arch    string // "amd64" (default) | "arm64"
	// Driver is the NVIDIA driver the versions left unset must run on: the
	// newest combination whose CUDA it runs is chosen (when none does, the
	// newest one, with a note). Empty: no limit. DriverRule says where the
	// driver came from, for the notes. Neither is part of what a service
	// asks for, so neither is hashed into the lock.
	Driver     string `json:"-"`
	DriverRule string `json:"-"`
	// DataCenter says the driver drives data-center GPUs (DataCenterGPU):
	// a CUDA toolkit then runs from its family's floor (minor-version
	// compatibility: CUDA 13 on R580+, CUDA 12 on R525+) rather than from
	// the toolkit's own driver, which consumer GPUs keep. Not hashed.
	DataCenter bool `json:"-"`
	// Prefer is prod's stack (a service's mirror:): spark-rapids takes it
	// where the fields above are open, or the nearest the catalog builds,
	// and lists what differs in Resolved.Deviations. Not hashed either: the
	// mirror file's own hash is a lock input.
	Prefer *Prefer `json:"-"`
}

// Requirements is what a resolved service needs from the host.
type Requirements struct {
	MinDriver            string `json:"min_driver" yaml:"min_driver"`                         // e.g. "525.60.13"
	CUDA                 string `json:"cuda" yaml:"cuda"`                                     // CUDA major.minor the image runs, e.g. "12.9"
	MinComputeCapability string `json:"min_compute_capability" yaml:"min_compute_capability"` // e.g. "7.0"
}

// Artifact is a file that an image build needs, named by its canonical
// upstream URL. Mirrors rewrite the URL at lock time; the lock records the
// sha256 after checking it against the publisher's checksum.
type Artifact struct {
	Name         string `json:"name" yaml:"name"`                   // "spark", "rapids-jar", "jar:<group>:<artifact>:<version>"
	URL          string `json:"url" yaml:"url"`                     // canonical upstream URL
	ChecksumURL  string `json:"checksum_url" yaml:"checksum_url"`   // publisher's checksum file
	ChecksumAlgo string `json:"checksum_algo" yaml:"checksum_algo"` // "sha512" | "sha256" | "sha1"
	File         string `json:"file" yaml:"file"`                   // file name inside the build context
}

// Resolved is a fully explicit environment for one service.
type Resolved struct {
	Profile       string            `json:"profile"`          // built-in profile this is based on
	Custom        string            `json:"custom,omitempty"` // custom profile name, when one was used
	Spark         string            `json:"spark,omitempty"`
	Scala         string            `json:"scala,omitempty"`      // binary version "2.12"
	ScalaFull     string            `json:"scala_full,omitempty"` // "2.12.15"
	Java          string            `json:"java,omitempty"`
	Python        string            `json:"python,omitempty"`
	Rapids        string            `json:"rapids,omitempty"`
	CUDA          string            `json:"cuda,omitempty"`    // full toolkit version of the base, "12.9.1"
	Release       string            `json:"release,omitempty"` // YY.MM
	BaseImage     string            `json:"base_image"`        // canonical ref, e.g. nvcr.io/nvidia/cuda:12.9.1-runtime-ubuntu22.04
	JarClassifier string            `json:"jar_classifier,omitempty"`
	Requires      Requirements      `json:"requires"`
	Artifacts     []Artifact        `json:"artifacts,omitempty"`
	Apt           []string          `json:"apt,omitempty"`
	Pip           []string          `json:"pip,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
	Conf          map[string]string `json:"conf,omitempty"`
	CACerts       []string          `json:"ca_certs,omitempty"` // project-relative paths
	Notes         []string          `json:"notes,omitempty"`    // what was chosen for the user and why
	// Deviations: where the versions differ from Request.Prefer (prod's), and why.
	Deviations []Deviation `json:"deviations,omitempty"`
}

// Custom is a team's own profile: it extends a built-in one.
type Custom struct {
	Name      string            `json:"name"`
	Extends   string            `json:"extends"`              // a built-in profile name
	BaseImage string            `json:"base_image,omitempty"` // replaces the built-in base
	Apt       []string          `json:"apt,omitempty"`
	Pip       []string          `json:"pip,omitempty"`
	Jars      []string          `json:"jars,omitempty"` // Maven coordinates
	Env       map[string]string `json:"env,omitempty"`
	Conf      map[string]string `json:"conf,omitempty"`
	CACerts   []string          `json:"ca_certs,omitempty"`
	Defaults  Request           `json:"defaults,omitempty"` // version defaults a service may override
}
