package doctor

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/gpu/gputest"
)

// TestReportMasksEngineCredentials: a DOCKER_HOST (or context) with a
// password in its URL shows in no check's message or fix, in failure and
// skip lines alike, and not in the JSON report (issue 29, class 6).
func TestReportMasksEngineCredentials(t *testing.T) {
	for _, host := range []string{"tcp://user:password-6f1d@gpubox:2376", "ssh://me:pw-6f1d@gpubox"} {
		t.Run(host, func(t *testing.T) {
			for _, reachable := range []bool{false, true} {
				in := sparkOnly(gputest.Workstation(), cuda128)
				in.Host.DockerHost = host
				in.Endpoint = &endpoint.Endpoint{Source: "DOCKER_HOST", Host: host, Kind: endpoint.TCP}
				if !reachable {
					in.Engine, in.EngineErr = nil, errors.New("Cannot connect to the Docker daemon at "+host+". Is the docker daemon running?")
				}
				rep := Run(t.Context(), in)
				data, err := json.Marshal(rep)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(data), "6f1d") {
					t.Errorf("engine reachable=%v: the report shows the password:\n%s", reachable, data)
				}
			}
		})
	}
}
