package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/compose/export"
	"github.com/devenv-dev/devenv/compose/project"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// Export formats.
const (
	ExportCompose      = "compose"
	ExportDevcontainer = "devcontainer"
	ExportK8s          = "k8s"
)

// ExportOptions steer Export.
type ExportOptions struct {
	Format  string // compose, devcontainer or k8s
	Output  string // compose: a file ("" = only returned); k8s: a directory
	Service string // devcontainer: the service the editor attaches to
	Force   bool   // devcontainer: replace an existing devcontainer.json (and a compose file devenv did not write)
}

// ExportResult is what Export made.
type ExportResult struct {
	Format  string   `json:"format"`
	Written []string `json:"written"`           // files written, in order
	Data    []byte   `json:"-"`                 // compose without Output: the file to print
	Project string   `json:"project"`           // for the hint on how to run it
	Note    string   `json:"note,omitempty"`    // k8s: why nothing was written
	Pinned  bool     `json:"pinned"`            // images by digest (from devenv.lock), else by tag
	Stale   string   `json:"stale,omitempty"`   // why devenv.lock is stale, when it is
	Started string   `json:"started,omitempty"` // devcontainer: the compose file it starts
	// RunWith is the shell line that runs a written compose export on
	// this machine: with the Jupyter token the file asks for, and the
	// mirrors override when images come through registry mirrors.
	RunWith string `json:"run_with,omitempty"`
	// Chose says which service a devcontainer attaches to, and why, when
	// several could.
	Chose string `json:"chose,omitempty"`
}

// Export writes the environment in another tool's format, planned without
// an engine and without this machine's GPU ids.
func (p *Project) Export(ctx context.Context, o ExportOptions) (*ExportResult, error) {
	// compose and devcontainer exports must start on a machine without a
	// GPU: gpu: optional services run on the CPU there
	pl, err := p.Plan(ctx, PlanOptions{Portable: true, Mint: true, OptionalOnCPU: o.Format != ExportK8s})
	if err != nil {
		return nil, err
	}
	res := &ExportResult{Format: o.Format, Project: p.Spec.Name, Pinned: pl.From != FromResolution, Written: []string{}}
	if pl.Stale != nil {
		res.Stale = pl.Stale.Error()
	}
	switch o.Format {
	case ExportCompose:
		return res, p.exportCompose(pl, o, res)
	case ExportDevcontainer:
		return res, p.exportDevcontainer(pl, o, res)
	case ExportK8s:
		return res, p.exportK8s(pl, o, res)
	}
	return nil, exitcode.Newf(exitcode.Usage, "no export format %q: use compose, devcontainer or k8s", o.Format)
}

// exportCompose writes the Compose project devenv runs for the plan: its
// network and volumes not external, so that `docker compose up` with the
// file alone makes them when they are missing.
func (p *Project) exportCompose(pl *Planned, o ExportOptions, res *ExportResult) error {
	proj, err := project.FromPlan(pl.Plan, project.Options{WorkingDir: p.Spec.Dir})
	if err != nil {
		return err
	}
	data, err := export.Compose(pl.Plan, proj, pl.Lock)
	if err != nil {
		return err
	}
	if err := reconcile.WriteGenerated(p.StateDir(), pl.Services); err != nil {
		return err
	}
	if o.Output == "" {
		res.Data = data
		return nil
	}
	res.Written = append(res.Written, o.Output)
	if err := atomicfile.WriteFile(o.Output, data, exportMode); err != nil {
		return err
	}
	override, err := p.writeMirrorsOverride(pl)
	if err != nil {
		return err
	}
	if override != "" {
		res.Written = append(res.Written, override)
	}
	res.RunWith = runLine(p.Spec.Name, o.Output, override, p.StateDir(), data, export.Profiles(pl.Plan))
	return nil
}

// writeMirrorsOverride writes .devenv/compose.mirrors.yaml when the
// export names images this machine pulls through registry mirrors (and
// removes an earlier one when it names none): "" when there is none.
func (p *Project) writeMirrorsOverride(pl *Planned) (string, error) {
	path := filepath.Join(p.StateDir(), export.MirrorsFileName)
	data, err := export.MirrorsOverride(pl.Plan)
	if err != nil {
		return "", err
	}
	if data == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", nil
	}
	if err := p.ensureStateDir(); err != nil {
		return "", err
	}
	return path, atomicfile.WriteFile(path, data, exportMode)
}

// runLine is the command that runs a compose export here. The file asks
// for JUPYTER_TOKEN (${JUPYTER_TOKEN:?...}) rather than holding it, so
// the line sets it from the token devenv keeps, as a Compose user sets a
// variable in the shell: no copy of the token lands in another file, and
// a teammate without it gets Compose's own message saying what to set.
//
// profiles are the compose profiles of the file's services: docker compose
// starts a service of a profile only when it is enabled, so the line
// enables each one once.
func runLine(project, file, override, stateDir string, data []byte, profiles []string) string {
	var b strings.Builder
	if bytes.Contains(data, []byte("${JUPYTER_TOKEN:?")) {
		fmt.Fprintf(&b, "JUPYTER_TOKEN=$(cat %s) ", shellQuote(fromHere(filepath.Join(stateDir, "jupyter-token"))))
	}
	if len(profiles) > 0 {
		fmt.Fprintf(&b, "COMPOSE_PROFILES=%s ", shellQuote(strings.Join(profiles, ",")))
	}
	fmt.Fprintf(&b, "docker compose -p %s -f %s", shellQuote(project), shellQuote(file))
	if override != "" {
		fmt.Fprintf(&b, " -f %s", shellQuote(fromHere(override)))
	}
	b.WriteString(" up -d")
	return b.String()
}

// fromHere is path relative to the working directory when it is below
// it, else as it is.
func fromHere(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if r, err := filepath.Rel(wd, path); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return path
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and -_./:@=+,
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@=+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (p *Project) exportDevcontainer(pl *Planned, o ExportOptions, res *ExportResult) error {
	if o.Service != "" && pl.Service(o.Service) == nil {
		return exitcode.Newf(exitcode.Usage, "no service %q in %s: pick one of %s", o.Service, filepath.Base(p.Spec.File), strings.Join(planNames(pl.Plan), ", "))
	}
	chosen, why, err := export.PickService(pl.Plan, o.Service)
	if err != nil {
		return err
	}
	res.Chose = why
	data, err := export.Devcontainer(pl.Plan, chosen.Name)
	if err != nil {
		return err
	}
	path := filepath.Join(p.Spec.Dir, export.DevcontainerPath)
	if _, err := os.Stat(path); err == nil && !o.Force {
		return exitcode.Newf(exitcode.Usage, "%s exists: devenv does not overwrite it; pass --force to replace it", path)
	}
	if bytes.Contains(data, []byte(`"dockerComposeFile"`)) {
		if err := p.exportStartedCompose(pl, o, res); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	res.Written = append(res.Written, path)
	return atomicfile.WriteFile(path, data, exportMode)
}

// exportStartedCompose writes the compose file a devcontainer starts,
// replacing an earlier export but never a file devenv did not write.
func (p *Project) exportStartedCompose(pl *Planned, o ExportOptions, res *ExportResult) error {
	path := filepath.Join(p.Spec.Dir, export.ComposeFileName)
	old, err := safefile.ReadFile(path, safefile.MaxConfig)
	if err != nil && safefile.IsRefused(err) {
		return exitcode.Newf(exitcode.Usage, "%v: move it away", err) // a FIFO or a directory there: never read or replaced
	}
	if err == nil && !bytes.HasPrefix(old, []byte("# Generated by `devenv export compose`")) && !o.Force {
		return exitcode.Newf(exitcode.Usage, "%s exists and was not written by devenv: move it away or pass --force", path)
	}
	if err := p.exportCompose(pl, ExportOptions{Output: path}, res); err != nil {
		return err
	}
	res.Started = path
	return nil
}

func (p *Project) exportK8s(pl *Planned, o ExportOptions, res *ExportResult) error {
	files, err := export.Kubernetes(pl.Plan, pl.Lock)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		res.Note = "no spark-rapids or triton service: nothing to export for Kubernetes"
		return nil
	}
	dir := o.Output
	if dir == "" {
		dir = "k8s"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := atomicfile.WriteFile(filepath.Join(dir, n), files[n], exportMode); err != nil {
			return err
		}
		res.Written = append(res.Written, filepath.Join(dir, n))
	}
	return nil
}

// exportMode: exported files may carry values from prod or .env files, so
// only their owner reads them (as the generated files under .devenv, which
// an export writes too: the compose file carries their content).
const exportMode = 0o600

func planNames(pl *plan.Plan) []string {
	var out []string
	for _, s := range pl.Services {
		out = append(out, s.Name)
	}
	return out
}
