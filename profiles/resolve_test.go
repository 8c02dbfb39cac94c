package profiles

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
)

// frozen is testdata/catalog-frozen.yaml: resolution goldens run against it,
// so that a release added to the built-in catalog breaks none of them.
var frozen = sync.OnceValue(func() *Catalog {
	data, err := os.ReadFile(filepath.Join("testdata", "catalog-frozen.yaml"))
	if err != nil {
		panic(err)
	}
	return mustLoad(data)
})

// golden compares got with testdata/<name>, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

// render is what a golden file holds: the result, or the error's fields.
func render(t *testing.T, r Resolved, err error) []byte {
	t.Helper()
	var v any = r
	if err != nil {
		var re *ResolveError
		if !errors.As(err, &re) {
			t.Fatalf("error is %T, want *ResolveError: %v", err, err)
		}
		v = map[string]string{"field": re.Field, "msg": re.Msg, "hint": re.Hint, "error": err.Error()}
	}
	b, jerr := json.MarshalIndent(v, "", "  ")
	if jerr != nil {
		t.Fatal(jerr)
	}
	return append(b, '\n')
}

var customs = map[string]*Custom{
	"team-spark": {
		Name: "team-spark", Extends: SparkRapids,
		Apt: []string{"openssh-client"}, Pip: []string{"pandas==2.2.3"},
		Jars:     []string{"org.postgresql:postgresql:42.7.4", "io.delta:delta-spark_2.12:3.3.0"},
		Env:      map[string]string{"TZ": "UTC"},
		Conf:     map[string]string{"spark.sql.shuffle.partitions": "64"},
		CACerts:  []string{"certs/corp.pem"},
		Defaults: Request{Spark: "3.4", Java: "11"},
	},
	"team-triton": {Name: "team-triton", Extends: Triton, BaseImage: "registry.corp/triton:25.06", Defaults: Request{Release: "25.06"}},
	"bad-jar":     {Name: "bad-jar", Extends: SparkRapids, Jars: []string{"org.x:y", "a:b:c:d:e", "ok.group:art:1.0"}},
	"bad-extends": {Name: "bad-extends", Extends: "team-spark"},
}

var resolveCases = []struct {
	name string
	req  Request
}{
	// spark-rapids: defaults and partial versions
	{"sr-defaults", Request{Profile: SparkRapids}},
	{"sr-spark-3.5", Request{Profile: SparkRapids, Spark: "3.5"}},
	{"sr-spark-4", Request{Profile: SparkRapids, Spark: "4"}},
	{"sr-spark-4.0-rapids-25.08", Request{Profile: SparkRapids, Spark: "4.0", Rapids: "25.08"}},
	{"sr-rapids-25.06-partial", Request{Profile: SparkRapids, Rapids: "25.06"}},
	{"sr-rapids-24.04-partial", Request{Profile: SparkRapids, Rapids: "24.04"}},
	{"sr-spark-3.2.4-newest-rapids", Request{Profile: SparkRapids, Spark: "3.2.4"}},
	{"sr-scala-2.13", Request{Profile: SparkRapids, Scala: "2.13", Rapids: "25.10.0"}},
	{"sr-scala-2.13-spark-3.5", Request{Profile: SparkRapids, Scala: "2.13", Spark: "3.5.1", Rapids: "24.06"}},
	{"sr-java-21-picks-spark-4", Request{Profile: SparkRapids, Java: "21"}},
	{"sr-java-8", Request{Profile: SparkRapids, Java: "8", Spark: "3.3"}},
	{"sr-cuda-13", Request{Profile: SparkRapids, CUDA: "13"}},
	{"sr-cuda-12.8", Request{Profile: SparkRapids, CUDA: "12.8"}},
	{"sr-cuda-11-old-release", Request{Profile: SparkRapids, CUDA: "11"}},
	{"sr-arm64-25.06", Request{Profile: SparkRapids, Rapids: "25.06.0", Arch: "arm64"}},
	{"sr-python-3.12", Request{Profile: SparkRapids, Python: "3.12"}},
	{"sr-python-3.11", Request{Profile: SparkRapids, Python: "3.11", Spark: "4.1"}},
	{"sr-unsure-26.08.0", Request{Profile: SparkRapids, Rapids: "26.08.0"}},
	{"sr-rapids-25.08.0-nvidia-artifactory", Request{Profile: SparkRapids, Rapids: "25.08.0"}},
	{"sr-spark-4.0.3", Request{Profile: SparkRapids, Spark: "4.0.3"}},
	{"sr-spark-4.2.0", Request{Profile: SparkRapids, Spark: "4.2.0"}},
	{"sr-spark-3.2.4-rapids-25.12", Request{Profile: SparkRapids, Spark: "3.2.4", Rapids: "25.12"}},
	{"sr-cuda-13-compute-capability", Request{Profile: SparkRapids, CUDA: "13", Rapids: "26.06"}},
	{"sr-driver-470-picks-a-cuda11-jar", Request{Profile: SparkRapids, Driver: "470.256.02", DriverRule: "driver 470.256.02, this machine's (read through NVML)"}},
	{"sr-driver-580", Request{Profile: SparkRapids, Driver: "580.65.06", DriverRule: "driver 580.65.06, the first of R580"}},
	{"sr-rapids-26.06-driver-470-nothing-runs", Request{Profile: SparkRapids, Rapids: "26.06", Driver: "470.256.02", DriverRule: "driver 470.256.02, this machine's (read through NVML)"}},
	{"err-sr-never-released-24.12.2", Request{Profile: SparkRapids, Rapids: "24.12.2"}},
	{"err-sr-spark-4.0.3-rapids-26.06", Request{Profile: SparkRapids, Spark: "4.0.3", Rapids: "26.06"}},
	{"err-sr-spark-3.5.6-rapids-25.04", Request{Profile: SparkRapids, Spark: "3.5.6", Rapids: "25.04"}},
	// spark-rapids errors
	{"err-sr-spark-3.2.4-rapids-26.02", Request{Profile: SparkRapids, Spark: "3.2.4", Rapids: "26.02"}},
	{"err-sr-spark-3.5.8-rapids-25.12", Request{Profile: SparkRapids, Spark: "3.5.8", Rapids: "25.12"}},
	{"err-sr-spark-4-rapids-25.06", Request{Profile: SparkRapids, Spark: "4.0.0", Rapids: "25.06"}},
	{"err-sr-spark-4.0.0-scala-2.12", Request{Profile: SparkRapids, Spark: "4.0.0", Scala: "2.12"}},
	{"err-sr-spark-3.2-scala-2.13", Request{Profile: SparkRapids, Spark: "3.2", Scala: "2.13"}},
	{"err-sr-scala-2.11", Request{Profile: SparkRapids, Scala: "2.11"}},
	{"err-sr-scala-2.13-spark-3.4-rapids-26.02", Request{Profile: SparkRapids, Spark: "3.4", Scala: "2.13", Rapids: "26.02"}},
	{"err-sr-java-8-spark-4", Request{Profile: SparkRapids, Spark: "4", Java: "8"}},
	{"err-sr-java-17-spark-3.2", Request{Profile: SparkRapids, Spark: "3.2", Java: "17"}},
	{"err-sr-java-1.8", Request{Profile: SparkRapids, Java: "1.8"}},
	{"err-sr-python-3.12-rapids-24.02", Request{Profile: SparkRapids, Rapids: "24.02", Python: "3.12"}},
	{"err-sr-python-3.9", Request{Profile: SparkRapids, Python: "3.9"}},
	{"err-sr-cuda-13-rapids-26.02.1", Request{Profile: SparkRapids, Rapids: "26.02.1", CUDA: "13"}},
	{"err-sr-cuda-11-rapids-26.06", Request{Profile: SparkRapids, Rapids: "26.06", CUDA: "11"}},
	{"err-sr-cuda-12.7", Request{Profile: SparkRapids, CUDA: "12.7"}},
	{"err-sr-unknown-rapids", Request{Profile: SparkRapids, Rapids: "25.05"}},
	{"err-sr-unknown-spark", Request{Profile: SparkRapids, Spark: "3.6"}},
	{"err-sr-not-a-version", Request{Profile: SparkRapids, Spark: "latest"}},
	{"err-sr-release-field", Request{Profile: SparkRapids, Release: "25.06"}},
	{"err-arch", Request{Profile: SparkRapids, Arch: "ppc64le"}},
	// rapids
	{"rapids-defaults", Request{Profile: Rapids}},
	{"rapids-25.06-cuda-12", Request{Profile: Rapids, Release: "25.06", CUDA: "12"}},
	{"rapids-25.10-cuda-12", Request{Profile: Rapids, Release: "25.10", CUDA: "12", Python: "3.12"}},
	{"rapids-25.10-cuda-13-major-tag", Request{Profile: Rapids, Release: "25.10", CUDA: "13"}},
	{"rapids-rapids-field", Request{Profile: Rapids, Rapids: "23.12", CUDA: "11.2"}},
	{"rapids-python-3.9-picks-24.08", Request{Profile: Rapids, Python: "3.9"}},
	{"err-rapids-python-3.12-24.02", Request{Profile: Rapids, Release: "24.02", Python: "3.12"}},
	{"err-rapids-cuda-13-24.02", Request{Profile: Rapids, Release: "24.02", CUDA: "13"}},
	{"err-rapids-unknown-release", Request{Profile: Rapids, Release: "25.07"}},
	{"err-rapids-disagree", Request{Profile: Rapids, Release: "25.06", Rapids: "25.08"}},
	{"err-rapids-spark", Request{Profile: Rapids, Spark: "3.5"}},
	// triton
	{"triton-defaults", Request{Profile: Triton}},
	{"triton-24.07-agree", Request{Profile: Triton, Release: "24.07"}},
	{"triton-25.08-disagree", Request{Profile: Triton, Release: "25.08"}},
	{"triton-24.04-unsure", Request{Profile: Triton, Release: "24.04"}},
	{"triton-cuda-12", Request{Profile: Triton, CUDA: "12"}},
	{"triton-partial-24", Request{Profile: Triton, Release: "24"}},
	{"err-triton-unknown-release", Request{Profile: Triton, Release: "24.03"}},
	{"err-triton-unknown-release-tie", Request{Profile: Triton, Release: "25.12"}},
	{"triton-26.06-no-doc-floor", Request{Profile: Triton, Release: "26.06"}},
	{"triton-26.10-unsure", Request{Profile: Triton, Release: "26.10"}},
	{"err-triton-cuda", Request{Profile: Triton, Release: "24.10", CUDA: "13"}},
	{"err-triton-python", Request{Profile: Triton, Release: "25.06", Python: "3.10"}},
	// a driver limit: the newest combination the driver runs
	{"rapids-driver-580", Request{Profile: Rapids, Driver: "580.159.04", DriverRule: "driver 580.159.04, this machine's (read through NVML)"}},
	{"rapids-driver-595", Request{Profile: Rapids, Driver: "595.45.04", DriverRule: "driver 595.45.04, this machine's (read through NVML)"}},
	{"rapids-driver-470-none-runs", Request{Profile: Rapids, Driver: "470.256.02", DriverRule: "driver 470.256.02, this machine's (read through NVML)"}},
	{"rapids-26.06-driver-470-nothing-runs", Request{Profile: Rapids, Release: "26.06", Driver: "470.256.02", DriverRule: "driver 470.256.02, this machine's (read through NVML)"}},
	{"triton-driver-580", Request{Profile: Triton, Driver: "580.65.06", DriverRule: "driver 580.65.06, the first of R580"}},
	// the data-center rule: the CUDA family's floor (this project's H200 hosts)
	{"rapids-driver-580-data-center", Request{Profile: Rapids, Driver: "580.159.04", DriverRule: "driver 580.159.04, this machine's (read through NVML)", DataCenter: true}},
	{"triton-driver-580-data-center", Request{Profile: Triton, Driver: "580.159.04", DriverRule: "driver 580.159.04, this machine's (read through NVML)", DataCenter: true}},
	// image and profiles
	{"image", Request{Profile: Image}},
	{"err-image-spark", Request{Profile: Image, Spark: "3.5", Python: "3.11"}},
	{"err-unknown-profile", Request{Profile: "spark"}},
	{"err-no-profile", Request{}},
	// custom profiles
	{"custom-team-spark", Request{Profile: "team-spark"}},
	{"custom-team-spark-request-wins", Request{Profile: "team-spark", Spark: "3.5", Java: "17"}},
	{"custom-team-triton", Request{Profile: "team-triton"}},
	{"err-custom-bad-jar", Request{Profile: "bad-jar"}},
	{"err-custom-bad-extends", Request{Profile: "bad-extends"}},
}

func TestResolve(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range resolveCases {
		t.Run(tc.name, func(t *testing.T) {
			if seen[tc.name] {
				t.Fatalf("duplicate case name %s", tc.name)
			}
			seen[tc.name] = true
			r, err := frozen().Resolve(tc.req, customs)
			isErr := len(tc.name) > 4 && tc.name[:4] == "err-"
			if (err != nil) != isErr {
				t.Fatalf("err = %v; this case expects an error: %v", err, isErr)
			}
			golden(t, "resolve/"+tc.name+".golden", render(t, r, err))
		})
	}
}

// TestResolveDeterministic resolves every case many times (maps iterate in a
// different order each time) and wants identical results.
func TestResolveDeterministic(t *testing.T) {
	for _, tc := range resolveCases {
		first, ferr := frozen().Resolve(tc.req, customs)
		for i := 0; i < 20; i++ {
			again, err := frozen().Resolve(tc.req, customs)
			if !reflect.DeepEqual(first, again) || !reflect.DeepEqual(ferr, err) {
				t.Fatalf("%s: run %d differs:\n%+v\n%+v\n%v\n%v", tc.name, i, first, again, ferr, err)
			}
		}
	}
}

// TestResolveDoesNotShareState checks that changing a result leaves the
// catalog and the custom profile alone.
func TestResolveDoesNotShareState(t *testing.T) {
	req := Request{Profile: "team-spark"}
	r1, err := Builtin().Resolve(req, customs)
	if err != nil {
		t.Fatal(err)
	}
	r1.Env["TZ"] = "changed"
	r1.Conf["x"] = "y"
	r2, _ := Builtin().Resolve(req, customs)
	if r2.Env["TZ"] != "UTC" || r2.Conf["x"] != "" || customs["team-spark"].Env["TZ"] != "UTC" {
		t.Fatalf("resolution shares maps: %v %v", r2.Env, r2.Conf)
	}
}

// TestResolveEverySparkRapidsRow resolves every (release, Scala, Spark) row
// pinned exactly and checks the result echoes it and is well-formed.
func TestResolveEverySparkRapidsRow(t *testing.T) {
	c := Builtin()
	n := 0
	for _, x := range c.combos() {
		req := Request{Profile: SparkRapids, Rapids: x.rel.Version, Spark: x.spark, Scala: x.scala}
		r, err := c.Resolve(req, nil)
		if err != nil {
			t.Errorf("%+v: %v", req, err)
			continue
		}
		n++
		if r.Rapids != x.rel.Version || r.Spark != x.spark || r.Scala != x.scala {
			t.Errorf("%+v resolved to %s/%s/%s", req, r.Rapids, r.Spark, r.Scala)
		}
		if len(r.Artifacts) != 2 || r.BaseImage == "" || r.Requires.MinDriver == "" || r.Java == "" || r.ScalaFull == "" {
			t.Errorf("%+v: incomplete result %+v", req, r)
		}
		if x.scala == "2.13" && majorMinor(x.spark) == "3.2" || x.scala == "2.12" && major(x.spark) == "4" {
			t.Errorf("%+v: forbidden Scala pairing resolved", req)
		}
	}
	if n < 500 {
		t.Errorf("only %d rows resolved; the matrix looks truncated", n)
	}
}

func BenchmarkResolve(b *testing.B) {
	c := Builtin()
	reqs := []Request{
		{Profile: SparkRapids},
		{Profile: SparkRapids, Spark: "3.2.4"},
		{Profile: SparkRapids, Spark: "3.2.4", Rapids: "26.02"},
		{Profile: Rapids, Release: "25.06"},
		{Profile: Triton},
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_, _ = c.Resolve(reqs[i%len(reqs)], nil)
	}
}

// TestDriverLimit checks the rule itself on the catalog: unset versions
// resolve to a CUDA the driver runs, the fallback branch is used when no
// driver is read, and versions asked for are never changed by the limit.
func TestDriverLimit(t *testing.T) {
	c := Builtin()
	prod, rule := c.FallbackDriver()
	tests := []struct {
		name     string
		req      Request
		wantCUDA string // "" means: any CUDA the driver runs
		maxDrv   string // Requires.MinDriver must not exceed it ("" skips)
	}{
		{"rapids unset, H200 driver", Request{Profile: Rapids, Driver: "580.159.04", DriverRule: "x"}, "", "580.159.04"},
		{"rapids unset, fallback branch", Request{Profile: Rapids, Driver: prod, DriverRule: rule}, "", prod},
		{"triton unset, fallback branch", Request{Profile: Triton, Driver: prod, DriverRule: rule}, "", prod},
		{"rapids cuda asked, limit ignored", Request{Profile: Rapids, CUDA: "13.2", Driver: prod, DriverRule: rule}, "13.2.0", ""},
		{"no limit keeps the newest", Request{Profile: Rapids}, newestRapidsCUDA(c), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Resolve(tc.req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantCUDA != "" && r.CUDA != tc.wantCUDA {
				t.Errorf("CUDA %s, want %s", r.CUDA, tc.wantCUDA)
			}
			if tc.maxDrv != "" && compareVersions(r.Requires.MinDriver, tc.maxDrv) > 0 {
				t.Errorf("needs driver %s, more than %s runs (CUDA %s)", r.Requires.MinDriver, tc.maxDrv, r.CUDA)
			}
			if tc.req.Driver != "" && len(DriverRuleNotes(r)) != 1 {
				t.Errorf("no note says which driver rule chose it: %q", r.Notes)
			}
		})
	}
	if prod == "" || rule == "" {
		t.Fatalf("the catalog names no fallback driver branch")
	}
}

// BenchmarkLoadBuiltin is what the first use of the embedded catalog costs
// each devenv command that plans or resolves (decode, index and validate).
func BenchmarkLoadBuiltin(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(catalogYAML); err != nil {
			b.Fatal(err)
		}
	}
}

func TestResolveBuiltinMatchesTheCatalog(t *testing.T) {
	customs := map[string]*Custom{"plain": {Extends: Image}, "team": {Extends: SparkRapids}}
	for _, req := range []Request{{Profile: Image}, {Profile: "plain"}, {Profile: SparkRapids}, {Profile: "team"}, {Profile: Image, Spark: "3.5"}} {
		want, werr := Builtin().Resolve(req, customs)
		got, gerr := ResolveBuiltin(req, customs)
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) || !reflect.DeepEqual(got, want) {
			t.Errorf("ResolveBuiltin(%+v) = %+v, %v; Builtin().Resolve = %+v, %v", req, got, gerr, want, werr)
		}
	}
}

// newestRapidsCUDA is the newest CUDA of the catalog's newest RAPIDS release.
func newestRapidsCUDA(c *Catalog) string {
	rels := c.file.Rapids.Releases
	cudas := rels[len(rels)-1].CUDA
	return cudas[len(cudas)-1]
}
