package profiles

import (
	"fmt"
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

// runsOn reports whether driver runs the CUDA toolkit; an empty driver
// runs everything.
func (c *Catalog) runsOn(cuda, driver string) bool {
	return driver == "" || compareVersions(c.toolkitDriver(cuda), driver) <= 0
}

// newestRunnable is the newest of the sorted CUDA versions matching a
// prefix that driver runs.
func (c *Catalog) newestRunnable(sorted []string, prefix, driver string) string {
	for i := len(sorted) - 1; i >= 0; i-- {
		if matchesPrefix(sorted[i], prefix) && c.runsOn(sorted[i], driver) {
			return sorted[i]
		}
	}
	return ""
}

// driverNote says which driver rule chose the versions, and what newer
// CUDA it passed over.
func (c *Catalog) driverNote(req Request, chosen, newest string) string {
	if newest != "" && newest != chosen {
		return fmt.Sprintf(DriverRuleNote+"chose CUDA %s for %s; the newer CUDA %s needs driver %s", chosen, req.DriverRule, newest, c.toolkitDriver(newest))
	}
	return fmt.Sprintf(DriverRuleNote+"CUDA %s runs on %s", chosen, req.DriverRule)
}

// withoutDriver resolves again with no driver limit when nothing matching
// the request runs on the driver, and says so.
func withoutDriver(req Request, resolve func(Request) (Resolved, error)) (Resolved, error) {
	unlimited := req
	unlimited.Driver, unlimited.DriverRule = "", ""
	r, err := resolve(unlimited)
	if err == nil {
		r.Notes = append(r.Notes, fmt.Sprintf(DriverRuleNote+"nothing matching this service's versions runs on %s; chose the newest, which needs driver %s (`devenv doctor` checks it)", req.DriverRule, r.Requires.MinDriver))
	}
	return r, err
}

// ResolutionDriver is the driver that versions devenv.yaml leaves unset are
// resolved for, and the rule that chose it: the machine's (read through
// NVML) when known, else the first of the catalog's fallback branch (R580).
// lock, lock --upgrade, config and plans made before any lock share it.
func (c *Catalog) ResolutionDriver(machine string) (driver, rule string) {
	if machine != "" {
		return machine, MachineDriverRule(machine)
	}
	return c.FallbackDriver()
}
