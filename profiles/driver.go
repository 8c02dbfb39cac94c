package profiles

import (
	"fmt"
	"slices"
	"strings"
)

// DriverRuleNote starts the note that says which driver rule chose a
// resolution's versions (Resolved.Notes).
const DriverRuleNote = "driver rule: "

// DriverRuleNotes returns the notes of r that say which driver rule chose it.
func DriverRuleNotes(r Resolved) []string {
	var out []string
	for _, n := range r.Notes {
		if strings.HasPrefix(n, DriverRuleNote) {
			out = append(out, n)
		}
	}
	return out
}

// FallbackDriver is the driver unset versions resolve for when the
// machine's own cannot be read: the first release of the data-center driver
// branch the catalog names (R580, a long-term support branch), and the rule
// that says so.
func (c *Catalog) FallbackDriver() (driver, rule string) {
	fd := c.file.CUDA.Fallback
	return fd.MinDriver, fmt.Sprintf("driver %s, the first of %s, NVIDIA's %s (this machine's driver could not be read)", fd.MinDriver, fd.Branch, fd.Designation)
}

// MachineDriverRule is the rule text for a driver read through NVML.
func MachineDriverRule(driver string) string {
	return fmt.Sprintf("driver %s, this machine's (read through NVML)", driver)
}

// toolkitDriver is the oldest driver that runs a CUDA toolkit without
// minor-version compatibility: the toolkit's own, else its family's floor.
func (c *Catalog) toolkitDriver(cuda string) string {
	if t := c.toolkit[cuda]; t != nil {
		return t.MinDriver
	}
	if f := c.family[major(cuda)]; f != nil {
		return f.MinDriver
	}
	return ""
}

// floorDriver is the oldest driver that runs a CUDA toolkit by the rule the
// request's GPUs call for: on data-center GPUs the family's floor (CUDA
// minor-version compatibility: CUDA 13 on R580+, CUDA 12 on R525+), on
// others (consumer GPUs, or GPUs devenv could not read) the toolkit's own.
func (c *Catalog) floorDriver(cuda string, dataCenter bool) string {
	if dataCenter {
		if f := c.family[major(cuda)]; f != nil {
			return f.MinDriver
		}
	}
	return c.toolkitDriver(cuda)
}

// runsOn reports whether the request's driver runs the CUDA toolkit; an
// empty driver runs everything.
func (c *Catalog) runsOn(cuda string, req Request) bool {
	return req.Driver == "" || compareVersions(c.floorDriver(cuda, req.DataCenter), req.Driver) <= 0
}

// newestRunnable is the newest of the sorted CUDA versions matching a
// prefix that the request's driver runs.
func (c *Catalog) newestRunnable(sorted []string, prefix string, req Request) string {
	for i := len(sorted) - 1; i >= 0; i-- {
		if matchesPrefix(sorted[i], prefix) && c.runsOn(sorted[i], req) {
			return sorted[i]
		}
	}
	return ""
}

// RuleName says which driver rule a request is resolved by.
func RuleName(dataCenter bool) string {
	if dataCenter {
		return "the data-center rule (data-center GPUs run a CUDA family from its floor through minor-version compatibility: CUDA 13 on R580+, CUDA 12 on R525+)"
	}
	return "the toolkit rule (GPUs not known as data-center ones need each CUDA toolkit's own driver)"
}

// driverNote says which driver rule chose the versions, and what newer
// CUDA it passed over.
func (c *Catalog) driverNote(req Request, chosen, newest string) string {
	if newest != "" && newest != chosen {
		return fmt.Sprintf(DriverRuleNote+"chose CUDA %s for %s by %s; the newer CUDA %s needs driver %s", chosen, req.DriverRule, RuleName(req.DataCenter), newest, c.floorDriver(newest, req.DataCenter))
	}
	return fmt.Sprintf(DriverRuleNote+"CUDA %s runs on %s by %s", chosen, req.DriverRule, RuleName(req.DataCenter))
}

// requiredDriver is what a resolution asks of the host for a CUDA toolkit,
// by the request's rule, and the note that says so.
func (c *Catalog) requiredDriver(req Request, cuda string) (string, string) {
	fam := c.family[major(cuda)]
	t := c.toolkit[cuda]
	switch {
	case req.DataCenter && fam != nil && t != nil:
		return fam.MinDriver, fmt.Sprintf("driver: %s or newer on data-center GPUs (CUDA %s minor-version compatibility); other GPUs need the CUDA %s toolkit's %s", fam.MinDriver, fam.Major, cuda, t.MinDriver)
	case t != nil && fam != nil:
		return t.MinDriver, fmt.Sprintf("driver: %s or newer, the CUDA %s toolkit's driver; data-center GPUs may run it from %s through CUDA minor-version compatibility", t.MinDriver, cuda, fam.MinDriver)
	case t != nil:
		return t.MinDriver, fmt.Sprintf("driver: %s or newer, the CUDA %s toolkit's driver", t.MinDriver, cuda)
	case fam != nil:
		return fam.MinDriver, fmt.Sprintf("driver: %s or newer, the CUDA %s minor-version-compatibility minimum (devenv's catalog has no toolkit driver for %s)", fam.MinDriver, fam.Major, cuda)
	}
	return "", ""
}

// withoutDriver resolves again with no driver limit when nothing matching
// the request runs on the driver, and says so.
func withoutDriver(req Request, resolve func(Request) (Resolved, error)) (Resolved, error) {
	unlimited := req
	unlimited.Driver, unlimited.DriverRule = "", ""
	// the rule still decides what the chosen CUDA requires
	r, err := resolve(unlimited)
	if err == nil {
		r.Notes = append(r.Notes, fmt.Sprintf(DriverRuleNote+"nothing matching this service's versions runs on %s; chose the newest, which needs driver %s by %s (`devenv doctor` checks it)", req.DriverRule, r.Requires.MinDriver, RuleName(req.DataCenter)))
	}
	return r, err
}

// ResolutionDriver is the driver that versions devenv.yaml leaves unset are
// resolved for, and the rule that chose it: the machine's (read through
// NVML) when known, else the first of the catalog's fallback branch (R580).
// lock, lock --upgrade, config and plans made before any lock share it. It
// knows nothing of the GPUs, so it applies the toolkit rule; ResolutionLimit
// also reads them.
func (c *Catalog) ResolutionDriver(machine string) (driver, rule string) {
	l := c.ResolutionLimit(machine, nil)
	return l.Driver, l.Rule
}

// DriverLimit is what unset versions are resolved for: a driver, the rule
// text that says where it came from, and whether the GPUs it drives are
// data-center ones (Request.DataCenter).
type DriverLimit struct {
	Driver, Rule string
	DataCenter   bool
}

// On returns req limited to l.
func (l DriverLimit) On(req Request) Request {
	req.Driver, req.DriverRule, req.DataCenter = l.Driver, l.Rule, l.DataCenter
	return req
}

// ResolutionLimit is ResolutionDriver with the machine's GPUs: when NVML read
// a driver and every GPU is a data-center one (DataCenterGPU, by NVML's
// brand or product name), the data-center rule applies (the CUDA family
// floor); otherwise the toolkit rule. Without a machine driver the
// fallback branch is used with the toolkit rule (the GPUs are unknown).
func (c *Catalog) ResolutionLimit(machine string, gpus []GPUModel) DriverLimit {
	if machine == "" {
		d, r := c.FallbackDriver()
		return DriverLimit{Driver: d, Rule: r}
	}
	l := DriverLimit{Driver: machine, Rule: MachineDriverRule(machine), DataCenter: AllDataCenter(gpus)}
	if names := gpuNames(gpus); names != "" {
		kind := "GPUs not known as data-center ones"
		if l.DataCenter {
			kind = "data-center GPUs"
		}
		l.Rule += fmt.Sprintf(", on %s (%s)", kind, names)
	}
	return l
}

// gpuNames lists the distinct GPU names, in order.
func gpuNames(gpus []GPUModel) string {
	var names []string
	for _, g := range gpus {
		n := strings.TrimSpace(g.Name)
		if n == "" {
			n = "unnamed GPU"
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}
