package loader

import (
	"path"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
)

// hostAccess warns about every key that hands the container the host, as
// a bind of / or of the Docker socket does (riskyBind): devenv runs the
// service as Compose would, and says so at the key's line.
func hostAccess(s types.ServiceConfig, pos *positions) []string {
	var warns []string
	add := func(key, what string) {
		warns = append(warns, pos.problem(s.Name, key, "%s: the container can take over this machine; give it only what it needs", what))
	}
	if s.Privileged {
		add("privileged", "privileged: true gives it every device and capability of the host")
	}
	for _, ns := range [][2]string{{"pid", s.Pid}, {"ipc", s.Ipc}, {"userns_mode", s.UserNSMode}} {
		if ns[1] == "host" {
			add(ns[0], ns[0]+": host shares the host's namespace")
		}
	}
	switch nm := s.NetworkMode; {
	case nm == "host":
		add("network_mode", "network_mode: host puts it on the host's network stack")
	case strings.HasPrefix(nm, "container:"):
		add("network_mode", "network_mode: "+nm+" joins a container devenv does not manage, outside the project's network")
	}
	for _, d := range s.Devices {
		switch path.Clean(d.Source) {
		case "/dev/mem", "/dev/kmem", "/dev/port":
			add("devices", "devices "+d.Source+" hands it the host's memory")
		}
	}
	for _, c := range s.CapAdd {
		switch cap := strings.TrimPrefix(strings.ToUpper(c), "CAP_"); cap {
		case "ALL", "SYS_ADMIN", "SYS_MODULE", "SYS_RAWIO", "SYS_PTRACE":
			add("cap_add", "cap_add "+cap+" lets it act as root on the host")
		}
	}
	return warns
}
