package images

import "strings"

// pipUnreachable are what pip prints when it reached no package index:
// the name did not resolve, the connection was refused or timed out, or
// the index it reached listed no release at all ("from versions: none").
var pipUnreachable = []string{
	"Temporary failure in name resolution",
	"Name or service not known",
	"No address associated with hostname",
	"Failed to establish a new connection",
	"Connection refused",
	"Read timed out",
	"ConnectTimeoutError",
	"(from versions: none)",
}

// buildHint is the advice for a failed build whose cause its output shows,
// or "": a pip step that found no package index names the mirror to set,
// since the Dockerfile step alone does not say why.
func buildHint(err error, tail string) string {
	step := ""
	if err != nil {
		step = err.Error()
	}
	pipStep := strings.Contains(step, "pip install") || strings.Contains(tail, "No matching distribution found for")
	if !pipStep || !containsAny(tail, pipUnreachable) {
		return ""
	}
	return "pip got no release from a package index: this machine cannot reach PyPI, or the index mirrors.pypi names does not serve it. " +
		"Set mirrors.pypi in devenv.yaml (or DEVENV_MIRROR_PYPI) to a PEP 503 index this machine reaches; " +
		"JupyterLab (jupyter: true), requirements: and pip: install from it (jupyter: false leaves JupyterLab out)"
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
