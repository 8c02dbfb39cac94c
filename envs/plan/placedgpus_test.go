package plan

import (
	"reflect"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
)

// TestPlacedGPUs: a compose service's GPU request stays as written unless
// devenv's placement pinned it to devices; then deploy asks for those
// devices and other device requests stay.
func TestPlacedGPUs(t *testing.T) {
	one := types.DeviceRequest{Capabilities: []string{"gpu"}, Count: 1}
	placed := types.DeviceRequest{Capabilities: []string{"gpu"}, IDs: []string{"GPU-1"}}
	fpga := types.DeviceRequest{Capabilities: []string{"fpga"}, Driver: "xilinx"}
	deploy := func(d ...types.DeviceRequest) *types.DeployConfig {
		return &types.DeployConfig{Resources: types.Resources{Reservations: &types.Resource{Devices: d}}}
	}
	tests := []struct {
		name       string
		svc        types.ServiceConfig
		want       types.DeviceRequest
		gpus       []types.DeviceRequest
		deployWant *types.DeployConfig
	}{
		{"gpus: as written", serviceWith(func(s *types.ServiceConfig) { s.Gpus = []types.DeviceRequest{one} }), one, []types.DeviceRequest{one}, nil},
		{"gpus: placed", serviceWith(func(s *types.ServiceConfig) { s.Gpus = []types.DeviceRequest{one} }), placed, nil, deploy(placed)},
		{"deploy as written", serviceWith(func(s *types.ServiceConfig) { s.Deploy = deploy(fpga, one) }), one, nil, deploy(fpga, one)},
		{"deploy placed, other devices kept", serviceWith(func(s *types.ServiceConfig) { s.Deploy = deploy(fpga, one) }), placed, nil, deploy(fpga, placed)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.svc.Deploy
			var kept *types.DeployConfig
			if before != nil {
				c := *before
				r := *before.Resources.Reservations
				c.Resources.Reservations = &r
				kept = &c
			}
			gpus, d := placedGPUs(tt.svc, tt.want)
			if !reflect.DeepEqual(gpus, tt.gpus) || !reflect.DeepEqual(d, tt.deployWant) {
				t.Errorf("gpus %+v deploy %+v, want %+v and %+v", gpus, d, tt.gpus, tt.deployWant)
			}
			if before != nil && !reflect.DeepEqual(before, kept) {
				t.Errorf("the loaded service changed: %+v", before)
			}
		})
	}
}

func serviceWith(set func(*types.ServiceConfig)) types.ServiceConfig {
	s := types.ServiceConfig{Name: "s"}
	set(&s)
	return s
}
