package profiles

import (
	"bytes"
	_ "embed" // catalog.yaml is compiled in
	"fmt"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed catalog.yaml
var catalogYAML []byte

// builtin is the embedded catalog, decoded and checked on first use (not
// at start-up: commands that never resolve a profile do not pay for it). A
// broken embedded file is a bug in devenv itself, caught by this package's
// tests, so the first use stops the program with the loader's full report.
var builtin = sync.OnceValue(func() *Catalog { return mustLoad(catalogYAML) })

func mustLoad(data []byte) *Catalog {
	c, err := Load(data)
	if err != nil {
		panic(fmt.Sprintf("profiles: embedded catalog.yaml is invalid (a devenv bug):\n%v", err))
	}
	return c
}

// ResolveBuiltin is Builtin().Resolve, except that requests for the image
// profile (built in or extended), which use nothing of the catalog, do not
// load it: a project of plain images plans without decoding the matrix.
func ResolveBuiltin(req Request, custom map[string]*Custom) (Resolved, error) {
	if r, _, err := applyCustom(req, custom); err == nil && r.Profile == Image {
		var none *Catalog // Resolve reads no catalog data for Image
		return none.Resolve(req, custom)
	}
	return Builtin().Resolve(req, custom)
}

// Builtin returns devenv's built-in catalog. The value is shared: treat it as
// read-only.
func Builtin() *Catalog { return builtin() }

// Catalog is the decoded compatibility matrix: RAPIDS Accelerator releases,
// Apache Spark lines, CUDA toolkits and driver floors, RAPIDS and Triton
// container releases, and the image tag formats.
type Catalog struct {
	file catalogFile

	// indexes built by Load
	sparkLine  map[string]*sparkLine // "3.5" -> line
	toolkit    map[string]*toolkit   // "12.9.1" -> toolkit
	family     map[string]*family    // "12" -> family
	cudaImage  map[string]string     // jar CUDA major -> base image CUDA
	sparkByVer map[string]*sparkLine // "3.5.1" -> line
	allCombos  []combo               // every (release, Spark, Scala), newest first
}

// catalogFile mirrors catalog.yaml; decoding is strict (unknown keys fail).
type catalogFile struct {
	Schema      int              `yaml:"schema"`
	Images      imageFormats     `yaml:"images"`
	Ubuntu      []ubuntuFlavor   `yaml:"ubuntu"`
	CUDA        cudaSection      `yaml:"cuda"`
	Spark       sparkSection     `yaml:"spark"`
	SparkRapids sparkRapidsTable `yaml:"spark_rapids"`
	Rapids      rapidsTable      `yaml:"rapids"`
	Triton      tritonTable      `yaml:"triton"`
}

type imageFormats struct {
	CUDA   string `yaml:"cuda"`
	Rapids string `yaml:"rapids"`
	Triton string `yaml:"triton"`
}

type ubuntuFlavor struct {
	Version       string   `yaml:"version"`
	MinCUDA       string   `yaml:"min_cuda"`
	Python        []string `yaml:"python"`
	DefaultPython string   `yaml:"default_python"`
}

type cudaSection struct {
	Families []family       `yaml:"families"`
	Toolkits []toolkit      `yaml:"toolkits"`
	Fallback fallbackDriver `yaml:"fallback_driver"`
}

// fallbackDriver is the data-center driver branch devenv resolves for when it
// cannot read the machine's driver, with NVIDIA's designation of it.
type fallbackDriver struct {
	Branch      string `yaml:"branch"`
	Designation string `yaml:"designation"`
	MinDriver   string `yaml:"min_driver"`
}

// family is a CUDA major version and its minor-version-compatibility driver range.
type family struct {
	Major              string `yaml:"major"`
	MinDriver          string `yaml:"min_driver"`
	MaxDriverExclusive string `yaml:"max_driver_exclusive"`
	// MinComputeCapability is the oldest GPU the family's toolkits support
	// ("" = no floor beyond the release's own).
	MinComputeCapability string `yaml:"min_compute_capability"`
}

type toolkit struct {
	Version   string `yaml:"version"`
	MinDriver string `yaml:"min_driver"`
	Unsure    bool   `yaml:"unsure"`
}

type sparkSection struct {
	Lines []sparkLine `yaml:"lines"`
}

// sparkLine is one Apache Spark feature line ("3.5") and its patch releases.
type sparkLine struct {
	Line      string   `yaml:"line"`
	Java      []int    `yaml:"java"`
	Scala     []string `yaml:"scala"`
	PythonMin string   `yaml:"python_min"`
	Dist      string   `yaml:"dist"`
	Unsure    bool     `yaml:"unsure"`
	Releases  []string `yaml:"releases"`
}

type sparkRapidsTable struct {
	MavenGroup   string            `yaml:"maven_group"`
	Repositories map[string]string `yaml:"repositories"` // name -> Maven repository URL, for releases not on Maven Central
	CUDAImages   []cudaImage       `yaml:"cuda_images"`
	Releases     []acceleratorRel  `yaml:"releases"`
}

type cudaImage struct {
	Major  string `yaml:"major"`
	CUDA   string `yaml:"cuda"`
	Unsure bool   `yaml:"unsure"`
}

// acceleratorRel is one RAPIDS Accelerator for Apache Spark release.
type acceleratorRel struct {
	Version              string              `yaml:"version"`
	Repository           string              `yaml:"repository"` // a spark_rapids.repositories name; "" = Maven Central
	Spark                map[string][]string `yaml:"spark"`      // scala -> ranges
	ScalaFull            map[string]string   `yaml:"scala_full"`
	DefaultClassifier    string              `yaml:"default_classifier"`
	Classifiers          []string            `yaml:"classifiers"`
	MinDriver            string              `yaml:"min_driver"`
	JDK                  map[string][]int    `yaml:"jdk"` // "spark3" | "spark4" -> JDKs
	MinComputeCapability string              `yaml:"min_compute_capability"`
	Unsure               bool                `yaml:"unsure"`

	sparkVersions map[string][]string          // scala -> expanded, sorted Spark versions
	jarsByArch    map[string]map[string]string // arch -> CUDA major -> classifier, built at load
}

type rapidsTable struct {
	Releases []rapidsRel `yaml:"releases"`
}

// rapidsRel is one RAPIDS container release.
type rapidsRel struct {
	Release string   `yaml:"release"`
	CUDA    []string `yaml:"cuda"`
	Python  []string `yaml:"python"`
	TagCUDA string   `yaml:"tag_cuda"` // "major.minor" | "major"
	// TagCUDAByMajor overrides TagCUDA for some CUDA majors.
	TagCUDAByMajor map[string]string `yaml:"tag_cuda_by_major"`
}

type tritonTable struct {
	Releases []tritonRel `yaml:"releases"`
}

// tritonRel is one Triton Inference Server -py3 release.
type tritonRel struct {
	Release              string `yaml:"release"`
	CUDA                 string `yaml:"cuda"`
	Toolkit              string `yaml:"toolkit"`
	DocMinDriver         string `yaml:"doc_min_driver"`
	MinComputeCapability string `yaml:"min_compute_capability"`
	Python               string `yaml:"python"`
	Unsure               bool   `yaml:"unsure"`
}

// Load decodes a catalog strictly (unknown keys are errors) and checks that it
// is internally consistent, reporting every problem at once.
func Load(data []byte) (*Catalog, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f catalogFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	c := &Catalog{file: f}
	if err := c.index(); err != nil {
		return nil, err
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	for i := range c.file.SparkRapids.Releases {
		c.file.SparkRapids.Releases[i].indexJars()
	}
	c.allCombos = c.buildCombos()
	return c, nil
}

// index builds the lookup maps; duplicates are reported by validate.
func (c *Catalog) index() error {
	c.sparkLine = map[string]*sparkLine{}
	c.sparkByVer = map[string]*sparkLine{}
	for i := range c.file.Spark.Lines {
		l := &c.file.Spark.Lines[i]
		c.sparkLine[l.Line] = l
		for _, v := range l.Releases {
			c.sparkByVer[v] = l
		}
	}
	c.toolkit = map[string]*toolkit{}
	for i := range c.file.CUDA.Toolkits {
		t := &c.file.CUDA.Toolkits[i]
		c.toolkit[t.Version] = t
	}
	c.family = map[string]*family{}
	for i := range c.file.CUDA.Families {
		f := &c.file.CUDA.Families[i]
		c.family[f.Major] = f
	}
	c.cudaImage = map[string]string{}
	for _, ci := range c.file.SparkRapids.CUDAImages {
		c.cudaImage[ci.Major] = ci.CUDA
	}
	return nil
}
