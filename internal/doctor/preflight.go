package doctor

import (
	"context"
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/hashicorp/go-multierror"
)

// preflightIDs are the checks that decide whether GPU services can start.
// Host memory, disk and ports are left to doctor: they make a start slow or
// fail with the engine's own clear error, and are not GPU problems.
var preflightIDs = map[string]bool{
	IDGPURuntime:        true,
	IDNVML:              true,
	IDDriver:            true,
	IDComputeCapability: true,
	IDGPUMemory:         true,
	IDWSL:               true,
}

// Preflight runs the GPU checks that matter for starting in.Services (all
// services when empty) and returns nil, or an error marked with
// exitcode.GPU that names every failing check and its fix.
func Preflight(ctx context.Context, in Inputs) error {
	if len((&env{in: in, services: servicesOf(in)}).gpuServices()) == 0 {
		return nil // every check that can stop a start is about a GPU service
	}
	var errs *multierror.Error
	for _, c := range Run(ctx, in).Checks {
		if c.Status == Fail && preflightIDs[c.ID] {
			errs = multierror.Append(errs, checkError{c})
		}
	}
	if errs == nil {
		return nil
	}
	errs.ErrorFormat = formatPreflight
	return exitcode.With(exitcode.GPU, errs)
}

// checkError is a failed check as an error.
type checkError struct{ c Check }

func (e checkError) Error() string {
	msg := e.c.Title + ": " + e.c.Message
	if e.c.Fix != "" {
		msg += "\n    fix: " + e.c.Fix
	}
	return msg
}

func formatPreflight(errs []error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "this machine cannot run the GPU services (%d problem(s); `devenv doctor` shows every check):", len(errs))
	for _, e := range errs {
		b.WriteString("\n  - " + e.Error())
	}
	return b.String()
}
