// Package gpusuite holds what devenv's GPU end-to-end suite (make e2e-gpu)
// records: the transcript of one run on a machine with NVIDIA GPUs, written
// by the runner in cmd/gpu-e2e and read back by the unit tests that keep the
// committed transcripts under testdata/real honest.
package gpusuite

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Check results.
const (
	Pass = "PASS"
	Fail = "FAIL"
	Skip = "SKIP"
)

// Transcript is one run of the suite.
type Transcript struct {
	Date    time.Time
	Machine string // what the run was told it ran on, e.g. "nvidia-h200-x2"
	Driver  string // NVIDIA driver version
	CUDA    string // the driver's CUDA version
	Engine  string // which engine and GPU runtime the run used
	Devenv  string // devenv's version line
	GPUs    []GPU
	Checks  []Check
	// Passed, Failed and Skipped are the summary line's counts.
	Passed, Failed, Skipped int
}

// GPU is one of the machine's GPUs as NVML listed it.
type GPU struct {
	Index     int
	UUID      string
	Name      string
	MemoryMiB uint64
}

// Check is one check's outcome and the evidence it was judged on.
type Check struct {
	Name     string
	Result   string // Pass, Fail or Skip
	Seconds  float64
	Evidence []string
}

// Checks names the suite's checks in the order cmd/gpu-e2e runs them; every
// transcript records each of them once.
var Checks = []string{
	"doctor-engine-gpu",          // doctor passes the engine-GPU check
	"gpu-required-starts",        // gpu: required starts and CUDA sees its GPU
	"placement-spread",           // two gpus: 1 services land on different GPUs
	"wrong-uuid-refused",         // an unknown GPU UUID: exit 4 with the engine's words
	"placement-index-all-none",   // gpus: [i] gets GPU i, all every GPU, 0 none
	"ps-shows-gpus",              // devenv ps shows each service's GPUs
	"discovery-script",           // the Spark discovery script's addresses match the request
	"memory-split-holds",         // two services on one GPU each hold their share at once
	"top-maps-processes",         // devenv top maps CUDA processes to services and containers
	"memory-default-pools-oom",   // with default pools instead, CUDA runs out of memory
	"logs-diagnose-oom",          // logs --diagnose names that failure
	"down-leaves-no-gpu-process", // down leaves no GPU process behind
	"defaults-fit-driver",        // unpinned versions resolve to what the driver runs
	"engine-gpu-facts",           // without NVML: GPUs, doctor, placement, split, top from the engine
}

// Added are the checks added after the first transcripts, with the date
// they were added: a transcript written before that date does not have
// them.
var Added = map[string]string{
	"engine-gpu-facts": "2026-12-01",
}

// ChecksOn are the suite's checks as they were on day (YYYY-MM-DD).
func ChecksOn(day string) []string {
	var out []string
	for _, c := range Checks {
		if since, ok := Added[c]; ok && day < since {
			continue
		}
		out = append(out, c)
	}
	return out
}

const header = "devenv GPU end-to-end transcript"

// Write renders t in the line format Parse reads.
func (t *Transcript) Write(w io.Writer) error {
	b := &strings.Builder{}
	fmt.Fprintln(b, header)
	fmt.Fprintf(b, "date: %s\n", t.Date.UTC().Format(time.RFC3339))
	for _, kv := range [][2]string{{"machine", t.Machine}, {"driver", t.Driver}, {"cuda", t.CUDA}, {"engine", t.Engine}, {"devenv", t.Devenv}} {
		fmt.Fprintf(b, "%s: %s\n", kv[0], oneLine(kv[1]))
	}
	for _, g := range t.GPUs {
		fmt.Fprintf(b, "gpu: %d %s %d MiB %s\n", g.Index, g.UUID, g.MemoryMiB, g.Name)
	}
	for _, c := range t.Checks {
		fmt.Fprintf(b, "check: %s %s %.1fs\n", c.Result, c.Name, c.Seconds)
		for _, e := range c.Evidence {
			for _, l := range strings.Split(strings.TrimRight(e, "\n"), "\n") {
				fmt.Fprintf(b, "  | %s\n", l)
			}
		}
	}
	fmt.Fprintf(b, "summary: %s\n", t.Summary())
	_, err := io.WriteString(w, b.String())
	return err
}

// Summary is "N passed, N failed" (and ", N skipped" when any were).
func (t *Transcript) Summary() string {
	s := fmt.Sprintf("%d passed, %d failed", t.Passed, t.Failed)
	if t.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", t.Skipped)
	}
	return s
}

// Add records a check and counts it.
func (t *Transcript) Add(c Check) {
	t.Checks = append(t.Checks, c)
	switch c.Result {
	case Pass:
		t.Passed++
	case Fail:
		t.Failed++
	default:
		t.Skipped++
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Parse reads a transcript and checks that it is whole: a header, a date,
// a driver, at least one GPU, checks with evidence, and a summary whose
// counts match the checks.
func Parse(r io.Reader) (*Transcript, error) {
	p := &parser{t: &Transcript{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		p.line++
		if err := p.parseLine(sc.Text()); err != nil {
			return nil, fmt.Errorf("line %d: %w", p.line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return p.t, p.finish()
}

type parser struct {
	t       *Transcript
	line    int
	summary bool
}

func (p *parser) parseLine(l string) error {
	if p.line == 1 {
		if l != header {
			return fmt.Errorf("want %q as the first line, got %q", header, l)
		}
		return nil
	}
	if p.summary {
		return fmt.Errorf("%q after the summary line", l)
	}
	if rest, ok := strings.CutPrefix(l, "  | "); ok {
		if len(p.t.Checks) == 0 {
			return fmt.Errorf("evidence before any check")
		}
		c := &p.t.Checks[len(p.t.Checks)-1]
		c.Evidence = append(c.Evidence, rest)
		return nil
	}
	key, val, ok := strings.Cut(l, ": ")
	if !ok {
		return fmt.Errorf("want KEY: VALUE or evidence, got %q", l)
	}
	return p.field(key, val)
}

func (p *parser) field(key, val string) error {
	t := p.t
	var err error
	switch key {
	case "date":
		t.Date, err = time.Parse(time.RFC3339, val)
	case "machine":
		t.Machine = val
	case "driver":
		t.Driver = val
	case "cuda":
		t.CUDA = val
	case "engine":
		t.Engine = val
	case "devenv":
		t.Devenv = val
	case "gpu":
		err = p.gpu(val)
	case "check":
		err = p.check(val)
	case "summary":
		p.summary = true
		_, err = fmt.Sscanf(val, "%d passed, %d failed", &t.Passed, &t.Failed)
		if s, ok := strings.CutPrefix(val, fmt.Sprintf("%d passed, %d failed, ", t.Passed, t.Failed)); ok && err == nil {
			_, err = fmt.Sscanf(s, "%d skipped", &t.Skipped)
		}
	default:
		err = fmt.Errorf("unknown key %q", key)
	}
	return err
}

// gpu reads "INDEX UUID MEM MiB NAME".
func (p *parser) gpu(val string) error {
	f := strings.SplitN(val, " ", 5)
	if len(f) != 5 || f[3] != "MiB" || !strings.HasPrefix(f[1], "GPU-") {
		return fmt.Errorf("want gpu: INDEX GPU-UUID MEMORY MiB NAME, got %q", val)
	}
	i, err := strconv.Atoi(f[0])
	if err != nil {
		return fmt.Errorf("gpu index %q: %w", f[0], err)
	}
	mem, err := strconv.ParseUint(f[2], 10, 64)
	if err != nil {
		return fmt.Errorf("gpu memory %q: %w", f[2], err)
	}
	p.t.GPUs = append(p.t.GPUs, GPU{Index: i, UUID: f[1], MemoryMiB: mem, Name: f[4]})
	return nil
}

// check reads "RESULT NAME SECONDSs".
func (p *parser) check(val string) error {
	f := strings.Fields(val)
	if len(f) != 3 || !strings.HasSuffix(f[2], "s") {
		return fmt.Errorf("want check: RESULT NAME SECONDSs, got %q", val)
	}
	if f[0] != Pass && f[0] != Fail && f[0] != Skip {
		return fmt.Errorf("check %s: result %q is not PASS, FAIL or SKIP", f[1], f[0])
	}
	secs, err := strconv.ParseFloat(strings.TrimSuffix(f[2], "s"), 64)
	if err != nil {
		return fmt.Errorf("check %s: duration %q: %w", f[1], f[2], err)
	}
	p.t.Checks = append(p.t.Checks, Check{Name: f[1], Result: f[0], Seconds: secs})
	return nil
}

func (p *parser) finish() error {
	t := p.t
	switch {
	case p.line == 0:
		return fmt.Errorf("empty transcript")
	case !p.summary:
		return fmt.Errorf("no summary line: the run did not finish")
	case t.Date.IsZero():
		return fmt.Errorf("no date")
	case t.Driver == "":
		return fmt.Errorf("no driver version")
	case len(t.GPUs) == 0:
		return fmt.Errorf("no GPU listed")
	}
	counts := map[string]int{}
	for _, c := range t.Checks {
		if len(c.Evidence) == 0 {
			return fmt.Errorf("check %s has no evidence", c.Name)
		}
		counts[c.Result]++
	}
	if counts[Pass] != t.Passed || counts[Fail] != t.Failed || counts[Skip] != t.Skipped {
		return fmt.Errorf("summary says %s but the checks are %d passed, %d failed, %d skipped",
			t.Summary(), counts[Pass], counts[Fail], counts[Skip])
	}
	return nil
}

// Check returns the named check, or nil.
func (t *Transcript) Check(name string) *Check {
	for i := range t.Checks {
		if t.Checks[i].Name == name {
			return &t.Checks[i]
		}
	}
	return nil
}
