// Package engine is devenv's only way to reach the Docker Engine. It defines
// a small Engine interface, the Docker adapter returned by Connect, and the
// sentinel errors the CLI maps to exit codes. No other devenv package imports
// github.com/docker/docker; they use the plain types declared here.
package engine

import (
	"context"
	"io"
	"time"
)

// Engine is what devenv needs from a container engine. The Docker adapter
// (Connect) implements it against the Engine API; enginetest.Fake implements it
// in memory for unit tests.
type Engine interface {
	// Info describes the engine: versions, host resources and GPU hints.
	Info(ctx context.Context) (Info, error)
	// ImageExists reports whether an image with this reference or id exists locally.
	ImageExists(ctx context.Context, ref string) (bool, error)
	// ImageID is the id ("sha256:...") of the local image ref; "" when the
	// engine has no such image.
	ImageID(ctx context.Context, ref string) (string, error)
	// Pull fetches ref with the user's Docker credentials for its registry,
	// reporting each progress message of the engine to progress (may be nil).
	Pull(ctx context.Context, ref string, progress func(Progress)) error
	// Build builds an image from req.Context (a tar stream) and returns its id.
	Build(ctx context.Context, req BuildRequest, progress func(Progress)) (string, error)
	// TagImage gives the local image source (a reference or id) the name
	// target as well, as docker tag does.
	TagImage(ctx context.Context, source, target string) error
	// RemoveImage removes an image by reference or id.
	RemoveImage(ctx context.Context, ref string) error
	// EnsureNetwork returns the bridge network called name (its id and
	// labels), creating it with labels when it does not exist.
	EnsureNetwork(ctx context.Context, name string, labels map[string]string) (Object, error)
	// EnsureVolume returns the named volume (its name and labels),
	// creating it with labels when it does not exist.
	EnsureVolume(ctx context.Context, name string, labels map[string]string) (Object, error)
	// List returns the objects of kind carrying all the given labels (a label
	// with an empty value matches any value). The engine does the filtering.
	List(ctx context.Context, kind Kind, labels map[string]string) ([]Object, error)
	// Create creates (does not start) a container, puts spec.Files into
	// it, and returns its id. When the files cannot be placed the
	// container is removed again and the error returned.
	Create(ctx context.Context, spec ContainerSpec) (string, error)
	// Start starts a created or stopped container.
	Start(ctx context.Context, id string) error
	// Stop stops a container, killing it after timeout.
	Stop(ctx context.Context, id string, timeout time.Duration) error
	// Remove removes an object of kind by id or name. For containers it
	// forces removal of running ones; removeVolumes also drops their
	// anonymous volumes.
	Remove(ctx context.Context, kind Kind, id string, removeVolumes bool) error
	// Inspect returns the state and configuration of a container.
	Inspect(ctx context.Context, id string) (ContainerState, error)
	// Logs copies a container's output to stdout and stderr.
	Logs(ctx context.Context, id string, opts LogOptions, stdout, stderr io.Writer) error
	// Exec runs a command in a running container and returns its exit code.
	Exec(ctx context.Context, id string, opts ExecOptions) (int, error)
	// Close releases the connection to the engine.
	Close() error
}

// Kind names a kind of engine object.
type Kind string

// The kinds of objects List and Remove handle.
const (
	Containers Kind = "container"
	Networks   Kind = "network"
	Volumes    Kind = "volume"
	Images     Kind = "image"
)

// Info describes the engine devenv talks to.
type Info struct {
	ServerVersion  string   // e.g. "20.10.24"
	APIVersion     string   // the negotiated API version, e.g. "1.41"
	EngineAPI      string   // the newest API version the engine speaks
	OS             string   // e.g. "Debian GNU/Linux 12 (bookworm)"
	OSType         string   // "linux" or "windows"
	Architecture   string   // e.g. "x86_64"
	DockerRootDir  string   // e.g. "/var/lib/docker"
	NCPU           int      // CPUs the engine sees
	MemTotal       int64    // bytes of memory the engine sees
	Runtimes       []string // configured runtimes, sorted
	DefaultRuntime string   // e.g. "runc"
	CDISpecDirs    []string // CDI spec directories (empty before API 1.44 or with CDI off)
	// DiscoveredDevices are the devices the engine's device drivers found,
	// as "source:id" (e.g. "cdi:nvidia.com/gpu=0"); Docker 28.2 (API 1.50)
	// and later only.
	DiscoveredDevices []string `json:",omitempty"`
	// NvidiaRuntime is true when an "nvidia" runtime is configured. It is a
	// hint only: device requests also work with the toolkit's hook alone.
	NvidiaRuntime bool
}

// Progress is one message of the engine's JSON progress stream during a pull
// or a build, in a form the UI can render.
type Progress struct {
	ID      string // layer or step id, if any
	Status  string // e.g. "Downloading", "Pull complete"
	Current int64  // bytes (or units) done, when known
	Total   int64  // bytes (or units) in all, when known
	Stream  string // build output text
	Error   string // set when the engine reports a failure
}

// BuildRequest says what to build.
type BuildRequest struct {
	Context    io.Reader          // tar stream of the build context
	Dockerfile string             // path of the Dockerfile inside the context; "Dockerfile" when empty
	Tags       []string           // names to give the image
	Labels     map[string]string  // labels to set on the image
	BuildArgs  map[string]*string // build arguments
	NoCache    bool               // do not use the build cache
	Pull       bool               // always try to pull newer base images
	Target     string             // multi-stage target, if any
	// NetworkMode is the network the build's RUN steps use; "host" lets
	// them reach mirrors served on this machine's loopback. Empty: default.
	NetworkMode string
}

// ContainerSpec is everything devenv sets on a container it creates.
type ContainerSpec struct {
	Name         string
	Image        string
	Labels       map[string]string
	Env          []string // KEY=value
	Cmd          []string
	Entrypoint   []string
	WorkingDir   string
	User         string
	Hostname     string
	Ports        []PortBinding
	Mounts       []Mount
	Network      string   // network to attach to, if any
	Aliases      []string // DNS aliases on Network
	GPU          *GPURequest
	Healthcheck  *Healthcheck
	MemoryBytes  int64  // memory limit; 0 means none
	ShmSizeBytes int64  // size of /dev/shm; 0 means the engine's default
	Init         bool   // run an init process as PID 1
	PidMode      string `json:",omitempty"` // "host" to see the host's processes (devenv's GPU probe); "" for the container's own
	Tty          bool
	OpenStdin    bool
	// Files are copied into the container after it is created and before
	// it first starts; they live in its writable layer, so they survive a
	// stop and start and go with the container when it is removed.
	Files []File `json:",omitempty"`
	// Restart is the restart policy as compose writes it: no, always,
	// on-failure[:N], unless-stopped; "" is the engine's default (no).
	Restart string `json:",omitempty"`
	// Ulimits are the container's resource limits (nofile, memlock, ...).
	Ulimits []Ulimit `json:",omitempty"`
	// ExtraHosts are /etc/hosts entries as HOST:IP (host-gateway allowed).
	ExtraHosts []string `json:",omitempty"`
	// Expose are container ports (PORT or PORT/PROTO) exposed without
	// publishing them, as compose's expose:.
	Expose []string `json:",omitempty"`
	// Runtime is the OCI runtime (e.g. "nvidia"); "" is the engine's default.
	Runtime string `json:",omitempty"`
	// IpcMode is "host", "shareable" or "private"; "" is the engine's default.
	IpcMode string `json:",omitempty"`
}

// Ulimit is one resource limit of a container.
type Ulimit struct {
	Name string
	Soft int64
	Hard int64
	// Single: written as one number (soft and hard alike), as compose keeps it.
	Single bool `json:",omitempty"`
}

// PortBinding publishes a container port on the host.
type PortBinding struct {
	HostIP        string // e.g. "127.0.0.1"; empty means all interfaces
	HostPort      int    // 0 lets the engine choose
	ContainerPort int
	Protocol      string // "tcp" (default) or "udp"
}

// Mount types.
const (
	MountBind   = "bind"
	MountVolume = "volume"
)

// Mount attaches a host path or a named volume to a container.
type Mount struct {
	Type     string // MountBind or MountVolume
	Source   string // host path or volume name
	Target   string // path in the container
	ReadOnly bool
}

// GPURequest asks for GPUs the way `docker run --gpus` does. Set exactly one
// of All, Count and DeviceIDs.
type GPURequest struct {
	All          bool     // every GPU (Count -1)
	Count        int      // this many GPUs
	DeviceIDs    []string // indexes, UUIDs or CDI names
	Capabilities []string // extra capabilities besides "gpu", e.g. compute, utility
	Driver       string   // e.g. "nvidia" or "cdi"; empty lets the engine choose
	Options      map[string]string
}

// Healthcheck tells the engine how to probe a container.
type Healthcheck struct {
	Test        []string // e.g. ["CMD", "/app", "health"] or ["CMD-SHELL", "curl -f ..."]
	Interval    time.Duration
	Timeout     time.Duration
	StartPeriod time.Duration
	Retries     int
}

// Health statuses as ContainerState.Health reports them.
const (
	HealthNone      = ""
	HealthStarting  = "starting"
	HealthHealthy   = "healthy"
	HealthUnhealthy = "unhealthy"
)

// ContainerState is what Inspect reports about a container.
type ContainerState struct {
	ID         string
	Name       string // without the leading slash
	Image      string // the image reference it was created from
	ImageID    string
	Status     string // created, running, paused, restarting, removing, exited, dead
	Running    bool
	Health     string // one of the Health* constants
	ExitCode   int
	Error      string // the engine's last error starting it, if any
	StartedAt  time.Time
	FinishedAt time.Time
	Labels     map[string]string
	Env        []string
	Ports      []PortBinding // the bindings actually published
	// Bindings are the host ports the container asks for, running or not.
	Bindings       []PortBinding
	Mounts         []Mount
	DeviceRequests []DeviceRequest
	Networks       []string
	// NetworkIDs maps each attached network's name to the id of the network
	// the container refers to (a network removed and made again under the
	// same name has another id).
	NetworkIDs map[string]string
	Tty        bool
}

// DeviceRequest is one device request as the engine stores it.
type DeviceRequest struct {
	Driver       string
	Count        int
	DeviceIDs    []string
	Capabilities [][]string
	Options      map[string]string
}

// Object is one engine object returned by List.
type Object struct {
	Kind   Kind
	ID     string
	Name   string
	Labels map[string]string
	State  string // containers only: created, running, exited, ...
	Image  string // containers only
	// Tags are an image's names (its repository tags), Name among them.
	Tags    []string
	Created time.Time
	// Ports are a container's published ports and NetworkIDs the id of
	// the network it refers to under each attached network's name, as the
	// listing reports them (no inspect per container). NetworkIDs is nil
	// when the engine did not say.
	Ports      []PortBinding
	NetworkIDs map[string]string
}

// LogOptions selects which logs to read.
type LogOptions struct {
	Follow     bool
	Tail       string // "all" or a number of lines; empty means all
	Timestamps bool
	Since      time.Time
	Until      time.Time // zero: up to now (and on, with Follow)
}

// ExecOptions says what to run in a container.
type ExecOptions struct {
	Cmd        []string
	Env        []string
	User       string
	WorkingDir string
	TTY        bool
	Stdin      io.Reader // nil: no stdin
	Stdout     io.Writer // nil: discard
	Stderr     io.Writer // nil: discard (ignored with TTY, which merges the streams)
	// Resize, when set, delivers terminal sizes to apply to the TTY; the
	// first may be sent right away. Only used with TTY.
	Resize <-chan TermSize
	// Detach starts the command and returns at once (exit code 0) without
	// attaching to it, as `docker compose exec -d`.
	Detach bool
}

// TermSize is a terminal size in characters.
type TermSize struct {
	Height, Width uint
}
