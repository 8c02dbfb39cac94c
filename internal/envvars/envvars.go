// Package envvars is the one list of the DEVENV_* environment variables
// devenv reads on the host, and the check that refuses a bad value (or a
// misspelt name) before any command runs, instead of each reader quietly
// falling back to its default.
package envvars

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-multierror"

	"github.com/devenv-dev/devenv/internal/redact"
)

// check validates one variable's value; it returns what is wrong, or "".
type check func(v string) string

// Known lists every DEVENV_* variable the devenv command reads, with what
// its value must be. The readers live where the value is used
// (internal/engine, internal/httpx, internal/fetch, internal/mirror,
// internal/sources); this is where their values are checked.
var Known = map[string]struct {
	Check check
	Want  string
}{
	"DEVENV_ENGINE_TIMEOUT":    {duration, "a positive Go duration such as 2m or 90s"},
	"DEVENV_NET_TIMEOUT":       {duration, "a positive Go duration such as 60s"},
	"DEVENV_NET_BUDGET":        {duration, "a positive Go duration such as 90s"},
	"DEVENV_CACHE":             {dirPath, "a directory path"},
	"DEVENV_MAX_WINDOW_MB":     {windowMB, "a whole number of MiB from 1 to 4096"},
	"DEVENV_MIRROR_MAVEN":      {httpURL, "an http(s) URL such as http://127.0.0.1:8081/maven2"},
	"DEVENV_MIRROR_APACHE":     {httpURL, "an http(s) URL such as http://127.0.0.1:8081/apache"},
	"DEVENV_MIRROR_PYPI":       {httpURL, "an http(s) URL such as http://127.0.0.1:3141/root/pypi/+simple/"},
	"DEVENV_MIRROR_REGISTRIES": {registries, "registry=mirror pairs separated by commas, such as nvcr.io=127.0.0.1:5055"},
	"DEVENV_ENGINE_REMOTE":     {boolean, "1 (the engine is another machine's) or 0 (it is this one's)"},
	"DEVENV_FORWARD_SAME_PORT": {boolean, "1 (keep the engine's port number when it is free here) or 0 (always a free one)"},
	"DEVENV_SSH_MUX":           {boolean, "1 (one ssh connection for the engine and the forwards) or 0 (an ssh process each)"},
	"DEVENV_WATCH_JOB_RESTART": {boolean, "1 (restart a job when a file it uses changes) or 0"},
	"DEVENV_GPU_FACTS":         {oneOf("nvml", "engine"), "nvml (this machine's NVML) or engine (a probe container on the engine)"},
	"DEVENV_PROBE_IMAGE":       {imageRef, "an image reference with /bin/sh, such as devenv/myproj-spark:abc123"},
	"DEVENV_FASTUP":            {boolean, "1 (an up that changes nothing answers from the last up's receipt, the default) or 0 (every up runs devenv in full)"},
}

// notForTheCLI are DEVENV_* names devenv sets inside containers, or that
// its test suites and benchmarks read: present in a shell, never an error.
var notForTheCLI = []string{"DEVENV_CPU_FALLBACK", "DEVENV_JOB_ID", "DEVENV_RMM_POOL_LIMIT_BYTES"}

// notForTheCLIPrefixes are the test suites' and benchmarks' own variables.
var notForTheCLIPrefixes = []string{"DEVENV_TEST_", "DEVENV_BENCH_", "DEVENV_GPU_", "DEVENV_STANDIN_", "DEVENV_JOBS_TEST_", "DEVENV_COMPOSE_TEST_"}

// Check looks at environ (os.Environ's form) and reports every DEVENV_*
// variable with a value devenv would not use, and every DEVENV_* name
// that is a misspelling of a known one, all at once. An empty value is
// the same as unset.
func Check(environ []string) error {
	var errs *multierror.Error
	for _, kv := range environ {
		name, val, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "DEVENV_") || val == "" {
			continue
		}
		if k, ok := Known[name]; ok {
			if why := k.Check(val); why != "" {
				shown, _ := redact.Value(name, val)
				if strings.HasPrefix(name, "DEVENV_MIRROR_") && strings.Contains(val, "@") {
					shown = "<not shown: it holds credentials>" // user:password@ without a scheme is no URL redact knows
				}
				errs = multierror.Append(errs, fmt.Errorf("%s=%q: %s; want %s (or unset it)", name, redact.String(shown), why, k.Want))
			}
			continue
		}
		if near := nearest(name); near != "" && !ignored(name) {
			errs = multierror.Append(errs, fmt.Errorf("%s is not a variable devenv reads; did you mean %s?", name, near))
		}
	}
	if errs == nil {
		return nil
	}
	errs.ErrorFormat = listFormat
	return errs
}

func listFormat(es []error) string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	if len(lines) == 1 {
		return lines[0]
	}
	return fmt.Sprintf("%d problems with DEVENV_* variables:\n%s", len(lines), strings.Join(lines, "\n"))
}

func ignored(name string) bool {
	if slices.Contains(notForTheCLI, name) {
		return true
	}
	for _, p := range notForTheCLIPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func duration(v string) string {
	d, err := time.ParseDuration(v)
	switch {
	case err != nil:
		return "not a duration"
	case d <= 0:
		return "not more than zero"
	}
	return ""
}

func boolean(v string) string {
	switch v {
	case "0", "1", "true", "false":
		return ""
	}
	return "not 0, 1, true or false"
}

func oneOf(words ...string) check {
	return func(v string) string {
		if slices.Contains(words, v) {
			return ""
		}
		return "not one of " + strings.Join(words, ", ")
	}
}

func imageRef(v string) string {
	if strings.ContainsAny(v, " \t\n\x00") {
		return "not an image reference (it holds whitespace or a NUL byte)"
	}
	return ""
}

func dirPath(v string) string {
	if strings.ContainsRune(v, 0) {
		return "it holds a NUL byte"
	}
	return ""
}

func windowMB(v string) string {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 4096 {
		return "not a whole number from 1 to 4096"
	}
	return ""
}

func httpURL(v string) string {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "not an http(s) URL with a host"
	}
	return ""
}

func registries(v string) string {
	if strings.Contains(v, "@") {
		return "a registry mirror holds credentials (user:password@); write host[:port] and log in with `docker login HOST`"
	}
	for _, pair := range strings.Split(v, ",") {
		k, m, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok || strings.TrimSpace(k) == "" || strings.TrimSpace(m) == "" || strings.Contains(m, "://") {
			return fmt.Sprintf("%q is not registry=host[:port][/prefix]", strings.TrimSpace(pair))
		}
	}
	return ""
}

// nearest is the known name within two edits of name, or "".
func nearest(name string) string {
	best, bestD := "", 3
	for k := range Known {
		if d := distance(name, k); d < bestD || (d == bestD && k < best) {
			best, bestD = k, d
		}
	}
	if bestD > 2 {
		return ""
	}
	return best
}

// distance is the Levenshtein distance of two ASCII names.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
