package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/profiles"
)

// DevcontainerPath is where the devcontainer export goes, relative to the
// project directory.
const DevcontainerPath = ".devcontainer/devcontainer.json"

// devcontainer holds the devcontainer.json keys devenv writes, in the
// order they are written (containers.dev/implementors/json_reference).
type devcontainer struct {
	Name              string            `json:"name"`
	Image             string            `json:"image,omitempty"`
	DockerComposeFile string            `json:"dockerComposeFile,omitempty"`
	Service           string            `json:"service,omitempty"`
	ShutdownAction    string            `json:"shutdownAction,omitempty"`
	RunArgs           []string          `json:"runArgs,omitempty"`
	WorkspaceMount    string            `json:"workspaceMount,omitempty"`
	WorkspaceFolder   string            `json:"workspaceFolder"`
	ContainerEnv      map[string]string `json:"containerEnv,omitempty"`
	Mounts            []string          `json:"mounts,omitempty"`
	ForwardPorts      []int             `json:"forwardPorts,omitempty"`
	HostRequirements  *hostReqs         `json:"hostRequirements,omitempty"`
	RemoteUser        string            `json:"remoteUser,omitempty"`
	Customizations    customizations    `json:"customizations"`
}

type hostReqs struct {
	GPU any `json:"gpu"` // true or "optional"
}

type customizations struct {
	VSCode struct {
		Extensions []string `json:"extensions"`
	} `json:"vscode"`
}

// Devcontainer writes .devcontainer/devcontainer.json for service (empty:
// PickService's). A project of
// one service without generated files runs its image directly (runArgs
// --gpus); a project of several, or a service that gets generated files
// (spark-defaults.conf, which a devcontainer.json cannot carry and a bind
// mount of the host's private copy would not let the container's user
// read), points at the exported compose file (ComposeFileName, in the
// project directory) so the editor starts the whole environment.
func Devcontainer(pl *plan.Plan, service string) ([]byte, error) {
	proj, err := rendered(pl)
	if err != nil {
		return nil, err
	}
	s, _, err := pickService(pl, proj, service)
	if err != nil {
		return nil, err
	}
	es, err := entries(pl, proj)
	if err != nil {
		return nil, err
	}
	e := entryOf(es, s.Name)
	d := devcontainer{Name: pl.Project + " (devenv)", WorkspaceFolder: plan.Workspace}
	if at := projectMount(pl, s, e.svc); at != "" {
		d.WorkspaceFolder = at // where the service sees the project
	}
	d.Customizations.VSCode.Extensions = []string{"ms-python.python", "ms-toolsai.jupyter"}
	if len(es) > 1 || hasFiles(e.svc) {
		d.DockerComposeFile, d.Service, d.ShutdownAction = "../"+ComposeFileName, s.Name, "stopCompose"
	} else {
		singleImage(&d, s, e, proj, projectDir(pl))
	}
	for _, p := range e.svc.Ports {
		d.ForwardPorts = append(d.ForwardPorts, int(p.Target))
	}
	if s.WantsGPU {
		d.HostRequirements = &hostReqs{GPU: true}
		if !s.GPURequired {
			d.HostRequirements.GPU = "optional"
		}
	}
	if s.Profile == profiles.SparkRapids {
		d.RemoteUser = "devenv"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// PickService is the service a devcontainer attaches to, and why when
// several could: name when given; else one that mounts the project
// (devenv's workspace, or a compose service's bind mount of the project
// directory), as the editor opens the project there: a rapids or
// spark-rapids service first, then devenv's other services, then the
// compose files'. A project where none mounts it gets its first devenv
// service (its first service when it has only compose services), with a
// note.
func PickService(pl *plan.Plan, name string) (*plan.Service, string, error) {
	proj, err := rendered(pl)
	if err != nil {
		return nil, "", err
	}
	return pickService(pl, proj, name)
}

// pickService is PickService with pl rendered as proj.
func pickService(pl *plan.Plan, proj *types.Project, name string) (*plan.Service, string, error) {
	mountAt := func(s *plan.Service) string { return projectMount(pl, s, proj.Services[s.Name]) }
	if name != "" {
		if s := pl.Service(name); s != nil {
			return s, "", nil
		}
		return nil, "", notInProject(pl, name)
	}
	var mounting []*plan.Service
	for _, s := range pl.Services {
		if s.Replica == "" && mountAt(s) != "" {
			mounting = append(mounting, s)
		}
	}
	if len(mounting) == 0 {
		for _, s := range pl.Services {
			if s.Replica == "" && s.Profile != lock.ComposeProfile {
				return s, fmt.Sprintf("%s: no service mounts the project directory, so the editor sees no project files; pass --service to pick another", s.Name), nil
			}
		}
		if len(pl.Services) == 0 {
			return nil, "", fmt.Errorf("project %s has no services to open in an editor", pl.Project)
		}
		s := pl.Services[0]
		return s, fmt.Sprintf("%s: no service mounts the project directory, so the editor sees no project files; pass --service to pick another", s.Name), nil
	}
	sort.SliceStable(mounting, func(i, j int) bool { return pickRank(mounting[i]) < pickRank(mounting[j]) })
	s := mounting[0]
	if len(mounting) == 1 {
		return s, "", nil
	}
	var others []string
	for _, o := range mounting[1:] {
		others = append(others, o.Name)
	}
	verb := "mounts"
	if len(others) > 1 {
		verb = "mount"
	}
	return s, fmt.Sprintf("%s (%s, mounting the project at %s); %s %s it too: pass --service to pick another",
		s.Name, rankReason(s), mountAt(s), strings.Join(others, ", "), verb), nil
}

// pickRank orders the services that mount the project: the notebook
// profiles first, then devenv's others, then compose services.
func pickRank(s *plan.Service) int {
	switch {
	case s.Profile == profiles.Rapids || s.Profile == profiles.SparkRapids:
		return 0
	case s.Profile != lock.ComposeProfile:
		return 1
	}
	return 2
}

func rankReason(s *plan.Service) string {
	switch pickRank(s) {
	case 0:
		return "a " + s.Profile + " service, with Jupyter and the GPU libraries"
	case 1:
		return "devenv's service"
	}
	return "the first compose service by name"
}

// projectMount is where s (rendered as svc) mounts the project directory
// ("" when it does not): devenv's workspace, or a bind mount of the
// directory itself.
func projectMount(pl *plan.Plan, s *plan.Service, svc types.ServiceConfig) string {
	dir := projectDir(pl)
	for _, m := range mounts(svc) {
		if s.Profile != lock.ComposeProfile && m.Target == plan.Workspace {
			return m.Target
		}
		if m.Type == types.VolumeTypeBind && dir != "" && filepath.Clean(m.Source) == filepath.Clean(dir) {
			return m.Target
		}
	}
	return ""
}

// mounts are the service's bind mounts and named volumes (anonymous
// volumes and tmpfs are the container's own, never the project's).
func mounts(svc types.ServiceConfig) []types.ServiceVolumeConfig {
	var out []types.ServiceVolumeConfig
	for _, v := range svc.Volumes {
		if v.Type == types.VolumeTypeBind || (v.Type == types.VolumeTypeVolume && v.Source != "") {
			out = append(out, v)
		}
	}
	return out
}

// singleImage fills the image form: the service's image, its GPUs as
// runArgs, its environment and mounts. Variables from an env_file are
// passed with --env-file, never written into the file.
func singleImage(d *devcontainer, s *plan.Service, e entry, proj *types.Project, dir string) {
	d.Image = s.Image
	if g := gpuRequest(e.svc); g != nil && s.GPURequired {
		// gpu: optional is hostRequirements.gpu "optional" alone: the
		// editor adds the GPU when the machine has one
		d.RunArgs = []string{"--gpus", gpusArg(*g)}
	}
	if e.svc.ShmSize > 0 {
		d.RunArgs = append(d.RunArgs, "--shm-size="+strconv.FormatInt(int64(e.svc.ShmSize), 10))
	}
	d.WorkspaceMount = "source=${localWorkspaceFolder},target=" + plan.Workspace + ",type=bind"
	for _, f := range e.envFiles {
		d.RunArgs = append(d.RunArgs, "--env-file", workspacePath(f, dir))
	}
	d.ContainerEnv = e.envWithoutFiles()
	for _, m := range mounts(e.svc) {
		if m.Target == plan.Workspace {
			continue
		}
		d.Mounts = append(d.Mounts, mountString(m, proj, dir))
	}
}

// gpusArg is docker run's --gpus value.
func gpusArg(g types.DeviceRequest) string {
	switch {
	case g.Count == -1:
		return "all"
	case len(g.IDs) > 0:
		return `"device=` + strings.Join(g.IDs, ",") + `"`
	}
	return strconv.Itoa(int(g.Count))
}

// workspacePath writes a project path under ${localWorkspaceFolder}.
func workspacePath(p, dir string) string {
	if r := relPath(p, dir); strings.HasPrefix(r, "./") {
		return "${localWorkspaceFolder}/" + strings.TrimPrefix(r, "./")
	}
	return p
}

// mountString is the devcontainer mount syntax; project paths are written
// under ${localWorkspaceFolder}, a named volume by its engine name (the
// project's volume of that key).
func mountString(m types.ServiceVolumeConfig, proj *types.Project, dir string) string {
	src := m.Source
	switch m.Type {
	case types.VolumeTypeBind:
		src = workspacePath(m.Source, dir)
	case types.VolumeTypeVolume:
		if v, ok := proj.Volumes[m.Source]; ok && v.Name != "" {
			src = v.Name
		}
	}
	s := fmt.Sprintf("source=%s,target=%s,type=%s", src, m.Target, m.Type)
	if m.ReadOnly {
		s += ",readonly"
	}
	return s
}
