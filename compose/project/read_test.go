package project

import (
	"reflect"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/compose"
)

func TestHostPorts(t *testing.T) {
	in := []types.ServicePortConfig{
		{HostIP: "0.0.0.0", Published: "8080", Target: 80, Protocol: "tcp"},
		{Target: 9000, Protocol: "udp"},        // no host port: the engine picks one
		{Published: "7000-7001", Target: 7000}, // a range: the loader refuses it
		{HostIP: "127.0.0.1", Published: "5432", Target: 5432},
	}
	want := []HostPort{
		{HostIP: "0.0.0.0", Host: 8080, Container: 80, Protocol: "tcp"},
		{HostIP: "127.0.0.1", Host: 0, Container: 9000, Protocol: "udp"},
		{HostIP: "127.0.0.1", Host: 5432, Container: 5432},
	}
	if got := HostPorts(compose.LocalPorts(in)); !reflect.DeepEqual(got, want) {
		t.Errorf("HostPorts(LocalPorts) =\n%+v\nwant\n%+v", got, want)
	}
	if in[1].HostIP != "" {
		t.Error("compose.LocalPorts changed its argument")
	}
}

func TestGPURequest(t *testing.T) {
	gpu := types.DeviceRequest{Capabilities: []string{"gpu"}, Count: 2}
	other := types.DeviceRequest{Capabilities: []string{"tpu"}, Count: 1}
	deploy := func(ds ...types.DeviceRequest) *types.DeployConfig {
		return &types.DeployConfig{Resources: types.Resources{Reservations: &types.Resource{Devices: ds}}}
	}
	for _, tt := range []struct {
		name string
		svc  types.ServiceConfig
		want *types.DeviceRequest
	}{
		{"none", types.ServiceConfig{}, nil},
		{"deploy without devices", types.ServiceConfig{Deploy: &types.DeployConfig{}}, nil},
		{"gpus:", withGpus(types.DeviceRequest{Count: -1}), &types.DeviceRequest{Count: -1}},
		{"deploy GPU after another device", types.ServiceConfig{Deploy: deploy(other, gpu)}, &gpu},
		{"deploy, no GPU", types.ServiceConfig{Deploy: deploy(other)}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := compose.GPURequest(tt.svc); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("GPURequest = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestNetworkName(t *testing.T) {
	proj := &types.Project{Networks: types.Networks{DefaultNetwork: {Name: "demo"}, "back": {Name: "demo_back"}}}
	for _, tt := range []struct {
		name string
		svc  types.ServiceConfig
		want string
	}{
		{"on default", onNetworks(DefaultNetwork, "back"), "demo"},
		{"only another network", onNetworks("back"), ""},
		{"network_mode", withNetworkMode("host"), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := NetworkName(proj, tt.svc); got != tt.want {
				t.Errorf("NetworkName = %q, want %q", got, tt.want)
			}
		})
	}
}

// compose-go embeds these fields: they are set one by one
func withGpus(ds ...types.DeviceRequest) types.ServiceConfig {
	var s types.ServiceConfig
	s.Gpus = ds
	return s
}

func withNetworkMode(m string) types.ServiceConfig {
	var s types.ServiceConfig
	s.NetworkMode = m
	return s
}

func onNetworks(keys ...string) types.ServiceConfig {
	var s types.ServiceConfig
	s.Networks = map[string]*types.ServiceNetworkConfig{}
	for _, k := range keys {
		s.Networks[k] = nil
	}
	return s
}
