package doctor

import (
	"strconv"
	"strings"
)

// compareVersions compares dotted numeric versions ("570.133.07") part by
// part as numbers; missing parts count as 0 and non-numeric parts as 0, so a
// malformed version compares low instead of panicking.
func compareVersions(a, b string) int {
	pa, pb := strings.Split(strings.TrimSpace(a), "."), strings.Split(strings.TrimSpace(b), ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		x, y := versionPart(pa, i), versionPart(pb, i)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
	}
	return 0
}

func versionPart(parts []string, i int) int {
	if i >= len(parts) {
		return 0
	}
	n, err := strconv.Atoi(parts[i])
	if err != nil {
		return 0
	}
	return n
}

// maxVersion is the newer of two versions; an empty one loses.
func maxVersion(a, b string) string {
	if a == "" || (b != "" && compareVersions(b, a) > 0) {
		return b
	}
	return a
}

// majorMinor turns "12.9.1" into "12.9" and "12" into "12.0".
func majorMinor(v string) string {
	p := strings.Split(strings.TrimSpace(v), ".")
	if len(p) == 1 {
		return p[0] + ".0"
	}
	return p[0] + "." + p[1]
}

// familyMinDriver is the oldest Linux driver that runs any CUDA release of
// the family through minor-version compatibility (rapids-facts.md §5.1).
var familyMinDriver = map[string]string{
	"11": "450.80.02",
	"12": "525.60.13",
	"13": "580.65.06",
}

// toolkitDriver is the Linux driver each CUDA toolkit's GA release ships
// with (rapids-facts.md §5.2, CUDA Toolkit Release Notes Table 3). Below it,
// but above the family minimum, code runs through minor-version
// compatibility, where PTX compiled for the newer toolkit cannot be JIT-ed.
var toolkitDriver = map[string]string{
	"11.7": "515.43.04",
	"11.8": "520.61.05",
	"12.0": "525.60.13",
	"12.1": "530.30.02",
	"12.2": "535.54.03",
	"12.3": "545.23.06",
	"12.4": "550.54.14",
	"12.5": "555.42.02",
	"12.6": "560.28.03",
	"12.8": "570.26",
	"12.9": "575.51.03",
	"13.0": "580.65.06",
	"13.1": "590.44.01",
	"13.2": "595.45.04",
	"13.3": "610.43.02", // runfile cuda_13.3.0_610.43.02_linux.run (§5.2)
}

func cudaMajor(v string) string {
	major, _, _ := strings.Cut(strings.TrimSpace(v), ".")
	return major
}
