package lock

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/profiles"
)

// TestMirroredVersionsOfPublicFiles: the versions devenv lock takes from
// real public prod files (internal/mirror/testdata, SOURCES.md there),
// with every deviation and its reason, pinned in a golden file. The
// expectations in the table are prod's own versions where the catalog
// builds them, read by hand from each file.
func TestMirroredVersionsOfPublicFiles(t *testing.T) {
	type want struct{ spark, scala, java string }
	cases := []struct {
		file  string
		want  want
		major bool // a Spark line or Scala change: mirror exits 5 without --accept-deviation
	}{
		{"real/eventlog_4nodes_8cores_dynamic_alloc.zstd", want{"3.2.1", "2.12", "8"}, false},                       // YARN, Java 8 kept
		{"real/xgboost_eventlog.zstd", want{"3.2.1", "2.12", "8"}, false},                                           // Databricks 10.4
		{"real/databricks-azure-cpu-00.json", want{"3.3.0", "2.12", "8"}, false},                                    // DBR 11.3 cluster JSON
		{"real/emr-cpu-00.json", want{"3.2.4", "2.12", "8"}, true},                                                  // emr-5.28.0: Spark 2.4.4 has no RAPIDS release
		{"real/dataproc-cpu-00.yaml", want{"3.2.4", "2.12", "8"}, true},                                             // Dataproc 2.0: Spark 3.1.3
		{"public/join_agg_on_yarn_eventlog.zstd", want{"3.3.0", "2.12", "8"}, false},                                // EMR 6.x
		{"public/nds_q72_dataproc_2_2.zstd", want{"3.5.3", "2.12", "11"}, false},                                    // Dataproc 2.2, Java 11 kept
		{"public/rp_sql_eventlog.zstd", want{"3.2.4", "2.12", "8"}, true},                                           // Spark 3.1.1
		{"public/eventlog_v2_local-1766844910796/events_1_local-1766844910796", want{"4.2.0", "2.13", "17"}, false}, // 4.2.0-SNAPSHOT: 4.2.0 with Scala 2.13 and Java 17
		{"public/spark-pi-dynamic-allocation.yaml", want{"4.0.4", "2.13", "17"}, false},                             // the Spark 4.0.4 image
		{"public/spark-connect-gpu-spark-defaults.conf", want{"4.0.0", "2.13", "17"}, false},                        // its spark400 RapidsShuffleManager is Spark 4.0.0
	}
	// the frozen catalog copy, so a release the catalog gains changes no expectation here
	data, err := os.ReadFile(filepath.Join("..", "..", "profiles", "testdata", "catalog-frozen.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	catalog, err := profiles.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	for _, tc := range cases {
		p, err := mirror.Import(filepath.Join("..", "..", "internal", "mirror", "testdata", tc.file), mirror.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		r, err := catalog.Resolve(profiles.Request{Profile: profiles.SparkRapids, Prefer: PreferOf(p)}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if got := (want{r.Spark, r.Scala, r.Java}); got != tc.want {
			t.Errorf("%s: locked %+v, want %+v", tc.file, got, tc.want)
		}
		if major := len(MajorDeviations(r.Deviations)) > 0; major != tc.major {
			t.Errorf("%s: major deviation %v, want %v (%+v)", tc.file, major, tc.major, r.Deviations)
		}
		out[tc.file] = map[string]any{"prod": PreferOf(p), "spark": r.Spark, "scala": r.Scala, "java": r.Java, "python": r.Python,
			"rapids": r.Rapids, "deviations": r.Deviations}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	goldenfile.Check(t, filepath.Join("testdata", "mirrored-versions.golden.json"), append(b, '\n'))
}
