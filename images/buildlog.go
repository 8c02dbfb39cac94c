package images

import (
	"fmt"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/sources"

	"github.com/devenv-dev/devenv/internal/engine"
)

// tailLines is how many lines of build output a failed build reports.
const tailLines = 20

// outputTail keeps the last lines of a build's output, without colour codes,
// so that a failed build can say what went wrong without --verbose.
type outputTail struct {
	lines   []string
	partial string
	step    stepOutput
}

// add records one progress message's text.
func (t *outputTail) add(p engine.Progress) {
	if p.Stream == "" {
		return
	}
	text := strings.ReplaceAll(engine.StripANSI(t.partial+p.Stream), "\r\n", "\n")
	parts := strings.Split(text, "\n")
	t.partial = parts[len(parts)-1]
	for _, l := range parts[:len(parts)-1] {
		if i := strings.LastIndexByte(l, '\r'); i >= 0 { // progress bars redraw a line
			l = l[i+1:]
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		t.step.line(l)
		t.lines = append(t.lines, strings.TrimRight(l, " \t"))
		if len(t.lines) > tailLines {
			t.lines = t.lines[len(t.lines)-tailLines:]
		}
	}
}

// String is the kept lines, indented, or "" when there were none.
func (t *outputTail) String() string {
	lines := t.lines
	if p := strings.TrimSpace(t.partial); p != "" {
		lines = append(lines[:len(lines):len(lines)], p)
	}
	if len(lines) == 0 {
		return ""
	}
	return "  " + strings.Join(lines, "\n  ")
}

// stepPrefix starts the classic builder's line for each Dockerfile step.
const stepPrefix = "Step "

// Signs in a step's output that it could not reach its index: pip's and
// apt's own words for a name that does not resolve, a refused or timed-out
// connection, a fetch that failed, or an index that listed no release of a
// requirement at all ("from versions: none": a mirror that does not serve it).
var (
	pipNetworkSigns = []string{"Name or service not known", "Temporary failure in name resolution",
		"No address associated with hostname", "Failed to establish a new connection", "Connection refused",
		"timed out", "ConnectTimeoutError", "Network is unreachable", "No route to host", "ProxyError",
		"Could not fetch URL", "(from versions: none)"}
	aptNetworkSigns = []string{"Could not resolve", "Temporary failure resolving", "Failed to fetch",
		"Unable to connect to", "Could not connect to", "Connection failed", "Network is unreachable",
		"No route to host"}
	// apt reached its archives (or read empty lists) and the package is not
	// there: a network sign above, when present too, wins.
	aptMissingSigns = []string{"Unable to locate package", "has no installation candidate", "Couldn't find any package by"}
)

// stepOutput records the last Dockerfile step and the lines printed since
// it began, beyond the kept tail, so that a failure can be told apart.
type stepOutput struct {
	step  string
	since []string
}

func (s *stepOutput) line(l string) {
	if strings.HasPrefix(l, stepPrefix) && strings.Contains(l, " : ") {
		s.step, s.since = l, s.since[:0]
		return
	}
	if len(s.since) < maxStepLines {
		s.since = append(s.since, l)
	}
}

// maxStepLines bounds what one step's output keeps for the hint.
const maxStepLines = 2000

func (s *stepOutput) shows(signs []string) bool {
	for _, l := range s.since {
		for _, sign := range signs {
			if strings.Contains(l, sign) {
				return true
			}
		}
	}
	return false
}

// failureHint says which mirror to set when a generated Dockerfile's pip or
// apt step failed to reach its package index: the classic builder's error
// names only the step. "" when the failure is no such case.
func failureHint(in Input, cmd string, out *stepOutput) string {
	if in.userBuild() || out == nil {
		return ""
	}
	cmd += "\n" + out.step
	switch {
	case (strings.Contains(cmd, "pip install") || strings.Contains(cmd, "-m pip")) && out.shows(pipNetworkSigns):
		return pipHint(in, cmd)
	case strings.Contains(cmd, "apt-get") && out.shows(aptNetworkSigns):
		return aptHint(in)
	case strings.Contains(cmd, "apt-get") && out.shows(aptMissingSigns):
		return aptMissingHint(out)
	}
	return ""
}

// aptMissingHint names the packages apt found in no archive it read: the
// base image's release does not carry them, which no mirror changes.
func aptMissingHint(out *stepOutput) string {
	var missing []string
	for _, l := range out.since {
		if name, ok := strings.CutPrefix(strings.TrimSpace(l), "E: Unable to locate package "); ok && !slices.Contains(missing, name) {
			missing = append(missing, name)
		}
	}
	what := "a package"
	if len(missing) > 0 {
		what = strings.Join(missing, ", ")
	}
	return fmt.Sprintf("apt read the base image's package lists but found no %s there: the base's release does not carry it (a Python version the base does not ship is the usual cause: set python: to the base's own, or pick a base_image whose release has it); a mirror would not change this", what)
}

func pipHint(in Input, cmd string) string {
	what := "pip"
	if strings.Contains(cmd, "jupyterlab") {
		what = "installing JupyterLab (jupyter: true)"
	}
	if in.PipIndexURL != "" {
		return fmt.Sprintf("%s got nothing from the PyPI mirror %s in the build (it did not answer, or serves no release of the requirement): check it from the engine's machine, or fix mirrors.pypi in devenv.yaml (or DEVENV_MIRROR_PYPI)",
			what, redact(in.PipIndexURL))
	}
	h := fmt.Sprintf("%s could not reach PyPI (%s) from the build: set mirrors.pypi in devenv.yaml (or DEVENV_MIRROR_PYPI) to a PEP 503 simple index that the engine's builds reach (a devpi, an Artifactory or Nexus PyPI remote), or a proxy in ~/.docker/config.json",
		what, sources.PyPI)
	if strings.Contains(cmd, "jupyterlab") {
		h += "; or set jupyter: false to build without JupyterLab"
	}
	return h
}

func aptHint(in Input) string {
	if in.AptMirror != "" {
		return fmt.Sprintf("apt could not reach the apt mirror %s from the build: check that it serves the base's archives by their paths (…/debian, …/ubuntu), or fix mirrors.apt in devenv.yaml (or DEVENV_MIRROR_APT)", in.AptMirror)
	}
	return "apt could not reach the base image's package archives from the build: set mirrors.apt in devenv.yaml (or DEVENV_MIRROR_APT) to a Debian/Ubuntu mirror that the engine's builds reach, or a proxy in ~/.docker/config.json"
}
