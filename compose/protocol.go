package compose

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/go-multierror"
)

// Protocol is the version of the request and response devenv and its
// helper exchange. Change it whenever either changes shape or meaning: a
// helper of another build then answers with a clear error instead of a
// half-understood result.
const Protocol = 3 // 3: the service as compose-go has it (Service.Config); 2: restart, ulimits, extra_hosts, expose, runtime, ipc, profiles, GPU driver and device ids

// Operations a Request asks for.
const (
	OpLoad = "load" // Load: the services, converted
	OpRaw  = "raw"  // RawEnvironment: environment entries as written
)

// Request is what devenv asks of the compose loader (the devenv-compose
// helper reads requests from stdin, one JSON object a line, and answers
// each with a Response on a line of stdout). The helper inherits devenv's
// environment and working directory, so COMPOSE_PROFILES and the shell's
// variables interpolate as they would in devenv's own process.
type Request struct {
	Protocol    int      `json:"protocol"`
	Op          string   `json:"op"`
	Files       []string `json:"files"`
	ProjectDir  string   `json:"project_dir"`
	ProjectName string   `json:"project_name"`
	Profiles    []string `json:"profiles"`
	// LogLevel is devenv's logrus level, so compose-go's own warnings show
	// exactly when they would in devenv's process (--debug).
	LogLevel string `json:"log_level,omitempty"`
}

// Response is the loader's answer (the helper writes it as JSON on stdout).
// At most one of Error and Problems is set.
type Response struct {
	Protocol int `json:"protocol"`
	// Services answers OpLoad, sorted by name (an empty list, not null,
	// when the files define none).
	Services []Service `json:"services"`
	// Raw answers OpRaw: service -> variable -> value as written; null
	// when the files do not load without interpolation.
	Raw map[string]map[string]string `json:"raw"`
	// Error is a failure to load the files at all, its whole message.
	Error string `json:"error,omitempty"`
	// Problems are what makes services unusable, each naming its file,
	// line, service and fix; Load reports them all at once.
	Problems []string `json:"problems,omitempty"`
	// Log is what compose-go logged (logrus, at the request's LogLevel),
	// which devenv writes where its own logrus writes.
	Log string `json:"log,omitempty"`
}

// result turns a response into what Load returns: the same services, or
// the same error values and messages as when compose-go ran in devenv.
func (r *Response) result() ([]Service, error) {
	if r.Error != "" {
		return nil, errors.New(r.Error)
	}
	if len(r.Problems) > 0 {
		var errs *multierror.Error
		for _, p := range r.Problems {
			errs = multierror.Append(errs, errors.New(p))
		}
		errs.ErrorFormat = listErrors
		return nil, errs
	}
	return r.Services, nil
}

// listErrors renders every problem on its own line.
func listErrors(errs []error) string {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = "  " + e.Error()
	}
	return fmt.Sprintf("%d problem(s) in the compose files:\n%s", len(errs), strings.Join(lines, "\n"))
}
