package profiles

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBuiltinIsConsistent checks the embedded catalog row by row, beyond
// what Load already enforces.
func TestBuiltinIsConsistent(t *testing.T) {
	c, err := Load(catalogYAML)
	if err != nil {
		t.Fatalf("embedded catalog: %v", err)
	}
	rels := c.file.SparkRapids.Releases
	for _, r := range rels {
		if len(r.sparkVersions["2.12"]) == 0 {
			t.Errorf("%s: no Scala 2.12 Spark versions", r.Version)
		}
		for _, v := range r.sparkVersions["2.12"] {
			if major(v) == "4" {
				t.Errorf("%s: Spark %s paired with Scala 2.12", r.Version, v)
			}
		}
		for _, v := range r.sparkVersions["2.13"] {
			if majorMinor(v) == "3.2" {
				t.Errorf("%s: Spark %s paired with Scala 2.13", r.Version, v)
			}
		}
		if compareVersions(r.Version, "25.08.0") >= 0 != (r.MinDriver == "525") {
			t.Errorf("%s: driver floor R%s (R470 up to 25.06.0, R525 from 25.08.0)", r.Version, r.MinDriver)
		}
		if compareVersions(r.Version, "26.02.0") >= 0 && anyPrefix(r.sparkVersions["2.12"], "3.2") {
			t.Errorf("%s: Spark 3.2 was dropped in 26.02.0", r.Version)
		}
	}
	// every Spark release the table names resolves through some accelerator release
	for _, l := range c.file.Spark.Lines {
		for _, v := range l.Releases {
			found := false
			for i := range rels {
				found = found || rels[i].supportsSpark(v)
			}
			if !found {
				t.Errorf("Spark %s is listed but no RAPIDS Accelerator release supports it", v)
			}
		}
	}
	if got := c.cudaImage["12"]; major(got) != "12" || c.toolkit[got] == nil {
		t.Errorf("CUDA 12 base = %s, want a CUDA 12 toolkit the catalog knows", got)
	}
}

// TestLoadRejects breaks the embedded catalog one way at a time and wants
// the loader to name the problem.
func TestLoadRejects(t *testing.T) {
	base := string(catalogYAML)
	cases := []struct {
		name, old, new, want string
	}{
		{"unknown key", "schema: 1", "schema: 1\nextra: true", "field extra not found"},
		{"schema", "schema: 1", "schema: 2", "this devenv reads schema 1"},
		{"unsorted releases", `    - version: "24.04.0"`, `    - version: "23.04.0"`, `"23.04.0" must come after "24.02.0"`},
		{"bad range", `"3.2.0-3.2.4", "3.3.0-3.3.3", "3.4.0-3.4.2", "3.5.0"]`, `"3.2.0-3.3.3"]`, "3.3.3 is not a release of Spark 3.2"},
		{"unknown spark", `"3.3.0-3.3.3", "3.4.0-3.4.2", "3.5.0"]
      scala_full`, `"3.3.0-3.3.3", "3.4.0-3.4.2", "3.5.99"]
      scala_full`, "3.5.99 is not in spark.lines"},
		{"scala 2.13 with spark 3.2", `"2.13": ["3.3.0-3.3.3", "3.4.0-3.4.2", "3.5.0"]`, `"2.13": ["3.2.0-3.2.4"]`, "Scala 2.13 jars never include Spark 3.2.x"},
		{"spark 4 with scala 2.12", `"2.12": ["3.3.0-3.3.4", "3.4.0-3.4.4", "3.5.0-3.5.9"]`, `"2.12": ["3.3.0-3.3.4", "4.1.1"]`, "Spark 4.1.1 is not built for Scala 2.12"},
		{"unknown repository", "repository: nvidia-artifactory", "repository: elsewhere", `repository "elsewhere" is not in spark_rapids.repositories`},
		{"python_min only empty when unsure", "python_min: \"3.8\"", "python_min: \"\"", `python_min: "" is not a dotted numeric version`},
		{"unknown classifier", "classifiers: [cuda12-arm64, cuda13, cuda13-arm64]\n      min_driver: \"525\"\n      jdk: {spark3: [8, 11, 17], spark4: [17, 21]}\n      min_compute_capability: \"7.0\"\n\n",
			"classifiers: [cuda12-arm64, cuda14]\n      min_driver: \"525\"\n      jdk: {spark3: [8, 11, 17], spark4: [17, 21]}\n      min_compute_capability: \"7.0\"\n\n", `unknown classifier "cuda14"`},
		{"unknown triton toolkit", `toolkit: "13.1.1"`, `toolkit: "13.1.9"`, "toolkit 13.1.9 is not in cuda.toolkits"},
		{"family range", `max_driver_exclusive: "580"`, `max_driver_exclusive: "500"`, "is not above min_driver"},
		{"rapids tag rule", "tag_cuda: major}", "tag_cuda: minor}", `tag_cuda "minor"`},
		{"rapids release not YY.MM", `{release: "25.06", cuda: ["11.8.0"`, `{release: "25-06", cuda: ["11.8.0"`, `(25-06): release "25-06" is not YY.MM`},
		{"triton release not YY.MM", `{release: "24.07", cuda: "12.5.1"`, `{release: "24-07", cuda: "12.5.1"`, `(24-07): release "24-07" is not YY.MM`},
		{"rapids release with a four-digit year", `{release: "25.06", cuda: ["11.8.0"`, `{release: "2025.06", cuda: ["11.8.0"`, `(2025.06): release "2025.06" is not YY.MM`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(base, tc.old) {
				t.Fatalf("test setup: %q not in catalog.yaml", tc.old)
			}
			_, err := Load([]byte(strings.Replace(base, tc.old, tc.new, 1)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	s := frozen().Summary()
	golden(t, "summary.txt", []byte(s.Text()))
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "summary.json", append(b, '\n'))
	s.SparkRapids[0].Spark["2.12"][0] = "changed"
	if Builtin().Summary().SparkRapids[0].Spark["2.12"][0] == "changed" {
		t.Error("Summary shares slices with the catalog")
	}
}
