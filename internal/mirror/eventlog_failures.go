package mirror

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/devenv-dev/devenv/internal/redact"
)

// Failure kinds read from an event log.
const (
	FailJob         = "job"
	FailStage       = "stage"
	FailTask        = "task"
	FailExecutor    = "executor-lost"
	FailGPUFallback = "gpu-fallback"
)

// Failure is one kind of thing that went wrong in prod, with how often and
// its first example. Signature and Meaning come from the failure signature
// table `devenv logs --diagnose` uses, filled by the caller (Classify).
type Failure struct {
	Kind      string `json:"kind"`
	Reason    string `json:"reason"` // the first example's message (first line, cut, secrets masked)
	Count     int    `json:"count"`
	First     string `json:"first"` // where it happened first: "job 3", "stage 5, task 12 on executor 2"
	Signature string `json:"signature,omitempty"`
	Meaning   string `json:"meaning,omitempty"`
	Detail    string `json:"-"` // the first example in full (stack trace), for classification only
}

// maxFailureKinds bounds the distinct failures kept from one log.
const maxFailureKinds = 200

// failureLog groups failures by kind and reason.
type failureLog struct {
	list  []*Failure
	index map[string]*Failure
	more  int // distinct failures past maxFailureKinds
}

func (f *failureLog) add(kind, reason, where, detail string) {
	reason = firstLine(reason)
	key := kind + "\x00" + normalizeReason(reason)
	if x, ok := f.index[key]; ok {
		x.Count++
		return
	}
	if len(f.list) >= maxFailureKinds {
		f.more++
		return
	}
	if f.index == nil {
		f.index = map[string]*Failure{}
	}
	x := &Failure{Kind: kind, Reason: redact.String(cutReason(reason)), Count: 1, First: where, Detail: redact.String(cutDetail(detail))}
	f.index[key] = x
	f.list = append(f.list, x)
}

var digitsRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`0x[0-9a-fA-F]+|\d+`) })

// normalizeReason groups messages differing only in ids, numbers and
// addresses (GpuSplitAndRetryOOM names the buffer's 0x7fa9046c3010).
func normalizeReason(r string) string { return digitsRe().ReplaceAllString(r, "N") }

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

func cutReason(s string) string {
	if len(s) > 400 {
		return s[:400] + "..."
	}
	return s
}

func cutDetail(s string) string {
	if len(s) > 16<<10 {
		return s[:16<<10]
	}
	return s
}

// Failure-carrying events.
const (
	evJobEnd       = "SparkListenerJobEnd"
	evStageDone    = "SparkListenerStageCompleted"
	evTaskEnd      = "SparkListenerTaskEnd"
	evSQLStart     = "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart"
	evSQLAdaptive  = "org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate"
	taskSuccess    = `"Task End Reason":{"Reason":"Success"`
	jobSucceeded   = `"Result":"JobSucceeded"`
	stageFailedKey = `"Failure Reason"`
)

var failureEvents = map[string]bool{evJobEnd: true, evStageDone: true, evTaskEnd: true, evSQLStart: true, evSQLAdaptive: true}

type jobEndEvent struct {
	JobID  int `json:"Job ID"`
	Result struct {
		Result    string `json:"Result"`
		Exception struct {
			Message string `json:"Message"`
		} `json:"Exception"`
	} `json:"Job Result"`
}

type stageDoneEvent struct {
	Info struct {
		ID      int    `json:"Stage ID"`
		Name    string `json:"Stage Name"`
		Failure string `json:"Failure Reason"`
	} `json:"Stage Info"`
}

type taskEndEvent struct {
	StageID int `json:"Stage ID"`
	Reason  struct {
		Reason      string `json:"Reason"`
		ClassName   string `json:"Class Name"`
		Description string `json:"Description"`
		FullStack   string `json:"Full Stack Trace"`
		LossReason  string `json:"Loss Reason"`
		Message     string `json:"Message"`
		KillReason  string `json:"Kill Reason"`
	} `json:"Task End Reason"`
	Info struct {
		TaskID   int    `json:"Task ID"`
		Executor string `json:"Executor ID"`
	} `json:"Task Info"`
}

type planNode struct {
	Name     string     `json:"nodeName"`
	Children []planNode `json:"children"`
}

type sqlPlanEvent struct {
	ExecutionID int      `json:"executionId"`
	Plan        planNode `json:"sparkPlanInfo"`
}

// failureEvent reads the failure in one event line; lines that say
// success are skipped before decoding, so a full scan stays fast.
func (s *logScan) failureEvent(name string, line []byte) {
	switch name {
	case evJobEnd:
		var e jobEndEvent
		if !bytes.Contains(line, []byte(jobSucceeded)) && s.decodeInto(line, &e) && e.Result.Result != "" && e.Result.Result != "JobSucceeded" {
			s.failures.add(FailJob, e.Result.Exception.Message, fmt.Sprintf("job %d", e.JobID), e.Result.Exception.Message)
		}
	case evStageDone:
		var e stageDoneEvent
		if bytes.Contains(line, []byte(stageFailedKey)) && s.decodeInto(line, &e) && e.Info.Failure != "" {
			s.failures.add(FailStage, e.Info.Failure, fmt.Sprintf("stage %d (%s)", e.Info.ID, firstLine(e.Info.Name)), e.Info.Failure)
		}
	case evTaskEnd:
		var e taskEndEvent
		if !bytes.Contains(line, []byte(taskSuccess)) && s.decodeInto(line, &e) {
			s.taskFailure(e)
		}
	case evSQLStart, evSQLAdaptive:
		var e sqlPlanEvent
		if bytes.Contains(line, []byte(`"nodeName":"Gpu`)) && s.decodeInto(line, &e) {
			s.fallbacks(e)
		}
	}
}

func (s *logScan) taskFailure(e taskEndEvent) {
	r := e.Reason
	where := fmt.Sprintf("stage %d, task %d on executor %s", e.StageID, e.Info.TaskID, e.Info.Executor)
	switch r.Reason {
	case "", "Success", "Resubmitted":
	case "ExceptionFailure":
		msg := strings.TrimSpace(r.ClassName + ": " + firstLine(r.Description))
		s.failures.add(FailTask, msg, where, r.ClassName+": "+r.Description+"\n"+r.FullStack)
	case "ExecutorLostFailure":
		s.failures.add(FailTask, "ExecutorLostFailure: "+r.LossReason, where, r.LossReason)
	case "FetchFailed":
		s.failures.add(FailTask, "FetchFailed: "+r.Message, where, r.Message)
	case "TaskKilled":
		s.failures.add(FailTask, "TaskKilled: "+r.KillReason, where, r.KillReason)
	default:
		s.failures.add(FailTask, r.Reason, where, r.Reason)
	}
}

// normalRemoval matches executor removals that are not failures (dynamic
// allocation, the end of the application).
var normalRemoval = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)killed by driver|idle|decommission|requested|finished|shutdown|stopped`)
})

func (s *logScan) executorLost(id, reason string) {
	if reason == "" || normalRemoval().MatchString(reason) {
		return
	}
	s.failures.add(FailExecutor, reason, "executor "+id, reason)
}

// planGlue are plan nodes that are neither CPU nor GPU work.
var planGlue = map[string]bool{"AdaptiveSparkPlan": true, "InputAdapter": true, "ResultQueryStage": true, "ShuffleQueryStage": true,
	"BroadcastQueryStage": true, "TableCacheQueryStage": true, "ReusedExchange": true, "ColumnarToRow": true, "RowToColumnar": true,
	"AQEShuffleRead": true, "CustomShuffleReader": true, "Subquery": true, "SubqueryBroadcast": true, "ReusedSubquery": true}

// fallbacks counts the CPU operators of a plan that ran GPU operators: the
// RAPIDS Accelerator left them on the CPU.
func (s *logScan) fallbacks(e sqlPlanEvent) {
	var walk func(n planNode)
	seen := map[string]bool{}
	walk = func(n planNode) {
		name := strings.TrimSpace(n.Name)
		if base, _, _ := strings.Cut(name, " ("); !strings.HasPrefix(name, "Gpu") && !planGlue[base] && !strings.HasPrefix(name, "WholeStageCodegen") &&
			!strings.HasPrefix(name, "Execute ") && name != "" && !seen[base] {
			seen[base] = true
			s.failures.add(FailGPUFallback, "!Exec <"+base+"> cannot run on GPU", fmt.Sprintf("SQL execution %d", e.ExecutionID), "")
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(e.Plan)
}

// Failures lists what went wrong, most frequent first within each kind.
func (f *failureLog) sorted() []Failure {
	order := map[string]int{FailJob: 0, FailStage: 1, FailTask: 2, FailExecutor: 3, FailGPUFallback: 4}
	out := make([]Failure, len(f.list))
	for i, x := range f.list {
		out[i] = *x
	}
	sort.SliceStable(out, func(i, j int) bool {
		if order[out[i].Kind] != order[out[j].Kind] {
			return order[out[i].Kind] < order[out[j].Kind]
		}
		return out[i].Count > out[j].Count
	})
	return out
}

// Classify fills each failure's Signature and Meaning with classify (the
// failure signature table of `devenv logs --diagnose`).
func (p *Profile) Classify(classify func(text string) (id, meaning string)) {
	for i := range p.Failures {
		f := &p.Failures[i]
		f.Signature, f.Meaning = classify(f.Reason + "\n" + f.Detail)
	}
}
