package mirror

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/devenv-dev/devenv/internal/lazy"
	"go.yaml.in/yaml/v3"
)

//go:embed tables/runtimes.yaml
var runtimesYAML []byte

// runtimeRow is one runtime label's versions.
type runtimeRow struct {
	Key       string `yaml:"key"`
	Spark     string `yaml:"spark"`
	Scala     string `yaml:"scala"`
	ScalaFull string `yaml:"scala_full"`
	Java      string `yaml:"java"`
	Python    string `yaml:"python"`
	Rapids    string `yaml:"rapids"` // bundled RAPIDS (EMR enableSparkRapids)
	CUDA      string `yaml:"cuda"`
	Guess     bool   `yaml:"guess"`
	Note      string `yaml:"note"`
	// Source is the release-notes page the row was read on.
	Source string `yaml:"source"`
	// Unverified names the fields ("spark", "python", ...) the page did not
	// state: written by analogy with the neighbouring rows, warned when used.
	Unverified []string `yaml:"unverified"`
}

type runtimeTable struct {
	Source string       `yaml:"source"`
	Rows   []runtimeRow `yaml:"rows"`
}

var (
	tablesOnce sync.Once
	tables     map[string]runtimeTable
	tablesErr  error
)

func loadTables() (map[string]runtimeTable, error) {
	tablesOnce.Do(func() {
		tablesErr = yaml.Unmarshal(runtimesYAML, &tables)
	})
	return tables, tablesErr
}

// lookupRuntime finds the row of table whose key equals key, or, failing
// that, the row whose key is a prefix of key at a dot boundary.
func lookupRuntime(table, key string) (runtimeRow, bool) {
	t, err := loadTables()
	if err != nil {
		return runtimeRow{}, false
	}
	var best runtimeRow
	for _, r := range t[table].Rows {
		if r.Key == key {
			return r, true
		}
		if strings.HasPrefix(key, r.Key+".") && len(r.Key) > len(best.Key) {
			best = r
		}
	}
	return best, best.Key != ""
}

// applyRuntime fills versions from a table row, never replacing facts a
// direct source already gave.
func (p *Profile) applyRuntime(table string, r runtimeRow) {
	src := fmt.Sprintf("table:%s-runtime %s", table, r.Key)
	p.setSpark(r.Spark, src, false)
	setStr(&p.Runtime.Scala, &p.Runtime.ScalaProvenance, r.Scala, src, false)
	if p.Runtime.ScalaFull == "" && r.ScalaFull != "" && (p.Runtime.Scala == "" || p.Runtime.Scala == r.Scala) {
		p.Runtime.ScalaFull = r.ScalaFull
	}
	setStr(&p.Runtime.Java, &p.Runtime.JavaProvenance, r.Java, src, false)
	setStr(&p.Runtime.Python, &p.Runtime.PythonProvenance, r.Python, src, false)
	setStr(&p.GPU.CUDA, &p.GPU.CUDAProvenance, r.CUDA, src, false)
	p.warnUnverified(table, r, src)
	if r.Guess {
		p.warn(fmt.Sprintf("the versions for %s runtime %s are unverified (table row marked guess); check the release notes and set them in devenv.yaml if they differ", table, r.Key))
	}
}

var dbxLabelRe = lazy.Regexp(`^(\d+)\.(\d+)\.x-(.*?)-?scala(2\.1[0-9])$`)

// databricksLabel splits "13.3.x-gpu-ml-scala2.12" into "13.3", its flavour
// ("gpu-ml") and Scala binary ("2.12").
func databricksLabel(label string) (version, flavour, scala string, ok bool) {
	m := dbxLabelRe().FindStringSubmatch(strings.TrimSpace(label))
	if m == nil {
		return "", "", "", false
	}
	return m[1] + "." + m[2], strings.Trim(m[3], "-"), m[4], true
}

// applyDatabricksLabel maps a Databricks runtime label to versions.
func (p *Profile) applyDatabricksLabel(label, src string) {
	setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, label, src, false)
	ver, flavour, scala, ok := databricksLabel(label)
	if !ok {
		p.warn(fmt.Sprintf("Databricks runtime label %q is not of the form <major>.<minor>.x-[flavour-]scala<2.12|2.13>; versions unknown", label))
		return
	}
	setStr(&p.Runtime.Scala, &p.Runtime.ScalaProvenance, scala, src+" (label)", false)
	if strings.Contains(flavour, "photon") {
		p.Runtime.Engine = "photon"
		p.warn("the cluster runs Photon, which has no open-source equivalent; the local mirror runs plain Apache Spark")
	}
	r, found := lookupRuntime("databricks", ver)
	if !found {
		p.warn(fmt.Sprintf("Databricks runtime %s is not in devenv's table; set spark:, scala:, java: in devenv.yaml", ver))
		return
	}
	if !strings.Contains(flavour, "gpu") {
		r.CUDA = ""
	} else {
		// a GPU runtime runs on GPU node types only; which, the node type says
		p.GPU.OnGPUNodes = src + " " + label + " (a GPU runtime)"
	}
	p.applyRuntime("databricks", r)
}

// warnUnverified warns about each unverified field of a row that the
// profile took from it.
func (p *Profile) warnUnverified(table string, r runtimeRow, src string) {
	prov := map[string]string{"spark": p.Runtime.SparkProvenance, "scala": p.Runtime.ScalaProvenance,
		"java": p.Runtime.JavaProvenance, "python": p.Runtime.PythonProvenance, "cuda": p.GPU.CUDAProvenance}
	for _, f := range r.Unverified {
		if strings.HasPrefix(prov[f], src) {
			p.warn(fmt.Sprintf("the %s for %s runtime %s is unverified (%s does not state it); set %s: in devenv.yaml if prod differs", f, table, r.Key, r.Source, f))
		}
	}
}
