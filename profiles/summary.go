package profiles

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
)

// Summary is what `devenv profiles` shows: the built-in profiles and the
// compatibility matrix rows behind them.
type Summary struct {
	Profiles    []ProfileSummary `json:"profiles"`
	SparkRapids []AcceleratorRow `json:"spark_rapids"`
	Spark       []SparkLineRow   `json:"spark"`
	Rapids      []RapidsRow      `json:"rapids"`
	Triton      []TritonRow      `json:"triton"`
}

// ProfileSummary is one built-in profile.
type ProfileSummary struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Versions    []string `json:"versions,omitempty"` // releases it can pin, oldest first
}

// AcceleratorRow is one RAPIDS Accelerator release.
type AcceleratorRow struct {
	Version     string              `json:"version"`
	Spark       map[string][]string `json:"spark"` // Scala binary version -> Spark versions
	Default     string              `json:"default_classifier"`
	Classifiers []string            `json:"classifiers,omitempty"`
	MinDriver   string              `json:"min_driver"`
	Unsure      bool                `json:"unsure,omitempty"`
}

// SparkLineRow is one Apache Spark line.
type SparkLineRow struct {
	Line      string   `json:"line"`
	Releases  []string `json:"releases"`
	Java      []int    `json:"java"`
	Scala     []string `json:"scala"`
	PythonMin string   `json:"python_min"`
}

// RapidsRow is one RAPIDS container release.
type RapidsRow struct {
	Release string   `json:"release"`
	CUDA    []string `json:"cuda"`
	Python  []string `json:"python"`
}

// TritonRow is one Triton -py3 release.
type TritonRow struct {
	Release              string `json:"release"`
	CUDA                 string `json:"cuda"`
	MinDriver            string `json:"min_driver"`
	MinComputeCapability string `json:"min_compute_capability"`
}

// Summary lists the catalog for display.
func (c *Catalog) Summary() Summary {
	var s Summary
	var accel, rapids, triton []string
	for _, r := range c.file.SparkRapids.Releases {
		accel = append(accel, r.Version)
		s.SparkRapids = append(s.SparkRapids, AcceleratorRow{Version: r.Version, Spark: cloneSpark(r.sparkVersions),
			Default: r.DefaultClassifier, Classifiers: slices.Clone(r.Classifiers), MinDriver: r.MinDriver, Unsure: r.Unsure})
	}
	for _, l := range c.file.Spark.Lines {
		s.Spark = append(s.Spark, SparkLineRow{Line: l.Line, Releases: slices.Clone(l.Releases), Java: slices.Clone(l.Java), Scala: slices.Clone(l.Scala), PythonMin: l.PythonMin})
	}
	for _, r := range c.file.Rapids.Releases {
		rapids = append(rapids, r.Release)
		s.Rapids = append(s.Rapids, RapidsRow{Release: r.Release, CUDA: slices.Clone(r.CUDA), Python: slices.Clone(r.Python)})
	}
	for _, r := range c.file.Triton.Releases {
		triton = append(triton, r.Release)
		s.Triton = append(s.Triton, TritonRow{Release: r.Release, CUDA: r.Toolkit,
			MinDriver: c.toolkit[r.Toolkit].MinDriver, MinComputeCapability: r.MinComputeCapability})
	}
	s.Profiles = []ProfileSummary{
		{SparkRapids, "Apache Spark with the RAPIDS Accelerator (NVIDIA cuDF plugin) jar on a CUDA runtime image, JupyterLab optional", accel},
		{Rapids, "RAPIDS cuDF/cuML notebooks on the rapidsai/base image", rapids},
		{Triton, "Triton Inference Server (tritonserver -py3 image)", triton},
		{Image, "any image you name, run with devenv's GPU settings; nothing pinned by devenv", nil},
	}
	return s
}

// Text renders the summary as human tables.
func (s Summary) Text() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "PROFILE\tDESCRIPTION\tVERSIONS")
	for _, p := range s.Profiles {
		fmt.Fprintf(w, "%s\t%s\t%s\n", p.Name, p.Description, span(p.Versions))
	}
	fmt.Fprintln(w, "\nRAPIDS ACCELERATOR (CUDF PLUGIN)\tSCALA 2.12 SPARK\tSCALA 2.13 SPARK\tJARS\tMIN DRIVER")
	for _, r := range s.SparkRapids {
		v := r.Version
		if r.Unsure {
			v += " (unsure)"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", v, span(r.Spark["2.12"]), span(r.Spark["2.13"]),
			strings.Join(append([]string{r.Default + " (default)"}, r.Classifiers...), ", "), "R"+r.MinDriver)
	}
	fmt.Fprintln(w, "\nSPARK\tRELEASES\tJAVA\tSCALA\tPYTHON")
	for _, l := range s.Spark {
		py := l.PythonMin + "+"
		if l.PythonMin == "" {
			py = "unverifiable"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", l.Line, span(l.Releases), strings.Join(intsToStrings(l.Java), ", "), strings.Join(l.Scala, ", "), py)
	}
	fmt.Fprintln(w, "\nRAPIDS\tCUDA\tPYTHON")
	for _, r := range s.Rapids {
		fmt.Fprintf(w, "%s\t%s\t%s\n", r.Release, strings.Join(r.CUDA, ", "), strings.Join(r.Python, ", "))
	}
	fmt.Fprintln(w, "\nTRITON\tCUDA\tMIN DRIVER\tMIN COMPUTE CAPABILITY")
	for _, r := range s.Triton {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", r.Release, r.CUDA, r.MinDriver, r.MinComputeCapability)
	}
	w.Flush()
	return b.String()
}

// span writes a sorted list as "first to last" (or the one item).
func span(vs []string) string {
	switch len(vs) {
	case 0:
		return "-"
	case 1:
		return vs[0]
	}
	return vs[0] + " to " + vs[len(vs)-1]
}

func cloneSpark(m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

// Known lists the releases the catalog has facts for, oldest first: what
// `devenv profiles --outdated` compares the publishers' listings with.
type Known struct {
	Accelerator []string // RAPIDS Accelerator (cuDF plugin) YY.MM.P
	Spark       []string // Apache Spark X.Y.Z
	Rapids      []string // RAPIDS container YY.MM
	Triton      []string // Triton -py3 YY.MM
}

// Known returns the releases the catalog knows.
func (c *Catalog) Known() Known {
	var k Known
	for _, r := range c.file.SparkRapids.Releases {
		k.Accelerator = append(k.Accelerator, r.Version)
	}
	for _, l := range c.file.Spark.Lines {
		k.Spark = append(k.Spark, l.Releases...)
	}
	for _, r := range c.file.Rapids.Releases {
		k.Rapids = append(k.Rapids, r.Release)
	}
	for _, r := range c.file.Triton.Releases {
		k.Triton = append(k.Triton, r.Release)
	}
	return k
}
