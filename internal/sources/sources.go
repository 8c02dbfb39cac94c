// Package sources rewrites where images and artifacts come from, so that a
// corporate or air-gapped mirror (devenv.yaml `mirrors:`, or the
// DEVENV_MIRROR_* environment variables) stands in for nvcr.io, Maven
// Central, the Apache archive and PyPI. The lock always records canonical
// upstream names; only fetching goes through the mirrors.
package sources

import (
	"os"
	"sort"
	"strings"
)

// Canonical upstream locations that mirrors replace.
const (
	MavenCentral  = "https://repo1.maven.org/maven2"
	ApacheArchive = "https://archive.apache.org/dist"
	PyPI          = "https://pypi.org/simple"
	// NVIDIAMaven is NVIDIA's Artifactory, where some RAPIDS Accelerator
	// releases (25.08.0) were published instead of Maven Central; the Maven
	// mirror stands in for it too.
	NVIDIAMaven = "https://edge.urm.nvidia.com/artifactory/sw-spark-maven"
)

// Mirrors says where to fetch from instead of the canonical upstreams.
type Mirrors struct {
	Registries map[string]string // registry host -> mirror host[/prefix]
	Maven      string
	Apache     string
	PyPI       string
	// APT is the Debian/Ubuntu archive mirror of the generated Dockerfiles'
	// apt steps (see APTMirrorProblem), "" for the base image's own sources.
	APT string
}

// FromEnv overlays DEVENV_MIRROR_MAVEN, DEVENV_MIRROR_APACHE,
// DEVENV_MIRROR_PYPI, DEVENV_MIRROR_APT and DEVENV_MIRROR_REGISTRIES ("nvcr.io=host:port,...")
// on m: the environment wins, so CI and air-gapped machines can redirect a
// project without editing its files.
func FromEnv(m Mirrors, getenv func(string) string) Mirrors {
	if getenv == nil {
		getenv = os.Getenv
	}
	out := m
	out.Registries = map[string]string{}
	for k, v := range m.Registries {
		out.Registries[k] = v
	}
	if v := getenv("DEVENV_MIRROR_MAVEN"); v != "" {
		out.Maven = v
	}
	if v := getenv("DEVENV_MIRROR_APACHE"); v != "" {
		out.Apache = v
	}
	if v := getenv("DEVENV_MIRROR_PYPI"); v != "" {
		out.PyPI = v
	}
	if v := getenv("DEVENV_MIRROR_APT"); v != "" {
		out.APT = strings.TrimRight(v, "/")
	}
	for _, pair := range strings.Split(getenv("DEVENV_MIRROR_REGISTRIES"), ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(pair), "="); ok && k != "" && v != "" {
			out.Registries[k] = v
		}
	}
	return out
}

// URL rewrites a canonical artifact URL through the Maven or Apache mirror
// (Maven Central and NVIDIA's Artifactory both go through the Maven mirror).
func (m Mirrors) URL(u string) string {
	for _, repo := range []string{MavenCentral, NVIDIAMaven} {
		if m.Maven != "" && strings.HasPrefix(u, repo+"/") {
			return strings.TrimRight(m.Maven, "/") + strings.TrimPrefix(u, repo)
		}
	}
	if m.Apache != "" && strings.HasPrefix(u, ApacheArchive+"/") {
		return strings.TrimRight(m.Apache, "/") + strings.TrimPrefix(u, ApacheArchive)
	}
	return u
}

// MavenBase is where Maven artifacts and POMs are read from: the Maven
// mirror, else Maven Central.
func (m Mirrors) MavenBase() string {
	if m.Maven != "" {
		return strings.TrimRight(m.Maven, "/")
	}
	return MavenCentral
}

// Image rewrites an image reference's registry through the registry mirror:
// "nvcr.io/nvidia/cuda:12.9.1-runtime-ubuntu22.04" with nvcr.io ->
// 127.0.0.1:5055 becomes "127.0.0.1:5055/nvidia/cuda:12.9.1-runtime-ubuntu22.04".
// References without an explicit registry belong to docker.io.
func (m Mirrors) Image(ref string) string {
	host, rest := splitRegistry(ref)
	if mirror, ok := m.Registries[host]; ok && mirror != "" {
		return strings.TrimRight(mirror, "/") + "/" + rest
	}
	return ref
}

// PipIndex is the package index pip should use, or "" for pip's default.
func (m Mirrors) PipIndex() string { return m.PyPI }

// Hosts lists the registry hosts that have mirrors, sorted.
func (m Mirrors) Hosts() []string {
	var hs []string
	for h := range m.Registries {
		hs = append(hs, h)
	}
	sort.Strings(hs)
	return hs
}

// splitRegistry splits "host/path:tag" into the registry host and the rest,
// following Docker's rule: the first path component is a registry when it
// contains a dot or a colon or is "localhost".
func splitRegistry(ref string) (string, string) {
	first, rest, ok := strings.Cut(ref, "/")
	if ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		return first, rest
	}
	if !ok {
		return "docker.io", "library/" + ref
	}
	return "docker.io", ref
}
