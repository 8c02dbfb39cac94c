package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/engine"
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
// the first rapids or spark-rapids service, else the first). A project of
// one service without generated files runs its image directly (runArgs
// --gpus); a project of several, or a service that gets generated files
// (spark-defaults.conf, which a devcontainer.json cannot carry and a bind
// mount of the host's private copy would not let the container's user
// read), points at the exported compose file (ComposeFileName, in the
// project directory) so the editor starts the whole environment.
func Devcontainer(pl *plan.Plan, service string) ([]byte, error) {
	s, err := pickService(pl, service)
	if err != nil {
		return nil, err
	}
	es, err := entries(pl)
	if err != nil {
		return nil, err
	}
	d := devcontainer{Name: pl.Project + " (devenv)", WorkspaceFolder: plan.Workspace}
	d.Customizations.VSCode.Extensions = []string{"ms-python.python", "ms-toolsai.jupyter"}
	if len(es) > 1 || len(s.Container.Files) > 0 {
		d.DockerComposeFile, d.Service, d.ShutdownAction = "../"+ComposeFileName, s.Name, "stopCompose"
	} else {
		singleImage(&d, s, es[0], projectDir(pl))
	}
	for _, p := range s.Container.Ports {
		d.ForwardPorts = append(d.ForwardPorts, p.ContainerPort)
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

func pickService(pl *plan.Plan, name string) (*plan.Service, error) {
	if name != "" {
		if s := pl.Service(name); s != nil {
			return s, nil
		}
		return nil, notInProject(pl, name)
	}
	for _, s := range pl.Services {
		if s.Replica == "" && (s.Profile == profiles.Rapids || s.Profile == profiles.SparkRapids) {
			return s, nil
		}
	}
	if len(pl.Services) == 0 {
		return nil, fmt.Errorf("project %s has no services to open in an editor", pl.Project)
	}
	return pl.Services[0], nil
}

// singleImage fills the image form: the service's image, its GPUs as
// runArgs, its environment and mounts. Variables from an env_file are
// passed with --env-file, never written into the file.
func singleImage(d *devcontainer, s *plan.Service, e entry, dir string) {
	d.Image = s.Image
	if s.Container.GPU != nil && s.GPURequired {
		// gpu: optional is hostRequirements.gpu "optional" alone: the
		// editor adds the GPU when the machine has one
		d.RunArgs = []string{"--gpus", gpusArg(s.Container.GPU)}
	}
	if s.Container.ShmSizeBytes > 0 {
		d.RunArgs = append(d.RunArgs, "--shm-size="+strconv.FormatInt(s.Container.ShmSizeBytes, 10))
	}
	d.WorkspaceMount = "source=${localWorkspaceFolder},target=" + plan.Workspace + ",type=bind"
	for _, f := range e.envFiles {
		d.RunArgs = append(d.RunArgs, "--env-file", workspacePath(f, dir))
	}
	d.ContainerEnv = e.envWithoutFiles()
	for _, m := range s.Container.Mounts {
		if m.Target == plan.Workspace {
			continue
		}
		d.Mounts = append(d.Mounts, mountString(m, dir))
	}
}

// gpusArg is docker run's --gpus value.
func gpusArg(g *engine.GPURequest) string {
	switch {
	case g.All:
		return "all"
	case len(g.DeviceIDs) > 0:
		return `"device=` + strings.Join(g.DeviceIDs, ",") + `"`
	}
	return strconv.Itoa(g.Count)
}

// workspacePath writes a project path under ${localWorkspaceFolder}.
func workspacePath(p, dir string) string {
	if r := relPath(p, dir); strings.HasPrefix(r, "./") {
		return "${localWorkspaceFolder}/" + strings.TrimPrefix(r, "./")
	}
	return p
}

// mountString is the devcontainer mount syntax; project paths are written
// under ${localWorkspaceFolder}.
func mountString(m engine.Mount, dir string) string {
	src := m.Source
	if m.Type == engine.MountBind {
		src = workspacePath(m.Source, dir)
	}
	s := fmt.Sprintf("source=%s,target=%s,type=%s", src, m.Target, m.Type)
	if m.ReadOnly {
		s += ",readonly"
	}
	return s
}
