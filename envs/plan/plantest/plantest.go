// Package plantest builds planned services by hand for tests of the
// packages that read a plan (the project renderer, the reconciler, the
// checks), as the plan renders a devenv service: its container named
// <project>-<name>, devenv's labels, on the project network.
package plantest

import (
	"maps"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/labels"
)

// Container is a service of project that runs image.
func Container(project, name, image string) types.ServiceConfig {
	c := types.ServiceConfig{Name: name, ContainerName: plan.ContainerName(project, name)}
	c.Image = image
	c.Labels = types.Labels(plan.Labels(project, name))
	c.Networks = map[string]*types.ServiceNetworkConfig{plan.DefaultNetworkKey: {Aliases: []string{name}}}
	return c
}

// Service is a planned service of project that runs image, which is
// never pulled (as devenv's built images are not), with the config hash
// hash (labelled, as the plan labels it), started after deps.
func Service(project, name, image, hash string, deps ...string) *plan.Service {
	s := &plan.Service{Name: name, Image: image, Container: Container(project, name, image), ConfigHash: hash}
	s.Container.Labels[labels.ConfigHash] = hash
	s.Container.PullPolicy = types.PullPolicyNever
	if len(deps) > 0 {
		WithDeps(s, deps...)
	}
	return s
}

// WithDeps has s start after deps, as the plan writes it.
func WithDeps(s *plan.Service, deps ...string) *plan.Service {
	s.DependsOn, s.Container.DependsOn = deps, plan.DependsOn(deps)
	return s
}

// GPUs reserves the devices of req, as the plan asks for GPUs.
func GPUs(req types.DeviceRequest) *types.DeployConfig {
	return &types.DeployConfig{Resources: types.Resources{Reservations: &types.Resource{Devices: []types.DeviceRequest{req}}}}
}

// AsCompose makes s the compose service cfg loaded, as the plan renders
// one: cfg's service under s's name, container name and labels (added to
// the file's), running s's image where cfg builds none, its ports on
// 127.0.0.1 where the file names no address.
func AsCompose(s *plan.Service, cfg *compose.Config) {
	c := cfg.Service
	c.Name, c.ContainerName = s.Name, s.Container.ContainerName
	c.Labels = types.Labels{}
	maps.Copy(c.Labels, cfg.Service.Labels)
	maps.Copy(c.Labels, s.Container.Labels)
	if c.Build == nil && s.Image != "" {
		c.Image = s.Image
	}
	c.Ports = compose.LocalPorts(c.Ports)
	s.Container = c
	s.Compose = &plan.ComposeKeys{Config: cfg}
}
