package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/internal/redact"
)

// ReproOptions steer Repro.
type ReproOptions struct {
	EventLog    string   // prod's event log, inside the project
	Job         string   // the job to run (a .py, .jar or .R file is spark-submitted, a .sh file run with sh); "" runs nothing
	Args        []string // the job's arguments
	Service     string   // the service to mirror into (default: the first spark-rapids service)
	MaxWindowMB int
	Output      io.Writer // the job's output as it runs; nil discards it
}

// ProdOutcome is what prod's event log says went wrong.
type ProdOutcome struct {
	Failed    bool             `json:"failed"`              // a job, stage or task failed
	Signature string           `json:"signature,omitempty"` // the signature of the main failure
	Meaning   string           `json:"meaning,omitempty"`
	Failure   *mirror.Failure  `json:"failure,omitempty"` // the main failure
	Failures  []mirror.Failure `json:"failures"`
}

// LocalOutcome is how the job ended here.
type LocalOutcome struct {
	Command    []string `json:"command"`
	ExitCode   int      `json:"exit_code"`
	Signatures []string `json:"signatures"` // logs --diagnose signatures in its output
	First      string   `json:"first,omitempty"`
}

// ReproResult is one reproduction attempt.
type ReproResult struct {
	Service     string         `json:"service"`
	Source      string         `json:"source"`
	Prod        ProdOutcome    `json:"prod"`
	Local       *LocalOutcome  `json:"local,omitempty"`
	Reproduced  bool           `json:"reproduced"`
	Reason      string         `json:"reason"`
	ConfDrift   []mirror.Drift `json:"conf_drift"` // confs that still differ from prod's (scaled) ones
	Hardware    []mirror.Drift `json:"hardware,omitempty"`
	CannotMatch []string       `json:"cannot_match,omitempty"` // what this machine cannot make like prod
	Mirror      *MirrorResult  `json:"mirror"`
}

// Repro goes from a prod event log to a local reproduction: mirror it into
// the service (versions, portable confs, scaled topology; this relocks),
// bring the service up, run the job with the same confs and compare how
// it ends with prod's failure signature.
func (p *Project) Repro(ctx context.Context, o ReproOptions) (*ReproResult, error) {
	mo := MirrorOptions{Source: o.EventLog, Service: o.Service, Format: mirror.FormatEventLog, Full: true, MaxWindowMB: o.MaxWindowMB,
		AcceptDeviation: true} // a reproduction runs on the nearest stack and lists what differs
	mres, err := p.Mirror(ctx, mo)
	if err != nil {
		return nil, err
	}
	res := &ReproResult{Service: mres.Service, Source: mres.Source, Mirror: mres, Prod: prodOutcome(mres.Profile)}
	if _, err := p.Up(ctx, UpOptions{Services: []string{mres.Service}, Wait: true}); err != nil {
		return nil, fmt.Errorf("the mirrored environment did not come up, so nothing was run: %w", err)
	}
	if err := p.reproDrift(ctx, res); err != nil {
		return nil, err
	}
	if o.Job != "" {
		if res.Local, err = p.runReproJob(ctx, res.Service, o); err != nil {
			return nil, err
		}
	}
	res.Reproduced, res.Reason = verdict(res.Prod, res.Local, o.Job)
	if len(res.CannotMatch) > 0 && !res.Reproduced {
		res.Reason += "; note: " + strings.Join(res.CannotMatch, "; ")
	}
	return res, nil
}

// prodOutcome picks the failure to reproduce: the first classified task,
// job, stage or executor failure, else the first unclassified one.
func prodOutcome(prof *mirror.Profile) ProdOutcome {
	out := ProdOutcome{Failures: prof.Failures}
	if out.Failures == nil {
		out.Failures = []mirror.Failure{}
	}
	var first *mirror.Failure
	for i := range prof.Failures {
		f := &prof.Failures[i]
		if f.Kind == mirror.FailGPUFallback {
			continue
		}
		out.Failed = out.Failed || f.Kind != mirror.FailExecutor
		if first == nil {
			first = f
		}
		if f.Signature != "" && (out.Failure == nil || out.Failure.Kind == mirror.FailJob || out.Failure.Kind == mirror.FailStage) {
			out.Failure = f
			if f.Kind == mirror.FailTask {
				break // the task's own exception is the most precise
			}
		}
	}
	if out.Failure == nil {
		out.Failure = first
	}
	if out.Failure != nil {
		out.Signature, out.Meaning = out.Failure.Signature, out.Failure.Meaning
	}
	return out
}

// reproDrift records the confs that still differ from prod's and what the
// machine cannot match (no GPU, other GPUs).
func (p *Project) reproDrift(ctx context.Context, res *ReproResult) error {
	d, err := p.Diff(ctx, DiffOptions{Service: res.Service})
	if err != nil {
		return err
	}
	res.ConfDrift, res.Hardware = d.Items, d.Hardware
	for _, dv := range d.Deviations {
		res.CannotMatch = append(res.CannotMatch, "versions: "+dv.String())
	}
	for _, h := range d.Hardware {
		res.CannotMatch = append(res.CannotMatch, fmt.Sprintf("prod has %s, here %s", h.Prod, h.Local))
	}
	pl, err := p.Plan(ctx, PlanOptions{})
	if err != nil {
		return err
	}
	if ps := pl.Service(res.Service); ps != nil && ps.CPUFallback {
		res.CannotMatch = append(res.CannotMatch, "this machine gives the service no GPU ("+ps.Reason+"): the job runs with the RAPIDS Accelerator off, so GPU-only failures (out of memory, driver, shims) cannot happen here")
	}
	return nil
}

// runReproJob runs the job in the service and reads its output for
// failure signatures.
func (p *Project) runReproJob(ctx context.Context, service string, o ReproOptions) (*LocalOutcome, error) {
	cmd, err := p.reproCommand(o.Job, o.Args)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	var w io.Writer = &limitedBuffer{b: &buf, max: 64 << 20}
	if o.Output != nil {
		w = io.MultiWriter(w, o.Output)
	}
	code, err := p.Exec(ctx, service, ExecOptions{Cmd: cmd, WorkingDir: plan.Workspace, Stdout: w, Stderr: w})
	if err != nil {
		return nil, err
	}
	out := &LocalOutcome{Command: cmd, ExitCode: code, Signatures: []string{}}
	for _, f := range doctor.Diagnose(buf.String()) {
		out.Signatures = append(out.Signatures, f.ID)
		if out.First == "" {
			out.First = redact.String(f.Match)
		}
	}
	return out, nil
}

// reproCommand is spark-submit for Spark jobs (.py, .jar, .R) and sh for
// shell scripts.
func (p *Project) reproCommand(job string, args []string) ([]string, error) {
	if strings.EqualFold(filepath.Ext(job), ".sh") {
		path, err := p.WorkspacePath(job)
		if err != nil {
			return nil, err
		}
		return append([]string{"sh", path}, args...), nil
	}
	return p.JobCommand("", append([]string{job}, args...))
}

// verdict compares the local outcome with prod's.
func verdict(prod ProdOutcome, local *LocalOutcome, job string) (bool, string) {
	switch {
	case !prod.Failed:
		return false, "prod's event log shows no failed job, stage or task: there is no failure to reproduce"
	case local == nil:
		return false, "no --job given: the service runs with prod's versions and confs; rerun with --job FILE to compare the outcome"
	}
	sig := prod.Signature
	has := func(id string) bool {
		for _, s := range local.Signatures {
			if s == id {
				return true
			}
		}
		return false
	}
	switch {
	case sig != "" && has(sig):
		return true, fmt.Sprintf("%s fails here with prod's signature %s (%s)", job, sig, prod.Meaning)
	case sig != "" && local.ExitCode != 0:
		got := "no known signature"
		if len(local.Signatures) > 0 {
			got = strings.Join(local.Signatures, ", ")
		}
		return false, fmt.Sprintf("%s fails here (exit %d), but with %s, not prod's %s", job, local.ExitCode, got, sig)
	case sig != "":
		return false, fmt.Sprintf("%s succeeds here; prod failed with %s", job, sig)
	case local.ExitCode != 0:
		return true, fmt.Sprintf("%s fails here (exit %d) as it did in prod; prod's failure has no known signature (%s), so only the failing is compared", job, local.ExitCode, prod.Failure.Reason)
	}
	return false, fmt.Sprintf("%s succeeds here; prod failed (%s)", job, prod.Failure.Reason)
}

// limitedBuffer keeps the first max bytes of a job's output.
type limitedBuffer struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
