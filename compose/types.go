// Package compose imports the services of a project's compose files (the
// ones devenv.yaml names under compose:) with compose-go, so devenv can run
// them next to its own services: MinIO, Postgres, Kafka and the like.
//
// It keeps each compose service as compose-go loaded it (Config), with
// what the plan needs to wire it (dependencies, GPU wants, named volumes)
// and the keys devenv warns about. Labels, names and placement are left to
// the plan.
//
// This package holds the types; compose/loader fills them with
// compose-go's loader (loader.Load).
//
// One rule is stricter than compose's: a published port binds to 127.0.0.1
// unless the compose file names an address. A development environment
// should not expose a database to the whole network because a compose file
// wrote "5432:5432"; write "0.0.0.0:5432:5432" to mean it.
package compose

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
)

// DefaultNetwork is the key of the project network in compose files (and
// in the project devenv renders).
const DefaultNetwork = "default"

// DefaultHostIP is where published ports bind when the compose file names
// no address (devenv's rule; compose itself binds every interface).
const DefaultHostIP = "127.0.0.1"

// LocalPorts are ports with 127.0.0.1 where no host address is written:
// devenv's documented difference from Compose.
func LocalPorts(ports []types.ServicePortConfig) []types.ServicePortConfig {
	out := slices.Clone(ports)
	for i := range out {
		if out[i].HostIP == "" {
			out[i].HostIP = DefaultHostIP
		}
	}
	return out
}

// Service is one compose service, translated.
type Service struct {
	Name string
	// File is the compose file (absolute) that defines the service; with
	// override files, the last one that names it.
	File  string
	Image string
	Build *Build // nil: run Image as it is
	// PullPolicy is compose's pull_policy as written (always, missing,
	// never, build, ...); "" when not set.
	PullPolicy string
	// ContainerName is container_name as written; "" for <project>-<service>.
	ContainerName string
	// Profiles are the service's profiles as written ("" kept, as compose keeps it).
	Profiles  []string
	DependsOn []string // every dependency, sorted
	GPU       *GPUWant // nil: no GPU
	// NamedVolumes are the compose volume names the service mounts, as
	// written in the compose file (the plan prefixes them with the project,
	// as it does for devenv.yaml's volumes), sorted.
	NamedVolumes []string
	// Networks are the compose networks the service names other than
	// "default", sorted. devenv attaches every service to the project network.
	Networks []string
	// EnvFiles are the service's env_file paths (absolute), and
	// EnvFromFiles the variables of Container.Env whose values come from
	// them, sorted: exports refer to the files and never copy those values.
	EnvFiles     []string
	EnvFromFiles []string
	// Warnings are compose keys devenv does not apply, each with where it
	// was written and what to do; the CLI prints them.
	Warnings []string
	// Config is compose-go's own value of the service and of the
	// top-level networks, volumes, configs and secrets it refers to: what
	// the project devenv runs renders it from, so that it is exactly
	// Compose's. nil only from a loader that does not fill it.
	Config *Config `json:",omitempty"`
}

// Build is a compose build: section.
type Build struct {
	Context    string            // absolute directory
	Dockerfile string            // relative to Context, as compose means it
	Inline     string            `json:",omitempty"` // dockerfile_inline: the Dockerfile itself ("" for none)
	Args       map[string]string // build args with a value
	Target     string            // build stage, "" for the last
	// Tags are the other names Compose gives the image: the service's
	// image: (when it also has build:) and build.tags.
	Tags []string `json:",omitempty"`
}

// DockerfilePath is the build's Dockerfile, absolute: Dockerfile (the
// default name) or the one named, relative to the context unless it is
// absolute.
func (b *Build) DockerfilePath() string {
	df := b.Dockerfile
	if df == "" {
		df = "Dockerfile"
	}
	if filepath.IsAbs(df) {
		return df
	}
	return filepath.Join(b.Context, df)
}

// GPUWant is what a compose service asks of the GPUs, through gpus: or
// deploy.resources.reservations.devices for GPUs, or runtime: nvidia.
// Exactly one of All, Count and IDs is set.
type GPUWant struct {
	All          bool
	Count        int
	IDs          []string
	Capabilities []string // as written, "gpu" included
	// DeviceIDs are the device ids as written (comma-joined ones split),
	// CDI names included: what the engine gets. IDs are the GPU indexes
	// or UUIDs they name, for placement.
	DeviceIDs []string
	// Driver is the device driver as written (nvidia, cdi); "" lets the engine choose.
	Driver string
	// Runtime: the GPUs come from runtime: nvidia and NVIDIA_VISIBLE_DEVICES,
	// not from a device request.
	Runtime bool
}

// String is a one-line summary of a GPU want, for messages.
func (g GPUWant) String() string {
	switch {
	case g.All:
		return "all GPUs"
	case len(g.IDs) > 0:
		return "GPUs " + strings.Join(g.IDs, ",")
	}
	return fmt.Sprintf("%d GPU(s)", g.Count)
}
