package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/sparkconf"
	"github.com/devenv-dev/devenv/test/standin"
)

// The job tests run jobs in a plain Debian stand-in container. A job file
// is run with spark-submit, so the project carries a stand-in spark-submit
// in bin/ and puts it first on the service's PATH: it appends "<job id>
// start|end" to /workspace/order.log, sleeps $3 seconds and exits with $2.
// Non-Spark jobs use devenv submit --cmd.
const jobsYAML = `services:
  box:
    profile: image
    image: nvcr.io/` + plainBase + `
    command: ["sleep", "infinity"]
    env: {PATH: "/workspace/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
`

const standinSubmit = `#!/bin/sh
echo "$DEVENV_JOB_ID start" >>/workspace/order.log
echo "spark-submit $*"
sleep "$3"
echo "$DEVENV_JOB_ID end" >>/workspace/order.log
exit "$2"
`

type jobRow struct {
	ID       string   `json:"id"`
	Service  string   `json:"service"`
	Command  []string `json:"command"`
	State    string   `json:"state"`
	ExitCode *int     `json:"exit_code"`
	Reason   string   `json:"reason"`
	Log      string   `json:"log"`
}

func (w *world) jobs(t *testing.T, dir string) map[string]jobRow {
	t.Helper()
	out := map[string]jobRow{}
	for _, j := range decode[[]jobRow](t, w.must(t, dir, "jobs", "--json").Stdout) {
		out[j.ID] = j
	}
	return out
}

func (w *world) waitJob(t *testing.T, dir, id string, states ...string) jobRow {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		j := w.jobs(t, dir)[id]
		for _, s := range states {
			if j.State == s {
				return j
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s is %s (%s), want one of %v", id, j.State, j.Reason, states)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// waitFileHolds waits, for at most 90 s, until the file at path holds want.
func waitFileHolds(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %q after 90 s, want %q in it", path, b, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func submitID(t *testing.T, w *world, dir string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(w.must(t, dir, append([]string{"submit", "--service", "box"}, args...)...).Stdout)
}

// TestJobsQueueSurvivesRunnerDeath queues jobs, kills the runner with
// SIGKILL in the middle of the first, and checks that the next runner marks
// that job failed and runs the rest in order with their exit codes.
func TestJobsQueueSurvivesRunnerDeath(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, jobsYAML, map[string]string{"bin/spark-submit": standinSubmit, "jobs/a.py": "# a\n", "jobs/b.py": "# b\n"})
	if err := os.Chmod(filepath.Join(dir, "bin", "spark-submit"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.must(t, dir, "lock")
	w.must(t, dir, "up", "--wait", "box")

	ids := []string{
		submitID(t, w, dir, "--no-runner", "jobs/a.py", "0", "60"),
		submitID(t, w, dir, "--no-runner", "--cmd", "echo 2 start >>/workspace/order.log; echo two; exit 3"),
		submitID(t, w, dir, "--no-runner", filepath.Join(dir, "jobs", "b.py"), "0", "0"),
	}
	if strings.Join(ids, ",") != "1,2,3" {
		t.Fatalf("job IDs %v, want 1,2,3", ids)
	}
	if r := w.must(t, dir, "jobs"); !strings.Contains(r.Stderr, "no runner") || !strings.Contains(r.Stdout, "spark-submit /workspace/jobs/a.py 0 60") {
		t.Errorf("jobs with nothing running:\nstdout %s\nstderr %s", r.Stdout, r.Stderr)
	}

	runner := exec.Command(standin.Devenv(t), "jobs", "run")
	runner.Dir, runner.Env = dir, append(os.Environ(), w.env...)
	if err := runner.Start(); err != nil {
		t.Fatal(err)
	}
	w.waitJob(t, dir, "1", "running")
	// "running" is recorded when the exec starts; kill the runner once the
	// job itself has begun (it writes "1 start"), not before.
	waitFileHolds(t, filepath.Join(dir, "order.log"), "1 start\n")
	if err := runner.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = runner.Wait()
	if j := w.jobs(t, dir)["1"]; j.State != "running" {
		t.Fatalf("job 1 after its runner died: %s", j.State)
	}
	if r := w.must(t, dir, "jobs"); !strings.Contains(r.Stderr, "runner is gone") {
		t.Errorf("jobs does not say the runner is gone:\n%s", r.Stderr)
	}

	w.must(t, dir, "jobs", "run")
	got := w.jobs(t, dir)
	if j := got["1"]; j.State != "failed" || !strings.Contains(j.Reason, "ended while the job ran") {
		t.Errorf("job 1: %s %q", j.State, j.Reason)
	}
	if j := got["2"]; j.State != "failed" || j.ExitCode == nil || *j.ExitCode != 3 {
		t.Errorf("job 2: %+v", j)
	}
	if j := got["3"]; j.State != "done" || j.ExitCode == nil || *j.ExitCode != 0 {
		t.Errorf("job 3: %+v", j)
	}
	if order := readFile(t, filepath.Join(dir, "order.log")); order != "1 start\n2 start\n3 start\n3 end\n" {
		t.Errorf("order.log:\n%s", order)
	}
	if r := w.must(t, dir, "jobs", "logs", "3"); r.Stdout != "spark-submit /workspace/jobs/b.py 0 0\n" {
		t.Errorf("logs of job 3: %q", r.Stdout)
	}
	if r := w.run(t, dir, "jobs", "logs", "-F", "2"); r.Code != 3 || r.Stdout != "two\n" {
		t.Errorf("logs -F of job 2: exit %d, %q", r.Code, r.Stdout)
	}
	checkSubmitRunsInBackground(t, w, dir)
}

// checkSubmitRunsInBackground: submit starts a detached runner; cancel
// stops a queued job and a running one.
func checkSubmitRunsInBackground(t *testing.T, w *world, dir string) {
	id := submitID(t, w, dir, "jobs/a.py", "0", "0")
	if j := w.waitJob(t, dir, id, "done", "failed"); j.State != "done" {
		t.Fatalf("job %s from submit's own runner: %+v\nrunner.log:\n%s", id, j, readFile(t, filepath.Join(dir, ".devenv", "jobs", "runner.log")))
	}
	long := submitID(t, w, dir, "--cmd", "sleep 60")
	w.waitJob(t, dir, long, "running")
	queued := submitID(t, w, dir, "--cmd", "echo never")
	w.must(t, dir, "jobs", "cancel", queued)
	w.must(t, dir, "jobs", "cancel", long)
	if j := w.waitJob(t, dir, long, "cancelled", "failed", "done"); j.State != "cancelled" {
		t.Errorf("cancelled running job: %+v", j)
	}
	if j := w.jobs(t, dir)[queued]; j.State != "cancelled" {
		t.Errorf("cancelled queued job: %+v", j)
	}
	if r := w.run(t, dir, "jobs", "cancel", long); r.Code != 1 || !strings.Contains(r.Stderr, "already ended") {
		t.Errorf("cancelling twice: exit %d %s", r.Code, r.Stderr)
	}
	outside := filepath.Join(t.TempDir(), "x.py")
	writeFile(t, filepath.Dir(outside), "x.py", "# x\n")
	if r := w.run(t, dir, "submit", "--service", "box", outside); r.Code != 2 || !strings.Contains(r.Stderr, "outside the project") {
		t.Errorf("submit outside the project: exit %d %s", r.Code, r.Stderr)
	}
	if r := w.run(t, dir, "run", "box", "--", "sh", "-c", "echo in-box; exit 7"); r.Code != 7 || r.Stdout != "in-box\n" {
		t.Errorf("run: exit %d %q %s", r.Code, r.Stdout, r.Stderr)
	}
	if r := w.run(t, dir, "run", "--", "spark-submit", "x"); r.Code != 2 || !strings.Contains(r.Stderr, "no spark-rapids service") {
		t.Errorf("run without a spark service: exit %d %s", r.Code, r.Stderr)
	}
}

// verifyYAML is test/up_test.go's spark service with a recorded verify
// output that the stand-in spark-submit prints.
const verifyYAML = `services:
  spark:
    profile: spark-rapids
    spark: "` + sparkVersion + `"
    rapids: "` + rapidsVersion + `"
    java: "17"
    jupyter: false
    gpus: 1
    gpu: optional
    ports: ["SPARK_UI:4040"]
    env: {DEVENV_STANDIN_PLAN: /workspace/verify-output.txt}
    conf: {spark.sql.shuffle.partitions: "64"}
`

// recordedVerify is what verify.py would print, with real plans from
// internal/sparkconf/testdata/plans (see SOURCES.md there).
func recordedVerify(t *testing.T, gpuPlans ...string) string {
	t.Helper()
	read := func(names ...string) string {
		var b strings.Builder
		for _, n := range names {
			b.WriteString(readFile(t, filepath.Join("..", "internal", "sparkconf", "testdata", "plans", n)))
		}
		return b.String()
	}
	runs := []sparkconf.VerifyRun{
		{RapidsEnabled: true, Rows: 1000, Groups: 10, WallSeconds: 2, Plan: read(gpuPlans...)},
		{RapidsEnabled: false, Rows: 1000, Groups: 10, WallSeconds: 8, Plan: read("tpch-q4-cpu.txt")},
	}
	out := "Setting default log level to \"WARN\".\n" + sparkconf.VerifyBegin + "\n"
	for _, r := range runs {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out += string(b) + "\n"
	}
	return out + sparkconf.VerifyEnd + "\n"
}

// TestVerifyAndExplain runs devenv verify against a spark-rapids service
// built on the stand-ins, whose spark-submit prints a recorded result.
func TestVerifyAndExplain(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir, _ := w.project(t, strings.Replace(verifyYAML, "SPARK_UI", fmt.Sprint(freePort(t)), 1), map[string]string{
		"verify-output.txt": recordedVerify(t, "tpch-q4-gpu-mixed.txt", "notongpu-generate.txt")})
	w.must(t, dir, "lock")
	checkExplain(t, w, dir)
	w.must(t, dir, "up", "--wait", "spark")
	checkOneComputation(t, w, dir)

	r := w.must(t, dir, "verify", "--rows", "1000", "--json")
	rep := decode[struct {
		Service string  `json:"service"`
		OnGPU   bool    `json:"on_gpu"`
		Speedup float64 `json:"speedup"`
		GPU     struct {
			Report sparkconf.PlanReport `json:"report"`
		} `json:"gpu"`
	}](t, r.Stdout)
	if !rep.OnGPU || rep.Speedup != 4 || rep.Service != "spark" || len(rep.GPU.Report.Fallbacks) == 0 {
		t.Errorf("verify --json: %+v", rep)
	}
	if got := readFile(t, filepath.Join(dir, ".devenv", "verify.py")); got != string(sparkconf.VerifyScript()) {
		t.Error(".devenv/verify.py is not the verify program")
	}
	r = w.must(t, dir, "verify")
	for _, want := range []string{"on the GPU: GpuColumnarToRow", "kept on the CPU by the plugin", "speedup: 4.00x"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("verify output lacks %q:\n%s", want, r.Stdout)
		}
	}

	writeFile(t, dir, "verify-output.txt", recordedVerify(t, "tpch-q4-cpu.txt"))
	r = w.run(t, dir, "verify")
	if r.Code != 1 || !strings.Contains(r.Stderr, "no operator ran on the GPU") || !strings.Contains(r.Stderr, "CPU mode") {
		t.Errorf("verify with nothing on the GPU: exit %d\n%s", r.Code, r.Stderr)
	}
	writeFile(t, dir, "verify-output.txt", "Traceback: boom\n")
	if r = w.run(t, dir, "verify"); r.Code != 1 || !strings.Contains(r.Stderr, "DEVENV-VERIFY-BEGIN") {
		t.Errorf("verify without results: exit %d\n%s", r.Code, r.Stderr)
	}
	if r = w.run(t, dir, "run", "--", "spark-submit", "/workspace/job.py", "7"); r.Code != 0 || !strings.Contains(r.Stdout, "arg: /workspace/job.py\narg: 7") {
		t.Errorf("run in the default spark service: exit %d %q %s", r.Code, r.Stdout, r.Stderr)
	}
}

// checkExplain: devenv config spark --explain needs no engine and names
// each key's source.
func checkExplain(t *testing.T, w *world, dir string) {
	type entry struct{ Key, Value, Source, Rule string }
	rep := decode[struct {
		Service string
		Conf    []entry
	}](t, w.must(t, dir, "config", "spark", "--explain", "--json").Stdout)
	by := map[string]entry{}
	for _, e := range rep.Conf {
		by[e.Key] = e
	}
	if e := by["spark.sql.shuffle.partitions"]; e.Value != "64" || e.Source != "user" {
		t.Errorf("shuffle partitions: %+v", e)
	}
	if e := by["spark.rapids.sql.enabled"]; e.Source == "" || e.Rule == "" {
		t.Errorf("spark.rapids.sql.enabled: %+v", e)
	}
	r := w.must(t, dir, "config", "spark", "--explain")
	if !strings.Contains(r.Stdout, "KEY") || !hasLine(r.Stdout, "spark.sql.shuffle.partitions", "64", "user") {
		t.Errorf("config spark --explain:\n%s", r.Stdout)
	}
}

// checkOneComputation: the spark-defaults.conf the running service reads,
// config --json and config spark --json show the same confs, and agree on
// whether the service runs on the CPU (issue 10 item 6).
func checkOneComputation(t *testing.T, w *world, dir string) {
	type entry struct {
		Key, Value string
		Unset      bool
	}
	lines := func(conf []entry) string {
		var b strings.Builder
		for _, e := range conf {
			if !e.Unset {
				b.WriteString(e.Key + " " + e.Value + "\n")
			}
		}
		return b.String()
	}
	explain := decode[struct {
		CPUFallback bool `json:"cpu_fallback"`
		Conf        []entry
	}](t, w.must(t, dir, "config", "spark", "--json").Stdout)
	cfg := decode[struct {
		Services []struct {
			Name        string
			CPUFallback bool `json:"cpu_fallback"`
			Spark       struct{ Conf []entry }
		}
	}](t, w.must(t, dir, "config", "--json").Stdout)
	var written strings.Builder
	for _, l := range strings.Split(readFile(t, filepath.Join(dir, ".devenv", "generated", "spark", "spark-defaults.conf")), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			written.WriteString(l + "\n")
		}
	}
	if got := lines(explain.Conf); got != written.String() {
		t.Errorf("config spark --json differs from the spark-defaults.conf the service runs with:\n%s\nvs\n%s", got, written.String())
	}
	for _, s := range cfg.Services {
		if s.Name != "spark" {
			continue
		}
		if got := lines(s.Spark.Conf); got != written.String() || s.CPUFallback != explain.CPUFallback {
			t.Errorf("config --json (cpu fallback %v) differs from spark-defaults.conf / config spark (cpu fallback %v):\n%s\nvs\n%s",
				s.CPUFallback, explain.CPUFallback, got, written.String())
		}
	}
}

// hasLine reports whether some line starts with first and holds every field of rest.
func hasLine(text, first string, rest ...string) bool {
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != first {
			continue
		}
		all := true
		for _, r := range rest {
			all = all && strings.Contains(strings.Join(f[1:], " "), r)
		}
		if all {
			return true
		}
	}
	return false
}
