package export

import (
	"maps"
	"slices"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/plan"
)

// Triton's ports (NGC Triton Inference Server defaults).
var tritonPorts = []struct {
	name string
	port int
}{{"http", 8000}, {"grpc", 8001}, {"metrics", 8002}}

type k8sObject struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   objectMeta `yaml:"metadata"`
	Spec       any        `yaml:"spec"`
}

type deploymentSpec struct {
	Replicas int `yaml:"replicas"`
	Selector struct {
		MatchLabels map[string]string `yaml:"matchLabels"`
	} `yaml:"selector"`
	Template struct {
		Metadata objectMeta `yaml:"metadata"`
		Spec     struct {
			Containers []k8sContainer `yaml:"containers"`
		} `yaml:"spec"`
	} `yaml:"template"`
}

type k8sContainer struct {
	Name           string          `yaml:"name"`
	Image          string          `yaml:"image"`
	Args           []string        `yaml:"args,omitempty"`
	Env            []k8sEnv        `yaml:"env,omitempty"`
	Ports          []containerPort `yaml:"ports"`
	Resources      k8sResources    `yaml:"resources"`
	LivenessProbe  probe           `yaml:"livenessProbe"`
	ReadinessProbe probe           `yaml:"readinessProbe"`
}

type k8sEnv struct {
	Name  string `yaml:"name"`
	Value string `yaml:"value"`
}

type containerPort struct {
	Name          string `yaml:"name"`
	ContainerPort int    `yaml:"containerPort"`
}

type k8sResources struct {
	Limits map[string]int `yaml:"limits,omitempty"`
}

type probe struct {
	HTTPGet struct {
		Path string `yaml:"path"`
		Port string `yaml:"port"`
	} `yaml:"httpGet"`
	InitialDelaySeconds int `yaml:"initialDelaySeconds"`
	PeriodSeconds       int `yaml:"periodSeconds"`
}

type serviceSpec struct {
	Selector map[string]string `yaml:"selector"`
	Ports    []servicePort     `yaml:"ports"`
}

type servicePort struct {
	Name       string `yaml:"name"`
	Port       int    `yaml:"port"`
	TargetPort string `yaml:"targetPort"`
}

// tritonManifests is a Deployment running the planned Triton container
// (svc, as the project renders it) with its GPUs as nvidia.com/gpu
// limits, and a Service for its ports.
func tritonManifests(pl *plan.Plan, s *plan.Service, svc types.ServiceConfig) []any {
	name := k8sName(pl.Project, s.Name)
	labels := k8sLabels(pl.Project, s.Name)
	selector := map[string]string{"app.kubernetes.io/name": name}
	podLabels := map[string]string{"app.kubernetes.io/name": name}
	for k, v := range labels {
		podLabels[k] = v
	}
	c := k8sContainer{Name: fitK8s(dnsLabel(s.Name)), Image: s.Image, Args: svc.Command,
		LivenessProbe: httpProbe("/v2/health/live", 15), ReadinessProbe: httpProbe("/v2/health/ready", 5)}
	env := envMap(svc.Environment)
	_, fromFile := specEnvFile(pl, s)
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if k == "NVIDIA_VISIBLE_DEVICES" || fromFile[k] {
			continue // the device plugin decides; env_file values stay out of manifests
		}
		c.Env = append(c.Env, k8sEnv{Name: k, Value: env[k]})
	}
	var svcPorts []servicePort
	for _, p := range tritonPorts {
		c.Ports = append(c.Ports, containerPort{Name: p.name, ContainerPort: p.port})
		svcPorts = append(svcPorts, servicePort{Name: p.name, Port: p.port, TargetPort: p.name})
	}
	if n := gpuCount(gpuRequest(svc)); n > 0 && !s.CPUFallback {
		c.Resources.Limits = map[string]int{"nvidia.com/gpu": n}
	}
	var dep deploymentSpec
	dep.Replicas = 1
	dep.Selector.MatchLabels = selector
	dep.Template.Metadata = objectMeta{Name: name, Labels: podLabels}
	dep.Template.Spec.Containers = []k8sContainer{c}
	return []any{
		k8sObject{APIVersion: "apps/v1", Kind: "Deployment", Metadata: objectMeta{Name: name, Labels: labels}, Spec: dep},
		k8sObject{APIVersion: "v1", Kind: "Service", Metadata: objectMeta{Name: name, Labels: labels},
			Spec: serviceSpec{Selector: selector, Ports: svcPorts}},
	}
}

func httpProbe(path string, delay int) probe {
	var p probe
	p.HTTPGet.Path, p.HTTPGet.Port = path, "http"
	p.InitialDelaySeconds, p.PeriodSeconds = delay, 10
	return p
}
