package profiles

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// referenceFacts is testdata/reference-facts.yaml: the reference's facts,
// copied by hand from ../shared/reference/rapids-facts.md.
type referenceFacts struct {
	SparkLines map[string]struct {
		Releases  []string `yaml:"releases"`
		Java      []int    `yaml:"java"`
		Scala     []string `yaml:"scala"`
		PythonMin string   `yaml:"python_min"`
		Dist      string   `yaml:"dist"`
	} `yaml:"spark_lines"`
	Accelerator struct {
		NeverReleased []string          `yaml:"never_released"`
		Newest        string            `yaml:"newest"`
		Repositories  map[string]string `yaml:"repositories"`
		CUDA13Jars    struct {
			MinDriver string `yaml:"min_driver"`
			MinCC     string `yaml:"min_compute_capability"`
		} `yaml:"cuda13_jars"`
		Releases map[string]struct {
			Scala212  []string `yaml:"2.12"`
			Scala213  []string `yaml:"2.13"`
			ScalaFull []string `yaml:"scala_full"`
			Default   string   `yaml:"default"`
			Extra     []string `yaml:"extra"`
			Driver    string   `yaml:"driver"`
		} `yaml:"releases"`
	} `yaml:"accelerator"`
	CUDAFamilies map[string]struct {
		Min          string `yaml:"min"`
		MaxExclusive string `yaml:"max_exclusive"`
		MinCC        string `yaml:"min_compute_capability"`
	} `yaml:"cuda_families"`
	ToolkitDriver     map[string]string `yaml:"cuda_toolkit_driver"`
	ToolkitBranchOnly map[string]string `yaml:"cuda_toolkit_branch_only"`
	DriverBranches    map[string]string `yaml:"driver_branches"`
	UbuntuMinCUDA     map[string]string `yaml:"ubuntu_min_cuda"`
	CUDANewestUpdate  map[string]string `yaml:"cuda_newest_update"`
	Rapids            map[string]struct {
		CUDA   []string          `yaml:"cuda"`
		Python []string          `yaml:"python"`
		Tags   map[string]string `yaml:"tags"`
	} `yaml:"rapids"`
	Triton map[string]struct {
		CUDA   string `yaml:"cuda"`
		Driver string `yaml:"driver"`
		CC     string `yaml:"cc"`
	} `yaml:"triton"`
	JupyterLab struct {
		Newest        string `yaml:"newest"`
		LastFor38     string `yaml:"last_for_python_3_8"`
		Python39Floor string `yaml:"python_3_9_floor_line"`
	} `yaml:"jupyterlab"`
}

func loadReference(t *testing.T) referenceFacts {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "reference-facts.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var f referenceFacts
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("reference-facts.yaml: %v", err)
	}
	return f
}

// expandRef expands the reference's "a-b" ranges over its own Spark lines,
// independently of the catalog's expansion.
func (f referenceFacts) expandRef(t *testing.T, ranges []string) []string {
	t.Helper()
	var out []string
	for _, rg := range ranges {
		lo, hi, ok := strings.Cut(rg, "-")
		if !ok {
			hi = lo
		}
		line := f.SparkLines[majorMinor(lo)]
		i, j := slices.Index(line.Releases, lo), slices.Index(line.Releases, hi)
		if i < 0 || j < i {
			t.Fatalf("reference-facts.yaml: range %q is not within Spark %s's releases", rg, majorMinor(lo))
		}
		out = append(out, line.Releases[i:j+1]...)
	}
	return out
}

// TestCatalogMatchesReference checks the embedded catalog, entry by entry,
// against the machine-readable copy of the reference's facts.
func TestCatalogMatchesReference(t *testing.T) {
	f := loadReference(t)
	c := Builtin()
	t.Run("spark lines", func(t *testing.T) { checkSparkLines(t, f, c) })
	t.Run("accelerator", func(t *testing.T) { checkAcceleratorFacts(t, f, c) })
	t.Run("cuda", func(t *testing.T) { checkCUDAFacts(t, f, c) })
	t.Run("rapids", func(t *testing.T) { checkRapidsFacts(t, f, c) })
	t.Run("triton", func(t *testing.T) { checkTritonFacts(t, f, c) })
	t.Run("jupyterlab", func(t *testing.T) {
		if got := jupyterLabReleases[0].version; got != f.JupyterLab.Newest {
			t.Errorf("newest JupyterLab %s, reference %s", got, f.JupyterLab.Newest)
		}
		if got := JupyterLabVersion(Resolved{Python: "3.8"}); !matchesPrefix(got, f.JupyterLab.LastFor38) {
			t.Errorf("Python 3.8 gets JupyterLab %s, want the %s line", got, f.JupyterLab.LastFor38)
		}
		if got := JupyterLabVersion(Resolved{Python: "3.9"}); compareVersions(got, f.JupyterLab.Python39Floor) < 0 {
			t.Errorf("Python 3.9 gets JupyterLab %s, want %s or later", got, f.JupyterLab.Python39Floor)
		}
	})
}

func checkSparkLines(t *testing.T, f referenceFacts, c *Catalog) {
	if len(c.file.Spark.Lines) != len(f.SparkLines) {
		t.Errorf("catalog has %d Spark lines, reference %d", len(c.file.Spark.Lines), len(f.SparkLines))
	}
	for _, l := range c.file.Spark.Lines {
		want, ok := f.SparkLines[l.Line]
		switch {
		case !ok:
			t.Errorf("Spark %s is not in the reference", l.Line)
		case !slices.Equal(l.Releases, want.Releases) || !slices.Equal(l.Java, want.Java) || !slices.Equal(l.Scala, want.Scala) ||
			l.PythonMin != want.PythonMin || l.Dist != want.Dist:
			t.Errorf("Spark %s: catalog %v java %v scala %v python %q dist %s; reference %v java %v scala %v python %q dist %s",
				l.Line, l.Releases, l.Java, l.Scala, l.PythonMin, l.Dist, want.Releases, want.Java, want.Scala, want.PythonMin, want.Dist)
		}
		if want.PythonMin == "" && !l.Unsure {
			t.Errorf("Spark %s: Python minimum unverifiable, but the line is not marked unsure", l.Line)
		}
	}
}

func checkAcceleratorFacts(t *testing.T, f referenceFacts, c *Catalog) {
	rels := c.file.SparkRapids.Releases
	if got := rels[len(rels)-1].Version; got != f.Accelerator.Newest {
		t.Errorf("newest RAPIDS Accelerator %s, reference %s", got, f.Accelerator.Newest)
	}
	seen := map[string]bool{}
	for i := range rels {
		r := &rels[i]
		seen[r.Version] = true
		if slices.Contains(f.Accelerator.NeverReleased, r.Version) {
			t.Errorf("%s was never released", r.Version)
			continue
		}
		want, ok := f.Accelerator.Releases[r.Version]
		if !ok {
			t.Errorf("%s is not in the reference", r.Version)
			continue
		}
		for scala, ranges := range map[string][]string{"2.12": want.Scala212, "2.13": want.Scala213} {
			if got, exp := r.sparkVersions[scala], f.expandRef(t, ranges); !slices.Equal(got, exp) {
				t.Errorf("%s Scala %s: catalog Spark %v, reference %v", r.Version, scala, got, exp)
			}
		}
		if got := []string{r.ScalaFull["2.12"], r.ScalaFull["2.13"]}; !slices.Equal(got, want.ScalaFull) {
			t.Errorf("%s: Scala %v, reference %v", r.Version, got, want.ScalaFull)
		}
		if r.DefaultClassifier != want.Default || !slices.Equal(r.Classifiers, want.Extra) || r.MinDriver != want.Driver {
			t.Errorf("%s: jars %s+%v R%s, reference %s+%v R%s", r.Version, r.DefaultClassifier, r.Classifiers, r.MinDriver, want.Default, want.Extra, want.Driver)
		}
		if got := c.file.SparkRapids.Repositories[r.Repository]; got != f.Accelerator.Repositories[r.Version] {
			t.Errorf("%s: repository %q, reference %q", r.Version, got, f.Accelerator.Repositories[r.Version])
		}
		if slices.Contains(r.Classifiers, "cuda13") {
			res, err := c.Resolve(Request{Profile: SparkRapids, Rapids: r.Version, CUDA: "13"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Requires.MinDriver != f.Accelerator.CUDA13Jars.MinDriver || res.Requires.MinComputeCapability != f.Accelerator.CUDA13Jars.MinCC {
				t.Errorf("%s cuda13 jar needs driver %s, CC %s; reference %s, %s", r.Version, res.Requires.MinDriver,
					res.Requires.MinComputeCapability, f.Accelerator.CUDA13Jars.MinDriver, f.Accelerator.CUDA13Jars.MinCC)
			}
		}
	}
	for v := range f.Accelerator.Releases {
		if !seen[v] {
			t.Errorf("reference release %s is not in the catalog", v)
		}
	}
}

func checkCUDAFacts(t *testing.T, f referenceFacts, c *Catalog) {
	for _, fam := range c.file.CUDA.Families {
		want := f.CUDAFamilies[fam.Major]
		if fam.MinDriver != want.Min || fam.MaxDriverExclusive != want.MaxExclusive || fam.MinComputeCapability != want.MinCC {
			t.Errorf("CUDA %s family %+v, reference %+v", fam.Major, fam, want)
		}
	}
	for _, tk := range c.file.CUDA.Toolkits {
		want, ok := f.ToolkitDriver[tk.Version]
		switch {
		case ok && (tk.MinDriver != want || tk.Unsure):
			t.Errorf("CUDA %s needs %s (unsure %v), reference %s", tk.Version, tk.MinDriver, tk.Unsure, want)
		case !ok && !tk.Unsure:
			t.Errorf("CUDA %s has no floor in the reference, but is not marked unsure", tk.Version)
		}
	}
	for v, branch := range f.ToolkitBranchOnly {
		if tk := c.toolkit[v]; tk == nil || "R"+major(tk.MinDriver) != branch {
			t.Errorf("CUDA %s: want the %s branch floor, got %+v", v, branch, tk)
		}
	}
	for v := range f.ToolkitDriver {
		if c.toolkit[v] == nil {
			t.Errorf("reference toolkit %s is not in the catalog", v)
		}
	}
	fd := c.file.CUDA.Fallback
	if got := f.DriverBranches[fd.Branch]; got == "" || got != fd.Designation {
		t.Errorf("fallback branch %s called %q; the reference calls it %q", fd.Branch, fd.Designation, got)
	}
	for _, u := range c.file.Ubuntu {
		if u.MinCUDA != f.UbuntuMinCUDA[u.Version] {
			t.Errorf("Ubuntu %s images from CUDA %s, reference %s", u.Version, u.MinCUDA, f.UbuntuMinCUDA[u.Version])
		}
	}
	for _, ci := range c.file.SparkRapids.CUDAImages {
		if want, ok := f.CUDANewestUpdate[majorMinor(ci.CUDA)]; ok && ci.CUDA != want {
			t.Errorf("CUDA %s base is %s; %s superseded it", ci.Major, ci.CUDA, want)
		}
	}
}

func checkRapidsFacts(t *testing.T, f referenceFacts, c *Catalog) {
	if len(c.file.Rapids.Releases) != len(f.Rapids) {
		t.Errorf("catalog has %d RAPIDS releases, reference %d", len(c.file.Rapids.Releases), len(f.Rapids))
	}
	for i := range c.file.Rapids.Releases {
		r := &c.file.Rapids.Releases[i]
		want, ok := f.Rapids[r.Release]
		if !ok || !slices.Equal(r.CUDA, want.CUDA) || !slices.Equal(r.Python, want.Python) {
			t.Errorf("RAPIDS %s: cuda %v python %v; reference %+v", r.Release, r.CUDA, r.Python, want)
			continue
		}
		for cuda, tag := range want.Tags {
			if got := r.cudaTag(cuda); got != tag {
				t.Errorf("RAPIDS %s CUDA %s: tag cuda%s, reference cuda%s", r.Release, cuda, got, tag)
			}
		}
	}
}

func checkTritonFacts(t *testing.T, f referenceFacts, c *Catalog) {
	if len(c.file.Triton.Releases) != len(f.Triton) {
		t.Errorf("catalog has %d Triton releases, reference %d", len(c.file.Triton.Releases), len(f.Triton))
	}
	for _, r := range c.file.Triton.Releases {
		want, ok := f.Triton[r.Release]
		drv := c.toolkit[r.Toolkit].MinDriver
		switch {
		case !ok:
			t.Errorf("Triton %s is not in the reference", r.Release)
		case r.CUDA != want.CUDA || r.MinComputeCapability != want.CC:
			t.Errorf("Triton %s: CUDA %s CC %s; reference %+v", r.Release, r.CUDA, r.MinComputeCapability, want)
		case want.Driver != "" && drv != want.Driver:
			t.Errorf("Triton %s needs driver %s, reference %s", r.Release, drv, want.Driver)
		case want.Driver == "" && !r.Unsure:
			t.Errorf("Triton %s has no known driver floor but is not marked unsure", r.Release)
		}
	}
}

// TestBuiltinDefaults checks, on the built-in catalog, that an unpinned
// spark-rapids service gets the newest release whose default jar the driver
// runs: the expectation is read from the catalog's rows, so a new release
// moves it without a test change.
func TestBuiltinDefaults(t *testing.T) {
	c := Builtin()
	rels := c.file.SparkRapids.Releases
	fallback, rule := c.FallbackDriver()
	for _, driver := range []string{"", "470.256.02", "525.60.13", fallback, "620.70.06"} {
		want := ""
		for i := len(rels) - 1; i >= 0 && want == ""; i-- {
			r := &rels[i]
			fam := c.family[knownClassifiers[r.DefaultClassifier].cuda]
			if driver == "" || compareVersions(maxVersion(r.MinDriver, fam.MinDriver), driver) <= 0 {
				want = r.Version
			}
		}
		res, err := c.Resolve(Request{Profile: SparkRapids, Driver: driver, DriverRule: rule}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Rapids != want {
			t.Errorf("driver %q: default RAPIDS Accelerator %s, want %s", driver, res.Rapids, want)
		}
		newest := rels[len(rels)-1]
		if driver == fallback && res.Rapids != newest.Version {
			t.Errorf("the fallback driver %s does not run the newest release %s", fallback, newest.Version)
		}
	}
}
