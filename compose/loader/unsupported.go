package loader

import (
	"slices"

	"github.com/compose-spec/compose-go/v2/types"
)

// ipcModes are the ipc: values devenv applies as compose does.
var ipcModes = []string{"host", "shareable", "private", "none"}

// check is one compose key devenv does not apply as compose would.
type check struct {
	key    string
	set    func(s types.ServiceConfig) bool
	fatal  bool   // an error rather than a warning: running without it would behave differently
	advice string // what to do
}

// checks lists the keys that change behaviour and that devenv does not
// translate. Errors are keys whose absence would make the service behave
// differently in ways a person would not notice until it broke; warnings
// are keys devenv drops with a message.
var checks = []check{
	{"network_mode", func(s types.ServiceConfig) bool { return s.NetworkMode != "" }, true,
		"devenv attaches every service to the project network; remove network_mode and reach other services by name, or publish ports"},
	{"privileged", func(s types.ServiceConfig) bool { return s.Privileged }, true,
		"devenv does not run privileged containers; remove privileged and grant what the service needs (GPUs through gpus:)"},
	{"ipc", func(s types.ServiceConfig) bool { return s.Ipc != "" && !slices.Contains(ipcModes, s.Ipc) }, true,
		"devenv runs each service in its own project: share IPC with ipc: host or shareable, not with another service or container"},
	{"pid", func(s types.ServiceConfig) bool { return s.Pid != "" }, true,
		"devenv does not share PID namespaces; remove pid"},
	{"volumes_from", func(s types.ServiceConfig) bool { return len(s.VolumesFrom) > 0 }, true,
		"mount the same named volume in both services instead of volumes_from"},
	{"devices", func(s types.ServiceConfig) bool { return len(s.Devices) > 0 }, true,
		"devenv does not map host devices; ask for GPUs with gpus: or deploy.resources.reservations.devices"},
	{"userns_mode", func(s types.ServiceConfig) bool { return s.UserNSMode != "" }, true,
		"remove userns_mode"},
	{"scale", func(s types.ServiceConfig) bool { return s.Scale != nil && *s.Scale > 1 }, true,
		"devenv runs one container per service; remove scale or define one service per replica"},
	{"deploy", func(s types.ServiceConfig) bool {
		return s.Deploy != nil && s.Deploy.Replicas != nil && *s.Deploy.Replicas > 1
	}, true, "devenv runs one container per service; remove deploy.replicas"},
	{"cap_add", func(s types.ServiceConfig) bool { return len(s.CapAdd) > 0 }, false, "the container runs with the engine's default capabilities"},
	{"cap_drop", func(s types.ServiceConfig) bool { return len(s.CapDrop) > 0 }, false, "the container runs with the engine's default capabilities"},
	{"security_opt", func(s types.ServiceConfig) bool { return len(s.SecurityOpt) > 0 }, false, "the engine's default security options apply"},
	{"sysctls", func(s types.ServiceConfig) bool { return len(s.Sysctls) > 0 }, false, "set them in the image's entrypoint if the service needs them"},
	{"tmpfs", func(s types.ServiceConfig) bool { return len(s.Tmpfs) > 0 }, false, "the paths stay on the container's filesystem"},
	{"dns", func(s types.ServiceConfig) bool { return len(s.DNS) > 0 }, false, "the engine's DNS applies"},
	{"secrets", func(s types.ServiceConfig) bool { return len(s.Secrets) > 0 }, false, "mount the secret file with volumes: instead"},
	{"configs", func(s types.ServiceConfig) bool { return len(s.Configs) > 0 }, false, "mount the config file with volumes: instead"},
	{"labels", func(s types.ServiceConfig) bool { return len(s.Labels) > 0 }, false, "devenv sets its own labels on every container"},
	{"links", func(s types.ServiceConfig) bool { return len(s.Links) > 0 }, false, "services reach each other by name on the project network"},
	{"logging", func(s types.ServiceConfig) bool { return s.Logging != nil }, false, "the engine's default log driver applies (devenv logs reads it)"},
	{"platform", func(s types.ServiceConfig) bool { return s.Platform != "" }, false, "the engine's platform applies"},
	{"read_only", func(s types.ServiceConfig) bool { return s.ReadOnly }, false, "the container's filesystem stays writable"},
	{"cpus", func(s types.ServiceConfig) bool { return s.CPUS > 0 }, false, "devenv does not limit CPUs"},
	{"stop_grace_period", func(s types.ServiceConfig) bool { return s.StopGracePeriod != nil }, false, "devenv down uses the engine's default"},
	{"stop_signal", func(s types.ServiceConfig) bool { return s.StopSignal != "" }, false, "devenv down sends SIGTERM"},
	{"post_start", func(s types.ServiceConfig) bool { return len(s.PostStart) > 0 }, false, "run the hook from the service's command"},
	{"pre_stop", func(s types.ServiceConfig) bool { return len(s.PreStop) > 0 }, false, "run the hook from the service's command"},
}

// checkKeys reports the unsupported keys service sets: errors and warnings.
func checkKeys(s types.ServiceConfig, pos *positions) (errs, warns []string) {
	for _, c := range checks {
		if !c.set(s) {
			continue
		}
		if c.fatal {
			errs = append(errs, pos.problem(s.Name, c.key, "%s is not supported: %s", c.key, c.advice))
			continue
		}
		warns = append(warns, pos.problem(s.Name, c.key, "%s is ignored: %s", c.key, c.advice))
	}
	return errs, warns
}
