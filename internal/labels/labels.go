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
	// FilesDigest is the sha256 of the files devenv places in a container
	// (generated confs, as compose `configs:` with `content:`): Compose's
	// config hash leaves a config's content out, so this label is what
	// makes a changed file recreate the container.
	FilesDigest = "dev.devenv.files-digest"
	// ReplicaOf names, on a Spark standalone worker's service in the
	// Compose project, the devenv.yaml service it belongs to.
	ReplicaOf = "dev.devenv.replica-of"
)

// Compose's own labels, which devenv also puts on its containers so that
// `docker compose -p NAME ps` and `logs` see a devenv project. They are not
// in devenv's config hash: adding them recreates no container.
const (
	ComposeProject    = "com.docker.compose.project"
	ComposeService    = "com.docker.compose.service"
	ComposeOneoff     = "com.docker.compose.oneoff"
	ComposeNumber     = "com.docker.compose.container-number"
	ComposeWorkingDir = "com.docker.compose.project.working_dir"
	// ComposeConfigHash must be present for Compose to list a container.
	// The Compose SDK sets it to Compose's hash of the service; containers
	// devenv made before the SDK ran its projects carry "devenv-" and
	// devenv's own hash (reconcile treats those as unchanged while that
	// hash is).
	ComposeConfigHash = "com.docker.compose.config-hash"
	// ComposeVersion is the version of Compose that made the object: on
	// containers and on the images of compose builds, the Compose SDK's
	// that devenv runs (compose/sdk.Version), as Compose writes its own.
	ComposeVersion = "com.docker.compose.version"
	// ComposeConfigFiles are the absolute paths of the project's files,
	// comma-separated, on every container: the compose files, as Compose
	// writes them, or devenv.yaml for a project that has none.
	ComposeConfigFiles = "com.docker.compose.project.config_files"
	// ComposeImageBuilder is the builder of a compose build's image:
	// "classic", the engine's own builder, which devenv and Compose's
	// classic build use.
	ComposeImageBuilder = "com.docker.compose.image.builder"
)

// Compose are the compose labels of a project's service container whose
// devenv config hash is configHash.
func Compose(project, service, workingDir, configHash string) map[string]string {
	l := map[string]string{ComposeProject: project, ComposeService: service, ComposeOneoff: "False", ComposeNumber: "1",
		ComposeConfigHash: "devenv-" + configHash}
	if workingDir != "" {
		l[ComposeWorkingDir] = workingDir
	}
	return l
}

// ProjectFilter is the engine label filter "dev.devenv.project=<name>".
func ProjectFilter(project string) string { return Project + "=" + project }
