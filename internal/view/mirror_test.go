package view

import (
	"bytes"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/mirror"
)

// TestMirrorSaysWhatProdStated: mirror --print shows no blank version
// field, and mirror says "prod's exactly" only of versions prod stated.
func TestMirrorSaysWhatProdStated(t *testing.T) {
	cases := []struct {
		name         string
		runtime      mirror.Runtime
		rapids       string
		wantRuntime  string
		wantVersions string
	}{
		{"nothing stated", mirror.Runtime{}, "",
			"runtime:  no versions stated (spark, scala, java, python)",
			"versions: prod stated none; devenv lock chose the newest compatible set"},
		{"spark alone", mirror.Runtime{Spark: "3.5.1"}, "",
			"runtime:  spark 3.5.1 (not stated: scala, java, python)",
			"versions: prod's exactly where stated (spark 3.5.1); devenv lock chose scala, java, python, rapids, which prod did not state"},
		{"everything", mirror.Runtime{Spark: "3.5.1", Scala: "2.12", ScalaFull: "2.12.18", Java: "17", Python: "3.11"}, "25.06.0",
			"runtime:  spark 3.5.1, scala 2.12.18, java 17, python 3.11",
			"versions: prod's exactly"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &mirror.Profile{Runtime: tc.runtime}
			p.GPU.Rapids = tc.rapids
			var b bytes.Buffer
			Mirror(&b, &app.MirrorResult{Service: "spark", Source: "prod/job.sh", Profile: p, Locked: &lock.Service{Versions: lock.Versions{Spark: "3.5.1", ScalaFull: "2.12.18", Java: "17", Rapids: "25.06.0"}}})
			out := b.String()
			for _, want := range []string{tc.wantRuntime + "\n", tc.wantVersions + "\n"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			for _, blank := range []string{"spark ,", "scala ,", "java ,", "python \n", "spark  "} {
				if strings.Contains(out, blank) {
					t.Errorf("output has a blank version field (%q):\n%s", blank, out)
				}
			}
		})
	}
}

// TestDiffRowShowsOneLocalNumber: the PROD column shows the scaled value
// only where nothing runs locally; else it would sit beside LOCAL's.
func TestDiffRowShowsOneLocalNumber(t *testing.T) {
	var b bytes.Buffer
	Diff(&b, &app.DiffResult{Service: "spark", Source: "prod/spark-defaults.conf", Items: []mirror.Drift{
		{Kind: "conf", Key: "spark.driver.memory", Change: "different", Prod: "32g", Scaled: "1g", Local: "4g", Severity: mirror.SevPerformance,
			Why: "scaled from prod's 32g to 1g: at most 1/8 of host memory; devenv's hardware setting for this machine sets 4g"},
		{Kind: "conf", Key: "spark.executor.memory", Change: "missing", Prod: "64g", Scaled: "3258m", Severity: mirror.SevPerformance, Why: "scaled"},
	}})
	for _, l := range strings.Split(b.String(), "\n") {
		switch {
		case strings.Contains(l, "spark.driver.memory") && strings.Contains(l, "(scaled here"):
			t.Errorf("row shows the scaled and the local value side by side: %q", l)
		case strings.Contains(l, "spark.executor.memory") && !strings.Contains(l, "64g (scaled here: 3258m)"):
			t.Errorf("a row with nothing local lost its scaled value: %q", l)
		}
	}
}

// TestMirrorSourceLine: the source line names the platform only when the
// file stated one, with no empty field.
func TestMirrorSourceLine(t *testing.T) {
	for _, tc := range []struct{ platform, want string }{
		{"", "source:   prod/job.sh (spark-submit)\n"},
		{"yarn", "source:   prod/job.sh (spark-submit, yarn)\n"},
	} {
		p := &mirror.Profile{Source: mirror.Source{Path: "prod/job.sh", Format: "spark-submit", Platform: tc.platform}}
		var b bytes.Buffer
		Mirror(&b, &app.MirrorResult{Service: "spark", Source: "prod/job.sh", Profile: p, Locked: &lock.Service{}})
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("platform %q: output %q lacks %q", tc.platform, b.String(), tc.want)
		}
	}
}
