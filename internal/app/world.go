package app

import (
	"context"
	"io"

	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/envvars"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/ui"
)

// World is what the commands reach outside the process through: the
// Docker engine, the machine's NVML, and its CPU, memory and tools. The
// CLI runs in the real one; its tests pass their own. A nil field is the
// real one.
type World struct {
	Connect   func(context.Context, EngineOptions) (engine.Engine, error) // default: engine.ConnectTo
	GPUs      func() (gpu.Inventory, error)                               // default gpu.Open
	LocalHost func() doctor.HostFacts                                     // default doctor.LocalHost
}

// EngineOptions pick the Docker engine as the docker CLI does: --context
// and --host; left empty, DOCKER_CONTEXT, DOCKER_HOST and `docker context
// use` decide.
type EngineOptions struct {
	Context string // the docker context to use
	Host    string // the engine's address (unix://, tcp://, ssh://user@host)
}

// endpoint is o as the engine's resolution (docker/cli's) takes it.
func (o EngineOptions) endpoint() endpoint.Options {
	return endpoint.Options{Context: o.Context, Host: o.Host}
}

// connectTo is World.Connect in the real world.
func connectTo(ctx context.Context, o EngineOptions) (engine.Engine, error) {
	return engine.ConnectTo(ctx, o.endpoint())
}

// withDefaults is w with the real world where it names none.
func (w World) withDefaults() World {
	if w.Connect == nil {
		w.Connect = connectTo
	}
	if w.GPUs == nil {
		w.GPUs = gpu.Open
	}
	if w.LocalHost == nil {
		w.LocalHost = doctor.LocalHost
	}
	return w
}

// Options is o reaching the world through w: the engine e picks (reached
// only when a command needs it), w's NVML and w's machine facts.
func (w World) Options(o Options, e EngineOptions) Options {
	w = w.withDefaults()
	connect := w.Connect
	o.Engine = func(ctx context.Context) (engine.Engine, error) { return connect(ctx, e) }
	o.GPUs, o.LocalHost = w.GPUs, w.LocalHost
	return o
}

// Printer is where the use cases and the commands print: results on
// stdout (JSON with --json), notes, warnings and progress on stderr. It
// is internal/ui's; app adds nothing to it, so it is not a copy.
type Printer = ui.Printer

// NewPrinter prints results to out and the rest to errw; jsonOut makes
// both JSON, debug adds the debugging lines.
func NewPrinter(out, errw io.Writer, jsonOut, debug bool) *Printer {
	return ui.New(out, errw, jsonOut, debug)
}

// IsTerminal says whether stream (an *os.File) is a terminal: what exec
// gives a TTY on and top redraws in place on.
func IsTerminal(stream any) bool { return ui.IsTerminal(stream) }

// CheckEnv refuses DEVENV_* variables devenv does not know or cannot read
// (a typo, a bad duration): a usage error (exit 2) naming each, so a
// setting is never silently ignored.
func CheckEnv(environ []string) error {
	return exitcode.With(exitcode.Usage, envvars.Check(environ))
}
