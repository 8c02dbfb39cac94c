package profiles

import "strings"

// JupyterLab releases devenv installs in spark-rapids images, newest first
// with the oldest Python each supports (rapids-facts.md §4.5, pypi.org
// project metadata). The lock records the one chosen so a rebuild installs
// the same JupyterLab; `devenv lock --upgrade` moves it.
var jupyterLabReleases = []struct{ version, minPython string }{
	// 4.6.6, the newest release (2026-11). Its Python minimum is
	// unverifiable (§4.5); devenv installs it only where Python is 3.10 or
	// later, the oldest python3 of the bases it builds on (Ubuntu 22.04).
	{"4.6.6", "3.10"},
	{"4.4.9", "3.9"}, // JupyterLab 4.4 requires Python >= 3.9 (4.4.8 metadata)
	// 4.3.x is the last line supporting Python 3.8 (4.3.1: python >=3.8;
	// 4.4.0 dropped 3.8, §4.5, corrected 2026-12-01: was 4.2.x).
	{"4.3.1", "3.8"},
}

// JupyterLabReleases lists the JupyterLab versions devenv may pin, newest
// first (stand-in package indexes serve exactly these).
func JupyterLabReleases() []string {
	out := make([]string, len(jupyterLabReleases))
	for i, r := range jupyterLabReleases {
		out[i] = r.version
	}
	return out
}

// baseOSPython is the default python3 of the distributions NVIDIA's CUDA
// bases use, keyed by the OS part of the image tag.
var baseOSPython = map[string]string{
	"ubuntu20.04": "3.8",
	"ubuntu22.04": "3.10",
	"ubuntu24.04": "3.12",
}

// JupyterLabVersion is the JupyterLab release to lock for a spark-rapids
// service of this resolution: the newest one its Python supports.
func JupyterLabVersion(res Resolved) string {
	py := res.Python
	if py == "" {
		py = BaseOSPython(res.BaseImage)
	}
	for _, r := range jupyterLabReleases {
		if py == "" || compareVersions(py, r.minPython) >= 0 {
			return r.version
		}
	}
	return jupyterLabReleases[len(jupyterLabReleases)-1].version
}

// BaseOSPython is the default python3 version of the distribution an NVIDIA
// CUDA base image is built on, or "" when its tag does not say.
func BaseOSPython(ref string) string { return baseOSPython[baseOSOf(ref)] }

// baseOSOf returns the OS suffix of an NVIDIA CUDA tag, e.g. "ubuntu22.04"
// from "nvcr.io/nvidia/cuda:12.9.1-runtime-ubuntu22.04".
func baseOSOf(ref string) string {
	tag, _, _ := strings.Cut(ref, "@")
	if i := strings.LastIndex(tag, ":"); i >= 0 {
		tag = tag[i+1:]
	}
	if i := strings.LastIndex(tag, "-"); i >= 0 {
		return tag[i+1:]
	}
	return ""
}
