package mirror

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The corpus of issue 33: real public prod files devenv had not seen
// (testdata/corpus/SOURCES.md), each read by hand with its facts written
// down in testdata/corpus/facts.yaml before devenv ran on it. The test
// imports every file as `devenv mirror --print` does, localizes it as the
// plan does, and scores the import facts and the generated local config
// apart, for the training part and the held-out part apart.
//
// It fails only below the regression floors (just under the score on the
// day the corpus was collected), so readers being fixed elsewhere do not
// break CI; -corpus.target=97 (or DEVENV_CORPUS_TARGET=97) enforces the
// issue's target on every part. Held-out failures are listed only with
// -corpus.heldout.details: rule writers read the score, not the facts;
// -corpus.train.only skips the held-out files altogether while rules are
// written, and the log gives each batch's parts apart (batch 2: corpus2).

var (
	corpusTarget = flag.Float64("corpus.target", 0,
		"fail TestCorpusFacts when a part scores below this percentage (issue 33: 97); 0: only the regression floors apply")
	corpusHeldoutDetails = flag.Bool("corpus.heldout.details", false,
		"list the held-out files' failing facts too (for the final check, not for rule writing)")
	corpusTrainOnly = flag.Bool("corpus.train.only", false,
		"score the training part alone and skip the held-out files (rule writing: their scores stay unseen)")
)

// corpusFloors are the scores of main on 2026-12-02 (after the readers'
// precedence, Operator kinds, class rule and platform tables; 13678bd
// scored 58.3, 74.5, 94.9 and 97.3; the readers of EMR on EKS scripts,
// asset bundles, repeated YAML keys, node selectors, spark.yarn.* confs,
// Dataproc host names and barrier confs took the training part from 69.3
// and 80.9 to 100) rounded down to a tenth: one fact fewer right falls
// under its floor. The second batch (corpus2, batch: 2) took its training
// part from 81.0 and 71.0 to 100 (the Apache operator, Dataproc jobs,
// option variables, target clusters of sparkProperties alone, remote
// shuffle managers); its held-out part, checked once after that, scored
// 57/69 import (82.6%) and 18/19 config (94.7%), all held-out together
// 171/188 and 55/57. The two classes it missed were fixed after that
// check (an EMR on EKS StartJobRun request JSON; Databricks runtimes 5.5
// LTS and 6.4), which took the held-out part to 186/188 and 56/57: figures
// of files no longer unseen, so the next batch's held-out part is what
// measures the readers again. The third batch (corpus3, batch: 3) took
// its training part from 45/101 and 20/21 to 100 (gcloud dataproc and aws
// emr create-cluster commands in scripts, dbx deployment files, the
// application jar and EKS master of spark-submit, console and UI display
// confs); its held-out part, checked once after that, scored 75/91 import
// (82.4%) and 6/7 config (85.7%): a Dataproc workflow template
// (placement.managedCluster) and an EMR steps JSON were not read; the
// readers of both, written after that check on other real files, took it
// to 91/91 and 7/7 (no longer unseen). The fourth batch (corpus4, batch:
// 4) took its training part from 75/90 and 18/20 to 100 (aws emr
// add-steps --steps in scripts, a Dataproc CreateClusterRequest's
// cluster, spark.master yarn on EMR); its held-out part, checked once
// after that, scored 36/46 import (78.3%) and 10/13 config (76.9%): a
// SparkApplication whose hadoopConf holds {{ placeholders }} does not
// parse as YAML, and a YAML file that is no cluster (an editor's custom
// modes) is refused without saying what it holds. Both were fixed after
// that check, on other real files of the same repositories (template.go,
// yamlShape), which took it to 46/46 and 13/13: figures of files no
// longer unseen. The fifth batch (corpus5, batch: 5) took its training
// part from 201/228 and 71/74 to 226/228 and 73/74 (EMR 5.x and 4.x
// releases, a release label given to --ami-version, gcloud dataproc
// batches submit, shell variables the script does not set, JSON strings
// broken over lines, EMR shorthand steps continued on the next line,
// Spark 4's Scala); the three training facts left are an EMR cluster's
// workers (the fact counts the CORE group, devenv CORE and TASK), packages
// devenv bakes into the image rather than keeping spark.jars.packages, and
// GPUs whose count is a shell variable. Its held-out part, checked once
// after that, scored 104/120 import (86.7%) and 27/28 config (96.4%), all
// held-out together 427/445 (96.0%) and 103/105 (98.1%): a script that
// prints a heredoc to aws s3 cp before its create-cluster is refused, a
// repeated --properties flag keeps only its last value, an EMR spark-env
// export PYSPARK_PYTHON=python27 is not read as Python 2.7, and the
// official spark:4.0.0 image's Java 17 is not inferred. All four were
// fixed after that check, with tests on other real files (a CLUSTER_ID=$(aws
// emr create-cluster ...) script and a --properties-per-property gcloud
// script added to testdata/real, the Spark Operator's apache/spark:4.0.4
// example, a training EMR Configurations file), which took it to 119/120
// and 28/28: figures of files no longer unseen (the one fact left is the
// workers count, as in training). The sixth batch (corpus6, batch: 6)
// took its training part from 196/198 and 60/60 to 198/198 and 60/60
// (GCE n1-standard-1, -2, -64 and -96 in the instance catalog). Its
// held-out part, checked once after that, scored 94/110 import (85.5%)
// and 16/17 config (94.1%), all held-out together 536/555 (96.6%) and
// 120/122 (98.4%): an asset bundle of resources.clusters (no job) is
// refused, a Jobs API job on an existing cluster is refused, a
// Databricks-only spark.databricks.delta.formatCheck.enabled is kept as
// Delta, and one fact was written wrong (12 executors where the file
// says --num-executors 10: read from a search excerpt of another
// version of the file). The bundle and the Delta key were fixed after
// that check, the refusal made to name the existing cluster, each with a
// test on another real file of the same repository (a databricks/cli
// bundle of two clusters, two ucx jobs), and the fact corrected, which took
// it to 108/110 and 17/17: figures of files no longer unseen. The two facts
// left are a Jobs API job on an existing cluster, which devenv refuses (now
// naming the cluster and how to export it) where the facts expect an import
// of its platform. The seventh batch (corpus7, batch: 7) took its training
// part from 194/227 and 72/78 to 223/227 and 76/78 (AWS r4/m4, Azure Ev3
// and GCE n1-highmem rows; single-node clusters as a known 0 workers;
// Dataproc's default of 2 workers; gcloud's global flags; Spark from any
// RAPIDS shim class; Scala from sbt's target/scala-2.x; Databricks jobs on
// serverless GPU compute; prod's Hive metastore version dropped, dynamic
// allocation off and executor metrics kept). The facts left there: two
// Pythons the facts take from a comment or from python3 where devenv's
// runtime table is more precise (3.6 for Dataproc 1.4), Spark inferred
// from a Delta release (not a name of Spark's), GPUs of a pod template
// in another file, and two spark.jars.packages devenv bakes into the image
// by design. Its held-out part, checked once after that, scored 104/128
// import (81.2%) and 43/48 config (89.6%), all held-out together 654/683
// (95.8%) and 164/170 (96.5%): gcloud dataproc workflow-templates
// set-managed-cluster and add-job were not read, a workflow template whose
// jobs is one mapping was refused, Compute Engine custom machine types
// (custom-32-102400) were not read, the vendor-build confs
// spark.rapids.shims-provider-override and force.caller.classloader were
// kept, and an empty spark.sql.sources.useV1SourceList was dropped. All
// five were fixed after that check, each with a test on another real
// file (a josimar-data-eng workflow script and another cloud-dataproc
// template in testdata/real) or a classify case, which took it to 128/128
// and 48/48: figures of files no longer unseen. The eighth batch
// (corpus8, batch: 8), 30 files collected after batch 7's rules were
// written and all held out, scored 206/269 import (76.6%) and 74/99 config
// (74.7%) at its one check, its figures today (no rule written on it yet).
// What it missed: spark-shell lines with a $(cat ...) command
// substitution in a --conf (the word splitter cuts it, so the rest reads
// as the application's arguments); aws emr-containers start-job-run in one
// script and a DescribeJobRun response ({"jobRun": ...}); a Databricks job
// on serverless compute with no accelerator; a Jobs API template that is
// not JSON; Databricks is_single_node; GPUs on a single node's master;
// the cloud from s3a:// paths; a declared sparkVersion "3.2" made 3.2.0
// where the image names 3.2.1; a Kubernetes-only shuffle IO plugin class
// kept; a script of unset variables imported instead of refused; and 10
// facts written against the corpus's conventions (format dataproc for
// scripts, gpu_model as the GCE accelerator type). Those nine facts were
// rewritten to the conventions the header now states (207/262), then
// batch 8's classes were fixed, each tested on other real files (command
// substitutions kept whole, describe-job-run's {"jobRun": ...}, Databricks
// serverless jobs and is_single_node, the Kubernetes shuffle IO plugin,
// the cloud from s3://, gs:// and credential providers, a declared Spark
// line refined by its image, pod version labels, single-node master
// GPUs), which took it to 246/262 and 91/99: figures of files no longer
// unseen. Not fixed: a script of unset variables that the facts expect
// refused (the training convention imports it: sparkgcp, batch 5), the
// S3A path-style access and pinned pool size kept or scaled by design,
// an executorEnv kept, a Jobs API template that is not JSON, a Spark
// from an /etc/alti-spark-2.0.0 path. The ninth batch (corpus9, batch:
// 9), 35 files from 25 repositories collected while batch 8's rules were
// written and all held out, scored 290/346 import (83.8%) and 82/97
// config (84.5%) at its one check, after them. What it missed: Stackable's
// SparkApplication (sparkImage.productVersion, executor.replicas), Charmed
// Spark's spark-client.spark-submit, JSON with // comment lines, Databricks
// GPU ML runtimes on a node type that is a variable, a driver-only GPU,
// Python from a python3.6 path or a python38 image, Spark from a
// /opt/spark3_0_0 path or a charmed-spark-gpu:3.4 image, the cloud from a
// public.ecr.aws image or the SDK v2 web identity provider, EMR instance
// fleets, an Azure Dv6 row, EMR 5.31's Spark (the table's row is
// unverified), and Scala from Spark 2.3 and 3.0 (built for one Scala
// each), which was written after that check (292/346). Most of those
// classes were then fixed, each tested on other real files (Stackable's
// own examples, Charmed Spark's other integration script, JSON with
// comments, GPU runtimes on variable node types, Scala from Spark's
// line), which took it to 326/346 and 97/97: figures of files no longer
// unseen. The tenth batch (corpus10, batch: 10), 24 files from 19
// repositories collected after that and all held out, scored 111/163
// import (68.1%) and 43/60 config (71.7%) at its one check (a 25th file
// was dropped after it: testdata/read had it already). What it
// missed: versions from Slurm's module load lines, the apache-spark-on-k8s
// fork's image names, PYSPARK_PYTHON=python3 exported by the script, Spark
// from a Delta release, a spark-submit in a Slurm script that runs Docker
// workers (11 facts), a hand-written event log whose properties are pairs,
// a Dataproc YAML with a repeated key, EMR Configurations as YAML, a
// CloudFormation EMR cluster, a Dataproc batches script behind a heredoc,
// a YAML file of comments refused without saying so, and EMR Serverless
// named emr by the facts. Module loads, the Python a script exports,
// Spark's line from a Delta release (Delta's compatibility table; one of
// batch 7's training facts left too), CloudFormation's EMR clusters, EMR
// Configurations as YAML and a Dataproc describe's repeated keys were read
// after that check, tested on other files (140/163 and 51/60), then the
// fork's image keys and tags (through a script that runs spark-submit by
// eval), a file of comments named as such, and the Hadoop input format's
// confs kept as input semantics (142/163 and 52/60 since). The eleventh
// batch (corpus11, batch: 11), 24 files from 23 repositories collected
// after those fixes and all held out, scored 202/225 import (89.8%) and
// 83/92 config (90.2%) at its one check. What it missed: S3A keys the
// facts call cloud-only (fast.upload, path.style.access, fs.s3a.impl:
// devenv keeps S3A's semantics), OCI's connector packages in a Hive conf,
// instance rows of old EC2 generations and an Azure Ddsv5, RAPIDS by
// Maven coordinates, a datamechanics/spark:3.1-latest line tag, EasyBuild
// module names with -Java-1.8, a BigDL jar built for Spark 2.4.6, an EMR
// Serverless job driver in a heredoc inside $(...), a Dataproc script
// whose options lack their line continuations, and EMR Serverless named
// emr by the facts. OCI's classes, RAPIDS' coordinates, the line tag,
// the module's Java and the library jar's Spark were read after that
// check, each tested on other real names (206/225 and 85/92), then a
// heredoc read by a command substitution ($(cat <<EOF ... EOF)) as the
// text the shell substitutes, which also reads batch 10's Dataproc
// batches script (208/225 and 85/92; batch 10 151/163), then the Scala
// of Apache's pre-built Spark packages (209/225) and Azure's Ddsv5 and
// Dsv5 rows (211/225) and EC2's m3 and c4 rows (215/225); AWS SDK v2's
// web identity provider names AWS (batch 8's last SDK v2 miss), and
// Azure's v6 D sizes (batch 9's Standard_D4ps_v6); then JSON with a
// single-quoted string (batch 8's Jobs API template, 15 facts) and
// Iceberg's Glue catalog as AWS's class. All held-out files together:
// 1631/1679 import (97.1%) and 498/518 config (96.1%), every batch after
// its one check counted as it scores now.
// Raise them as the readers improve.
var corpusFloors = map[string]float64{
	"train import":   99.6, // 1220/1224 (batch 5: 227/228, batch 6: 198/198, batch 7: 224/227)
	"train config":   99.2, // 391/394 (batch 5: 73/74, batch 6: 60/60, batch 7: 76/78)
	"heldout import": 97.7, // 1642/1679 (batch 1: 117/119, batch 2: 69/69, batch 3: 91/91, batch 4: 46/46, batch 5: 119/120; 104/120 at its one check, batch 6: 108/110; 94/110 at its one check, batch 7: 128/128; 104/128 at its one check, batch 8: 257/262; 206/269 at its one check, batch 9: 330/346; 290/346 at its one check, batch 10: 154/163; 111/163 at its one check, batch 11: 223/225; 202/225 at its one check)
	"heldout config": 97.0, // 503/518 (batch 1: 38/38, batch 2: 19/19, batch 3: 7/7, batch 4: 13/13, batch 5: 28/28; 27/28 at its one check, batch 6: 17/17; 16/17 at its one check, batch 7: 48/48; 43/48 at its one check, batch 8: 97/99; 74/99 at its one check, batch 9: 97/97; 82/97 at its one check, batch 10: 54/60; 43/60 at its one check, batch 11: 85/92; 83/92 at its one check)
}

type corpusFile struct {
	File    string            `yaml:"file"`
	Heldout bool              `yaml:"heldout"`
	Batch   int               `yaml:"batch"` // 0 or 1: the first batch; 2: the second (corpus2); 3: the third (corpus3); 4: the fourth (corpus4); 5: the fifth (corpus5); 6: the sixth (corpus6); 7: the seventh (corpus7); 8: the eighth (corpus8, all held out); 9: the ninth (corpus9, all held out); 10: the tenth (corpus10, all held out); 11: the eleventh (corpus11, all held out)
	Trimmed string            `yaml:"trimmed"`
	Source  map[string]string `yaml:"source"`
	Refused []any             `yaml:"refused"`
	Import  map[string]any    `yaml:"import"`
	Local   struct {
		Keep map[string][]string `yaml:"keep"`
		Drop map[string]string   `yaml:"drop"`
	} `yaml:"local"`
}

type corpusFacts struct {
	Seed  int          `yaml:"split_seed"`
	Files []corpusFile `yaml:"files"`
}

// corpusScore counts one part's facts.
type corpusScore struct{ right, total int }

func (s corpusScore) pct() float64 {
	if s.total == 0 {
		return 100
	}
	return 100 * float64(s.right) / float64(s.total)
}

func (s corpusScore) String() string {
	return fmt.Sprintf("%d/%d (%.1f%%)", s.right, s.total, s.pct())
}

func loadCorpus(t *testing.T) corpusFacts {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "corpus", "facts.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c corpusFacts
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatalf("facts.yaml: %v", err)
	}
	return c
}

func TestCorpusFacts(t *testing.T) {
	target := *corpusTarget
	if v := os.Getenv("DEVENV_CORPUS_TARGET"); v != "" && target == 0 {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("DEVENV_CORPUS_TARGET=%q: %v", v, err)
		}
		target = f
	}
	c := loadCorpus(t)
	scores := map[string]*corpusScore{}
	batches := map[string]*corpusScore{} // "heldout import (batch 2)": one batch's part
	for _, k := range []string{"train import", "train config", "heldout import", "heldout config"} {
		scores[k] = &corpusScore{}
	}
	var filled []string
	for _, f := range c.Files {
		part := "train"
		if f.Heldout {
			part = "heldout"
		}
		if f.Heldout && *corpusTrainOnly {
			continue
		}
		imp, conf := &corpusScore{}, &corpusScore{}
		fails, extra := scoreCorpusFile(t.Context(), f, part, imp, conf)
		addBatch(scores, batches, part, f.Batch, imp, conf)
		filled = append(filled, extra...)
		if len(fails) == 0 || (f.Heldout && !*corpusHeldoutDetails) {
			continue
		}
		t.Logf("%s/%s: %d failing facts:\n  %s", part, f.File, len(fails), strings.Join(fails, "\n  "))
	}
	if len(filled) > 0 {
		t.Logf("facts the files do not state but devenv filled (not scored):\n  %s", strings.Join(filled, "\n  "))
	}
	for _, k := range sortedKeys(batches) {
		t.Logf("corpus %s: %s", k, batches[k])
	}
	for _, k := range []string{"train import", "train config", "heldout import", "heldout config"} {
		s := scores[k]
		if strings.HasPrefix(k, "heldout") && *corpusTrainOnly {
			continue
		}
		t.Logf("corpus %s: %s", k, s)
		if s.pct() < corpusFloors[k] {
			t.Errorf("corpus %s: %s is under the regression floor %.1f%%", k, s, corpusFloors[k])
		}
		if target > 0 && s.pct() < target {
			t.Errorf("corpus %s: %s is under the target %.1f%%", k, s, target)
		}
	}
}

// addBatch adds one file's scores to its part and to its batch's part, so
// the log shows each batch's held-out figures apart as well as together.
func addBatch(scores, batches map[string]*corpusScore, part string, batch int, imp, conf *corpusScore) {
	if batch == 0 {
		batch = 1
	}
	for kind, s := range map[string]*corpusScore{"import": imp, "config": conf} {
		for _, k := range []string{part + " " + kind, fmt.Sprintf("%s %s (batch %d)", part, kind, batch)} {
			m := scores
			if strings.Contains(k, "(batch") {
				m = batches
			}
			if m[k] == nil {
				m[k] = &corpusScore{}
			}
			m[k].right += s.right
			m[k].total += s.total
		}
	}
}

// scoreCorpusFile imports one file and compares its facts; it returns the
// failures and the unknown facts devenv filled anyway.
func scoreCorpusFile(ctx context.Context, f corpusFile, part string, imp, conf *corpusScore) (fails, filled []string) {
	path := filepath.Join("testdata", "corpus", part, f.File)
	p, err := ImportContext(ctx, path, Options{Full: true}) // as mirror --print
	if len(f.Refused) > 0 {
		imp.total++
		switch {
		case err == nil:
			fails = append(fails, fmt.Sprintf("refused: imported as %s, want a refusal (%v)", p.Source.Format, f.Refused[1:]))
		case strings.Contains(err.Error(), "matches no supported format"):
			fails = append(fails, fmt.Sprintf("refused: the refusal does not say what it found: %v", err))
		default:
			imp.right++
		}
		return fails, nil
	}
	if err != nil {
		n := 0
		for _, v := range f.Import {
			if _, ok := v.([]any); ok {
				n++
			}
		}
		imp.total += n
		conf.total += len(f.Local.Keep) + len(f.Local.Drop)
		return []string{fmt.Sprintf("not imported (%d import and %d config facts lost): %v", n, len(f.Local.Keep)+len(f.Local.Drop), err)}, nil
	}
	for _, name := range sortedKeys(f.Import) {
		got, prov := corpusFact(p, name)
		want, ok := f.Import[name].([]any)
		if !ok {
			if got != "" && got != "false" && got != "0" {
				filled = append(filled, fmt.Sprintf("%s/%s: %s = %s (%s)", part, f.File, name, got, prov))
			}
			continue
		}
		imp.total++
		if factMatches(fmt.Sprint(want[0]), got) {
			imp.right++
			continue
		}
		fails = append(fails, fmt.Sprintf("%s: got %q (%s), want %q (%v)", name, got, prov, want[0], want[1]))
	}
	l := localFor(p)
	for _, k := range sortedKeys(f.Local.Keep) {
		conf.total++
		want := f.Local.Keep[k][0]
		if got, ok := l.Conf[k]; ok && strings.TrimSpace(got) == want {
			conf.right++
			continue
		}
		why := l.Sources[k]
		if r, ok := l.Dropped[k]; ok {
			why = "dropped: " + r
		}
		fails = append(fails, fmt.Sprintf("local %s: got %q (%s), want %q kept", k, l.Conf[k], why, want))
	}
	for _, k := range sortedKeys(f.Local.Drop) {
		conf.total++
		got, ok := l.Conf[k]
		if !ok || (p.Conf[k] != "" && got != p.Conf[k]) {
			conf.right++
			continue
		}
		fails = append(fails, fmt.Sprintf("local %s: prod's %q reaches the local conf (%s), want it dropped: %s", k, got, l.Sources[k], f.Local.Drop[k]))
	}
	return fails, filled
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// factMatches compares a written-down fact with devenv's: "3.5.x" matches
// any 3.5 release, numbers compare as numbers, words without case.
func factMatches(want, got string) bool {
	if prefix, ok := strings.CutSuffix(want, ".x"); ok {
		return got == prefix || strings.HasPrefix(got, prefix+".")
	}
	if w, err := strconv.ParseFloat(want, 64); err == nil {
		g, err := strconv.ParseFloat(got, 64)
		return err == nil && g == w
	}
	return strings.EqualFold(want, got)
}

// corpusFact is the profile's value of a fact name of facts.yaml ("" when
// devenv does not know it) and where devenv says it came from.
func corpusFact(p *Profile, name string) (string, string) {
	num := func(v int64) string {
		if v == 0 {
			return ""
		}
		return strconv.FormatInt(v, 10)
	}
	flt := func(v float64) string {
		if v == 0 {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	r, g, tp := p.Runtime, p.GPU, p.Topology
	switch name {
	case "format":
		f, _, _ := strings.Cut(p.Source.Format, "+") // eventlog+zstd: the codec is not the format
		return f, ""
	case "platform":
		return p.Source.Platform, ""
	case "cloud":
		return p.Source.Cloud, ""
	case "label":
		return r.Label, r.LabelProvenance
	case "spark":
		return r.Spark, r.SparkProvenance
	case "scala":
		return r.Scala, r.ScalaProvenance
	case "java":
		return r.Java, r.JavaProvenance
	case "python":
		return r.Python, r.PythonProvenance
	case "engine":
		return r.Engine, ""
	case "rapids":
		return g.Rapids, g.RapidsProvenance
	case "rapids_enabled":
		return strconv.FormatBool(g.RapidsEnabled), ""
	case "gpu":
		return strconv.FormatBool(p.RunsOnGPUs()), g.ExecutorGPUsProvenance
	case "executor_gpus":
		return flt(g.ExecutorGPUs), g.ExecutorGPUsProvenance
	case "task_gpu":
		return flt(g.TaskGPU), g.TaskGPUProvenance
	case "gpu_per_node":
		return num(int64(g.PerNode)), g.PerNodeProvenance
	case "gpu_model":
		return g.Model, g.ModelProvenance
	case "executors":
		return num(int64(tp.Executors)), tp.ExecutorsProvenance
	case "executor_cores":
		return num(int64(tp.ExecutorCores)), tp.ExecutorCoresProvenance
	case "executor_memory_mb":
		return num(tp.ExecutorMemoryMB), tp.ExecutorMemoryMBProvenance
	case "workers":
		if tp.SingleNode {
			return "0", tp.WorkersProvenance
		}
		return num(int64(tp.Workers)), tp.WorkersProvenance
	case "workers_max":
		return num(int64(tp.WorkersMax)), tp.WorkersProvenance
	case "worker_type":
		return tp.WorkerType, ""
	case "worker_vcpus":
		return num(int64(tp.WorkerVCPUs)), tp.WorkerHardwareProvenance
	case "worker_memory_mb":
		return num(tp.WorkerMemoryMB), tp.WorkerHardwareProvenance
	}
	return "", "fact name unknown to corpus_test.go"
}

// TestCorpusFactsFile keeps facts.yaml honest: every file has an entry,
// every entry a file in its part, every fact a name the scorer reads and
// a source in the file, every source a repository, commit and path.
func TestCorpusFactsFile(t *testing.T) {
	c := loadCorpus(t)
	if c.Seed == 0 {
		t.Error("facts.yaml records no split_seed")
	}
	listed := map[string]bool{}
	held := 0
	for _, f := range c.Files {
		part := "train"
		if f.Heldout {
			part, held = "heldout", held+1
		}
		listed[part+"/"+f.File] = true
		if _, err := os.Stat(filepath.Join("testdata", "corpus", part, f.File)); err != nil {
			t.Errorf("%s: %v", f.File, err)
		}
		for _, k := range []string{"repo", "commit", "path", "license"} {
			if f.Source[k] == "" {
				t.Errorf("%s: source has no %s", f.File, k)
			}
		}
		for name, v := range f.Import {
			if _, prov := corpusFact(&Profile{}, name); strings.Contains(prov, "unknown to") {
				t.Errorf("%s: fact %q is not a name the scorer reads", f.File, name)
			}
			switch v := v.(type) {
			case string:
				if v != "unknown" {
					t.Errorf("%s: %s = %q: write [value, where] or unknown", f.File, name, v)
				}
			case []any:
				if len(v) != 2 || fmt.Sprint(v[1]) == "" {
					t.Errorf("%s: %s = %v: write [value, where]", f.File, name, v)
				}
			default:
				t.Errorf("%s: %s = %v: write [value, where] or unknown", f.File, name, v)
			}
		}
		for k, v := range f.Local.Keep {
			if len(v) != 2 {
				t.Errorf("%s: local keep %s = %v: write [value, where]", f.File, k, v)
			}
		}
	}
	for _, part := range []string{"train", "heldout"} {
		entries, err := os.ReadDir(filepath.Join("testdata", "corpus", part))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !listed[part+"/"+e.Name()] {
				t.Errorf("%s/%s has no entry in facts.yaml", part, e.Name())
			}
		}
	}
	// batches 8 to 10 are held out whole, so the held-out part is now the
	// larger one; each part stays at least a quarter of the corpus
	if n := len(c.Files); n < 40 || held*4 < n || (n-held)*4 < n {
		t.Errorf("%d files, %d held out: want at least 40, and each part at least a quarter", n, held)
	}
}
