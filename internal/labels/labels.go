// Package labels holds the Docker label keys devenv puts on the objects it
// creates. devenv never lists, changes or removes an object without Project.
package labels

const (
	// Project names the devenv project an object belongs to (every object).
	Project = "dev.devenv.project"
	// Service names the service a container or image is for.
	Service = "dev.devenv.service"
	// ConfigHash is the hash of the planned configuration; a change recreates.
	ConfigHash = "dev.devenv.config-hash"
	// GPUs records the GPUs a container was given.
	GPUs = "dev.devenv.gpus"
	// CPUFallback marks a container running on the CPU because no GPU fits.
	CPUFallback = "dev.devenv.cpu-fallback"
	// Dir is the project directory that created the object (its network and
	// containers): a second directory using the same project name is refused.
	Dir = "dev.devenv.dir"
	// ComposeFile names the compose file a compose service came from.
	ComposeFile = "dev.devenv.compose-file"
	// Artifact is the sha256 of the artifact an artifact image holds
	// (images shared by every project on an engine; no Project label).
	Artifact = "dev.devenv.artifact"
	// ArtifactFile is that artifact's file name.
	ArtifactFile = "dev.devenv.artifact-file"
)

// ProjectFilter is the engine label filter "dev.devenv.project=<name>".
func ProjectFilter(project string) string { return Project + "=" + project }
