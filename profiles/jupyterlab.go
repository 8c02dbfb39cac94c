package profiles

import "strings"

// JupyterLab releases devenv installs in spark-rapids images, newest first
// with the oldest Python each supports. The lock records the one chosen so a
// rebuild installs the same JupyterLab; `devenv lock --upgrade` moves it.
var jupyterLabReleases = []struct{ version, minPython string }{
	{"4.4.9", "3.9"}, // JupyterLab 4.4 requires Python >= 3.9
	{"4.2.5", "3.8"}, // the last line supporting Python 3.8 (Ubuntu 20.04 bases)
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
