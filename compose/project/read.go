package project

import (
	"strconv"

	"github.com/compose-spec/compose-go/v2/types"
)

// The readers below are how devenv's guards and views see a rendered
// service: as the executor runs it, from its types.ServiceConfig.

// HostPort is one port a service publishes on the host.
type HostPort struct {
	HostIP    string
	Host      int // 0: the engine picks one
	Container int
	Protocol  string
}

// HostPorts are the ports of ports that the engine publishes on the host,
// in order; a published range (one entry, not one number) is left out:
// the loader refuses it, naming the file.
func HostPorts(ports []types.ServicePortConfig) []HostPort {
	var out []HostPort
	for _, p := range ports {
		host := 0
		if p.Published != "" {
			n, err := strconv.Atoi(p.Published)
			if err != nil {
				continue
			}
			host = n
		}
		out = append(out, HostPort{HostIP: p.HostIP, Host: host, Container: int(p.Target), Protocol: p.Protocol})
	}
	return out
}

// NetworkName is the engine name of the project network (default) when
// the service is on it, else "" (a compose service that names only other
// networks, or sets network_mode).
func NetworkName(proj *types.Project, svc types.ServiceConfig) string {
	if _, on := svc.Networks[DefaultNetwork]; !on {
		return ""
	}
	return proj.Networks[DefaultNetwork].Name
}
