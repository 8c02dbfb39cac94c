package profiles

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/go-multierror"
)

// knownClassifiers are the RAPIDS Accelerator jar classifiers devenv
// understands, with the CUDA major and architecture each stands for.
var knownClassifiers = map[string]struct{ cuda, arch string }{
	"cuda11":       {"11", "amd64"},
	"cuda12":       {"12", "amd64"},
	"cuda13":       {"13", "amd64"},
	"cuda11-arm64": {"11", "arm64"},
	"cuda12-arm64": {"12", "arm64"},
	"cuda13-arm64": {"13", "arm64"},
}

var knownScala = []string{"2.12", "2.13"}

// problems collects catalog consistency errors with where they are.
type problems struct{ err *multierror.Error }

func (p *problems) add(where, format string, args ...any) {
	p.err = multierror.Append(p.err, fmt.Errorf("catalog: %s: %s", where, fmt.Sprintf(format, args...)))
}

// validate checks that the catalog is internally consistent and expands the
// RAPIDS Accelerator Spark ranges. It reports every problem at once.
func (c *Catalog) validate() error {
	var p problems
	if c.file.Schema != 1 {
		p.add("schema", "got %d, this devenv reads schema 1", c.file.Schema)
	}
	c.checkImages(&p)
	c.checkUbuntu(&p)
	c.checkCUDA(&p)
	c.checkSpark(&p)
	c.checkAccelerator(&p)
	c.checkRapids(&p)
	c.checkTriton(&p)
	return p.err.ErrorOrNil()
}

func (c *Catalog) checkImages(p *problems) {
	im := c.file.Images
	for name, pair := range map[string][2]string{
		"images.cuda":   {im.CUDA, "{cuda}"},
		"images.rapids": {im.Rapids, "{release}"},
		"images.triton": {im.Triton, "{release}"},
	} {
		if !strings.Contains(pair[0], pair[1]) {
			p.add(name, "format %q lacks %s", pair[0], pair[1])
		}
	}
}

// checkSorted reports versions that are not strictly increasing.
func checkSorted(p *problems, where string, vs []string) {
	for i, v := range vs {
		if _, ok := parseVersion(v); !ok {
			p.add(where, "%q is not a dotted numeric version", v)
			continue
		}
		if i > 0 && compareVersions(vs[i-1], v) >= 0 {
			p.add(where, "%q must come after %q (lists are sorted oldest first, without duplicates)", v, vs[i-1])
		}
	}
	if len(vs) == 0 {
		p.add(where, "is empty")
	}
}

func checkVersion(p *problems, where, v string) {
	if _, ok := parseVersion(v); !ok {
		p.add(where, "%q is not a dotted numeric version", v)
	}
}

func (c *Catalog) checkUbuntu(p *problems) {
	var vs []string
	for i, u := range c.file.Ubuntu {
		where := fmt.Sprintf("ubuntu[%d] (%s)", i, u.Version)
		vs = append(vs, u.Version)
		checkVersion(p, where+".min_cuda", u.MinCUDA)
		checkSorted(p, where+".python", u.Python)
		if !slices.Contains(u.Python, u.DefaultPython) {
			p.add(where, "default_python %q is not in python %v", u.DefaultPython, u.Python)
		}
	}
	checkSorted(p, "ubuntu", vs)
}

func (c *Catalog) checkCUDA(p *problems) {
	var majors, tks []string
	for i, f := range c.file.CUDA.Families {
		where := fmt.Sprintf("cuda.families[%d] (%s)", i, f.Major)
		majors = append(majors, f.Major)
		checkVersion(p, where+".min_driver", f.MinDriver)
		if f.MaxDriverExclusive != "" && compareVersions(f.MaxDriverExclusive, f.MinDriver) <= 0 {
			p.add(where, "max_driver_exclusive %s is not above min_driver %s", f.MaxDriverExclusive, f.MinDriver)
		}
		if f.MinComputeCapability != "" {
			checkVersion(p, where+".min_compute_capability", f.MinComputeCapability)
		}
	}
	checkSorted(p, "cuda.families", majors)
	for i, t := range c.file.CUDA.Toolkits {
		where := fmt.Sprintf("cuda.toolkits[%d] (%s)", i, t.Version)
		tks = append(tks, t.Version)
		checkVersion(p, where+".min_driver", t.MinDriver)
		if f := c.family[major(t.Version)]; f == nil {
			p.add(where, "no cuda.families entry for CUDA %s", major(t.Version))
		} else if compareVersions(t.MinDriver, f.MinDriver) < 0 {
			p.add(where, "min_driver %s is below the CUDA %s family minimum %s", t.MinDriver, f.Major, f.MinDriver)
		}
	}
	checkSorted(p, "cuda.toolkits", tks)
	fd := c.file.CUDA.Fallback
	if fd.Branch == "" || fd.Designation == "" {
		p.add("cuda.fallback_driver", "branch and designation must be set")
	}
	checkVersion(p, "cuda.fallback_driver.min_driver", fd.MinDriver)
}

func (c *Catalog) checkSpark(p *problems) {
	var lines []string
	for i, l := range c.file.Spark.Lines {
		where := fmt.Sprintf("spark.lines[%d] (%s)", i, l.Line)
		lines = append(lines, l.Line)
		checkSorted(p, where+".releases", l.Releases)
		for _, r := range l.Releases {
			if !matchesPrefix(r, l.Line) {
				p.add(where, "release %s is not in line %s", r, l.Line)
			}
		}
		if len(l.Java) == 0 || !sort.IntsAreSorted(l.Java) {
			p.add(where, "java %v must be a non-empty sorted list", l.Java)
		}
		for _, s := range l.Scala {
			if !slices.Contains(knownScala, s) {
				p.add(where, "unknown Scala %q (known: %s)", s, strings.Join(knownScala, ", "))
			}
		}
		if l.PythonMin != "" || !l.Unsure {
			checkVersion(p, where+".python_min", l.PythonMin) // empty only where the minimum is unverifiable
		}
		if l.Dist == "" {
			p.add(where, "dist is empty")
		}
	}
	checkSorted(p, "spark.lines", lines)
}

func (c *Catalog) checkAccelerator(p *problems) {
	sr := c.file.SparkRapids
	if sr.MavenGroup == "" {
		p.add("spark_rapids.maven_group", "is empty")
	}
	for i, ci := range sr.CUDAImages {
		where := fmt.Sprintf("spark_rapids.cuda_images[%d]", i)
		if c.toolkit[ci.CUDA] == nil {
			p.add(where, "CUDA %s is not in cuda.toolkits", ci.CUDA)
		}
		if major(ci.CUDA) != ci.Major {
			p.add(where, "CUDA %s is not CUDA %s", ci.CUDA, ci.Major)
		}
	}
	var vs []string
	for i := range sr.Releases {
		r := &sr.Releases[i]
		vs = append(vs, r.Version)
		c.checkAcceleratorRelease(p, fmt.Sprintf("spark_rapids.releases[%d] (%s)", i, r.Version), r)
	}
	checkSorted(p, "spark_rapids.releases", vs)
}

func (c *Catalog) checkAcceleratorRelease(p *problems, where string, r *acceleratorRel) {
	r.sparkVersions = map[string][]string{}
	for _, scala := range slices.Sorted(maps.Keys(r.Spark)) {
		ranges := r.Spark[scala]
		if !slices.Contains(knownScala, scala) {
			p.add(where, "unknown Scala %q (known: %s)", scala, strings.Join(knownScala, ", "))
			continue
		}
		full := r.ScalaFull[scala]
		if !matchesPrefix(full, scala) {
			p.add(where, "scala_full for %s is %q", scala, full)
		}
		for _, rg := range ranges {
			got, err := c.expandRange(rg)
			if err != nil {
				p.add(where, "spark %s: %v", scala, err)
				continue
			}
			for _, v := range got {
				c.checkScalaPairing(p, where, scala, v)
			}
			r.sparkVersions[scala] = append(r.sparkVersions[scala], got...)
		}
		checkSorted(p, where+".spark."+scala, r.sparkVersions[scala])
	}
	c.checkClassifiers(p, where, r)
	if _, ok := c.file.SparkRapids.Repositories[r.Repository]; r.Repository != "" && !ok {
		p.add(where, "repository %q is not in spark_rapids.repositories", r.Repository)
	}
	checkVersion(p, where+".min_driver", r.MinDriver)
	checkVersion(p, where+".min_compute_capability", r.MinComputeCapability)
	for _, key := range slices.Sorted(maps.Keys(r.JDK)) {
		if key != "spark3" && key != "spark4" {
			p.add(where, "jdk key %q (known: spark3, spark4)", key)
		}
	}
	for _, scala := range slices.Sorted(maps.Keys(r.sparkVersions)) {
		for _, v := range r.sparkVersions[scala] {
			if len(r.JDK["spark"+major(v)]) == 0 {
				p.add(where, "Spark %s listed but jdk has no spark%s entry", v, major(v))
			}
		}
	}
}

// checkScalaPairing enforces the corrected rules: Spark 4.x only with Scala
// 2.13, Spark 3.2.x only with Scala 2.12, and only Scala versions the Spark
// line itself is built for.
func (c *Catalog) checkScalaPairing(p *problems, where, scala, spark string) {
	l := c.sparkByVer[spark]
	switch {
	case l == nil:
	case !slices.Contains(l.Scala, scala):
		p.add(where, "Spark %s is not built for Scala %s", spark, scala)
	case scala == "2.13" && l.Line == "3.2":
		p.add(where, "Scala 2.13 jars never include Spark 3.2.x (got %s)", spark)
	}
}

func (c *Catalog) checkClassifiers(p *problems, where string, r *acceleratorRel) {
	def, ok := knownClassifiers[r.DefaultClassifier]
	if !ok || def.arch != "amd64" {
		p.add(where, "default_classifier %q must be one of cuda11, cuda12, cuda13", r.DefaultClassifier)
	}
	for _, cl := range append([]string{r.DefaultClassifier}, r.Classifiers...) {
		k, ok := knownClassifiers[cl]
		if !ok {
			p.add(where, "unknown classifier %q", cl)
			continue
		}
		if c.cudaImage[k.cuda] == "" {
			p.add(where, "classifier %s: no spark_rapids.cuda_images entry for CUDA %s", cl, k.cuda)
		}
	}
	if slices.Contains(r.Classifiers, r.DefaultClassifier) {
		p.add(where, "classifier %s is both the default and an extra one", r.DefaultClassifier)
	}
}

// expandRange turns "3.2.0-3.2.4" or "3.5.0" into the known Spark releases it covers.
func (c *Catalog) expandRange(rg string) ([]string, error) {
	lo, hi, isRange := strings.Cut(rg, "-")
	if !isRange {
		hi = lo
	}
	l := c.sparkByVer[lo]
	if l == nil {
		return nil, fmt.Errorf("range %q: %s is not in spark.lines", rg, lo)
	}
	if c.sparkByVer[hi] != l {
		return nil, fmt.Errorf("range %q: %s is not a release of Spark %s", rg, hi, l.Line)
	}
	var out []string
	for _, v := range l.Releases {
		if compareVersions(v, lo) >= 0 && compareVersions(v, hi) <= 0 {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("range %q is empty", rg)
	}
	return out, nil
}

// checkRelease checks that the i-th release of kind's releases is YY.MM
// and is where its problems are said.
func checkRelease(p *problems, kind string, i int, release string) string {
	where := fmt.Sprintf("%s.releases[%d] (%s)", kind, i, release)
	if _, ok := monthIndex(release); !ok {
		p.add(where, "release %q is not YY.MM", release)
	}
	return where
}

func (c *Catalog) checkRapids(p *problems) {
	var rels []string
	for i, r := range c.file.Rapids.Releases {
		where := checkRelease(p, "rapids", i, r.Release)
		rels = append(rels, r.Release)
		checkSorted(p, where+".cuda", r.CUDA)
		for _, cu := range r.CUDA {
			if c.family[major(cu)] == nil {
				p.add(where, "CUDA %s has no cuda.families entry", cu)
			}
		}
		checkSorted(p, where+".python", r.Python)
		if r.TagCUDA != "major" && r.TagCUDA != "major.minor" {
			p.add(where, "tag_cuda %q must be major or major.minor", r.TagCUDA)
		}
		for _, m := range slices.Sorted(maps.Keys(r.TagCUDAByMajor)) {
			if rule := r.TagCUDAByMajor[m]; rule != "major" && rule != "major.minor" {
				p.add(where, "tag_cuda_by_major %s: %q must be major or major.minor", m, rule)
			}
		}
	}
	checkSorted(p, "rapids.releases", rels)
}

func (c *Catalog) checkTriton(p *problems) {
	var rels []string
	for i, r := range c.file.Triton.Releases {
		where := checkRelease(p, "triton", i, r.Release)
		rels = append(rels, r.Release)
		if c.toolkit[r.Toolkit] == nil {
			p.add(where, "toolkit %s is not in cuda.toolkits", r.Toolkit)
		}
		if !matchesPrefix(r.CUDA, majorMinor(r.Toolkit)) {
			p.add(where, "cuda %s does not match toolkit %s", r.CUDA, r.Toolkit)
		}
		if r.DocMinDriver != "" { // empty: the release notes state none
			checkVersion(p, where+".doc_min_driver", r.DocMinDriver)
		}
		checkVersion(p, where+".min_compute_capability", r.MinComputeCapability)
		checkVersion(p, where+".python", r.Python)
	}
	checkSorted(p, "triton.releases", rels)
}
