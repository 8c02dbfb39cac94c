package plan

import (
	"fmt"
	"path"
	"path/filepath"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/images"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/hashicorp/go-multierror"
)

// Paths inside containers.
const (
	Workspace     = spec.Workspace
	ConfDir       = spec.ConfDir
	DiscoveryPath = "/opt/sparkRapidsPlugin/getGpusResources.sh"
)

func planService(p *spec.Project, s *spec.Service, ls *lock.Service, h Host, place *gpu.Placement, opts Options) ([]*Service, error) {
	res, err := lockedResolution(p, s, ls)
	if err != nil {
		return nil, err
	}
	ps := &Service{Name: s.Name, Profile: res.Profile, DependsOn: s.DependsOn,
		GPURequired: s.GPU != "optional", WantsGPU: s.GPUs.Wants()}
	ps.Generated = map[string][]byte{}
	if s.EnvFileMissing() {
		ps.MissingEnvFile, ps.MissingEnvFileAt = missingEnvFile(p, s)
	}
	env, err := serviceEnv(p, s, res)
	if err != nil {
		return nil, err
	}
	mnts, err := mounts(p, s, res.Profile, opts)
	if err != nil {
		return nil, err
	}
	c := types.ServiceConfig{Name: s.Name, ContainerName: ContainerName(p.Name, s.Name)}
	c.Labels = types.Labels(Labels(p.Name, s.Name))
	c.Hostname = s.Name
	c.WorkingDir = Workspace
	c.Ports = servicePorts(s)
	c.Volumes = mnts
	c.HealthCheck = healthcheck(s.Healthcheck)
	c.MemLimit = types.UnitBytes(memoryBytes(s.Memory))
	c.DependsOn = DependsOn(s.DependsOn)
	if needsInit(res.Profile) {
		c.Init = &[]bool{true}[0]
	}
	onNetwork(&c, s.Name)
	assign := assignment(place, s.Name)
	applyGPU(ps, &c, s, h, assign, env)
	if err := profileDefaults(ps, &c, p, s, res, h, assign, env, opts); err != nil {
		return nil, err
	}
	if len(s.Command) > 0 {
		c.Command = types.ShellCommand(s.Command)
	}
	c.Environment = environment(env)
	imgHash, err := chooseImage(ps, p, s, ls, res, opts)
	if err != nil {
		return nil, err
	}
	c.Image = ps.Image
	if ps.Build != nil || ps.Pull == "" {
		// devenv builds the image (or runs a locked local image ID): never pull it
		c.PullPolicy = types.PullPolicyNever
	}
	ps.Container = c
	network := opts.projectNetwork(p)
	ps.seal(p.Name, network, ps.Generated, imgHash)
	ps.Endpoints = endpoints(s, res, opts.Token)
	if ps.Spark == nil || s.Workers == 0 {
		return []*Service{ps}, nil
	}
	workers := standalone(p, s, ps, assign, network)
	ps.seal(p.Name, network, ps.Generated, imgHash)
	return append([]*Service{ps}, workers...), nil
}

// seal labels ps's service with its files' digest and its config hash,
// taken of the service as it is now (the last change made to it) and of
// the generated files it is made from (a worker's are its master's).
func (ps *Service) seal(project, network string, generated map[string][]byte, imageInputs string) {
	PlaceFiles(&ps.Container, ps.Files)
	delete(ps.Container.Labels, labels.ConfigHash)
	ps.ConfigHash = serviceHash(project, network, ps.Container, ps.Files, generated, imageInputs)
	ps.Container.Labels[labels.ConfigHash] = ps.ConfigHash
}

// chooseImage sets what the service runs: the pinned image itself, or the
// content-hash tag of the image devenv builds from it; it returns the
// build's content hash ("" for a plain image).
func chooseImage(ps *Service, p *spec.Project, s *spec.Service, ls *lock.Service, res profiles.Resolved, opts Options) (string, error) {
	in, err := imageInput(p, s, ls, res, opts)
	if err != nil || in == nil {
		if err == nil {
			ps.Image = opts.Mirrors.Image(ls.Base.Pinned())
			ps.Pull = ps.Image
		}
		return "", err
	}
	hash, err := images.Seal(in) // read once: the build sends what the tag is of
	if err != nil {
		return "", err
	}
	ps.Build, ps.Image = in, images.Tag(p.Name, s.Name, hash)
	if ls.Base != nil {
		ps.Pull = in.Base
	}
	return hash, nil
}

// lockedResolution resolves the service again with every version the lock
// pinned given explicitly, so the plan uses exactly the locked environment.
func lockedResolution(p *spec.Project, s *spec.Service, ls *lock.Service) (profiles.Resolved, error) {
	req := s.Request()
	v := ls.Versions
	req.Spark, req.Rapids, req.Scala, req.Java = v.Spark, v.Rapids, v.Scala, v.Java
	req.Python, req.CUDA, req.Release = v.Python, v.CUDA, v.Release
	res, err := profiles.ResolveBuiltin(req, p.Profiles)
	if err != nil {
		return res, fmt.Errorf("the locked versions no longer resolve (%w): run devenv lock --upgrade %s", err, s.Name)
	}
	return res, nil
}

func imageInput(p *spec.Project, s *spec.Service, ls *lock.Service, res profiles.Resolved, opts Options) (*images.Input, error) {
	if res.Profile == profiles.Image && s.Build == "" {
		if ls.Base == nil {
			return nil, fmt.Errorf("no pinned image in devenv.lock: run devenv lock")
		}
		return nil, nil
	}
	in := &images.Input{Project: p.Name, Service: s.Name, Resolved: res, ProjectDir: p.Dir,
		RequirementsPath: s.Requirements, Jupyter: jupyter(s), JupyterLab: ls.Versions.JupyterLab, PipIndexURL: opts.Mirrors.PipIndex(),
		AptMirror: opts.Mirrors.APT, UserDockerfile: s.Build, User: opts.ImageUser, Reads: opts.Reads}
	if ls.Base != nil {
		in.Base = opts.Mirrors.Image(ls.Base.Pinned())
	}
	for _, a := range ls.Artifacts {
		in.Files = append(in.Files, images.File{Name: a.File, SHA256: a.SHA256, Path: opts.artifactPath(a.SHA256)})
	}
	switch res.Profile {
	case profiles.SparkRapids:
		in.Extra = map[string][]byte{images.DiscoveryScript: discoveryScript()}
	case profiles.Rapids:
		in.Extra = map[string][]byte{"sitecustomize.py": []byte(rmmSiteCustomize)}
	}
	return in, nil
}

// artifactPath is where the artifact cache keeps a blob (it need not exist
// yet: only a build reads it).
func (o Options) artifactPath(sha256hex string) string {
	if o.ArtifactPath != nil {
		return o.ArtifactPath(sha256hex)
	}
	return filepath.Join(o.StateDir, "artifacts", sha256hex)
}

// needsInit says whether the engine should run its own init (tini) as PID 1.
// Images that already start under tini must not get a second one: the
// inner tini then warns "Tini is not running as PID 1" on every start. The
// spark-rapids image devenv builds has ENTRYPOINT tini, and NVIDIA's RAPIDS
// images start under tini too (rapidsai/docker's entrypoint).
func needsInit(profile string) bool {
	return profile != profiles.SparkRapids && profile != profiles.Rapids
}

func jupyter(s *spec.Service) bool { return s.Jupyter == nil || *s.Jupyter }

// mounts are the project directory at /workspace (a bind mount, or on a
// remote engine the project's synced volume) and the service's volumes. A
// remote engine's machine has none of this machine's paths: a bind mount of
// one is refused, naming what to do instead.
func mounts(p *spec.Project, s *spec.Service, profile string, opts Options) ([]types.ServiceVolumeConfig, error) {
	out := []types.ServiceVolumeConfig{bindVolume(p.Dir, Workspace, false)}
	if opts.Remote {
		out[0] = namedVolume(workspaceKey, Workspace, false)
	}
	var errs *multierror.Error
	for _, v := range s.Volumes {
		m := bindVolume(v.Source, v.Target, v.ReadOnly)
		if v.Named {
			m = namedVolume(v.Source, v.Target, v.ReadOnly)
		} else if opts.Remote && remoteModelRepository(p, s, profile, opts) != "" && v.Target == tritonModels {
			continue // Triton reads the synced copy under /workspace instead
		} else if opts.Remote {
			errs = multierror.Append(errs, fmt.Errorf("volume %s:%s is a path on this machine, and the engine is on another one: "+
				"keep the files under the project (synced to %s by `devenv watch` or `up --watch`) or use a named volume", v.Source, v.Target, Workspace))
			continue
		}
		out = append(out, m)
	}
	return out, errs.ErrorOrNil()
}

// tritonModels is where devenv's Triton reads its model repository.
const tritonModels = "/models"

// remoteModelRepository is, for a Triton service on a remote engine whose
// model repository is a folder of the project (`./models:/models`), that
// folder's synced copy under /workspace; "" otherwise.
func remoteModelRepository(p *spec.Project, s *spec.Service, profile string, opts Options) string {
	if !opts.Remote || profile != profiles.Triton {
		return ""
	}
	for _, v := range s.Volumes {
		if v.Named || v.Target != tritonModels {
			continue
		}
		if rel, ok := projpath.Within(p.Dir, v.Source); ok {
			return path.Join(Workspace, rel)
		}
	}
	return ""
}

// WorkspaceVolume is the volume holding the project's files on a remote
// engine, mounted at /workspace in place of the project directory.
func WorkspaceVolume(project string) string { return VolumeName(project, workspaceKey) }

// workspaceKey is the workspace volume's key in the project.
const workspaceKey = "workspace"

// GeneratedDir is where a service's generated files are written on the
// host, for people and tools to read; the container gets its own copy.
func GeneratedDir(stateDir, service string) string {
	return filepath.Join(stateDir, "generated", service)
}

// GeneratedMode is the mode of generated files, on the host and in the
// container (owned there by the container's user): they may hold values of
// devenv.yaml's conf: and of prod's, which only their owner reads.
const GeneratedMode = 0o600

// generatedFile is a generated file as the container gets it: under
// ConfDir, placed when the container is created, never a bind mount of
// the host's copy (whose owner need not be the container's user).
func generatedFile(name string, data []byte) File {
	return File{Path: path.Join(ConfDir, name), Mode: GeneratedMode, Data: data}
}

func memoryBytes(s string) int64 {
	if s == "" {
		return 0
	}
	n, _ := spec.MemoryBytes(s) // spec refused sizes that do not parse or fit
	return n
}

// missingEnvFile returns a service's missing env_file as a project path,
// and where devenv.yaml names it.
func missingEnvFile(p *spec.Project, s *spec.Service) (path, at string) {
	file, pos := p.PosOf(s.Name, "env_file")
	rel, err := filepath.Rel(p.Dir, s.EnvFile)
	if err != nil {
		rel = s.EnvFile
	}
	return filepath.ToSlash(rel), fmt.Sprintf("%s:%d:%d", file, pos.Line, pos.Col)
}
