package plan

import (
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

func TestEndpoints(t *testing.T) {
	no := false
	port := func(c, h int, proto string) spec.Port { return spec.Port{Container: c, Host: h, Protocol: proto} }
	tests := []struct {
		name    string
		profile string
		jupyter *bool
		port    spec.Port
		want    Endpoint
	}{
		{"jupyter with its token", profiles.SparkRapids, nil, port(8888, 8888, "tcp"), Endpoint{"Jupyter", "http://127.0.0.1:8888/lab?token=tok"}},
		{"jupyter: false publishes a plain port", profiles.SparkRapids, &no, port(8888, 8899, "tcp"), Endpoint{"port 8888", "127.0.0.1:8899"}},
		{"Spark master is spark://", profiles.SparkRapids, nil, port(7077, 7077, "tcp"), Endpoint{"Spark master", "spark://127.0.0.1:7077"}},
		{"Spark UI", profiles.SparkRapids, nil, port(4040, 4041, "tcp"), Endpoint{"Spark UI", "http://127.0.0.1:4041"}},
		{"an unknown port is no URL", profiles.Image, nil, port(5432, 5432, "tcp"), Endpoint{"port 5432", "127.0.0.1:5432"}},
		{"udp", profiles.SparkRapids, nil, port(4040, 4040, "udp"), Endpoint{"port 4040", "127.0.0.1:4040/udp"}},
		{"Triton gRPC", profiles.Triton, nil, port(8001, 8001, "tcp"), Endpoint{"Triton gRPC", "127.0.0.1:8001"}},
		{"Triton metrics", profiles.Triton, nil, port(8002, 8002, "tcp"), Endpoint{"Triton metrics", "http://127.0.0.1:8002/metrics"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &spec.Service{Name: "x", Profile: tt.profile, Jupyter: tt.jupyter, Ports: []spec.Port{tt.port}}
			got := endpoints(s, profiles.Resolved{Profile: tt.profile}, "tok")
			if len(got) != 1 || got[0] != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
