package mirror

import (
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// Dataproc names a cluster's VMs <cluster>-m (-m-0.. in high-availability
// mode) for the master and <cluster>-w-<n> for the workers
// (<cluster>-sw-<id> for secondary workers), on Compute Engine's internal
// domain (.c.<project>.internal, or .c.internal). Executors on such hosts,
// with a driver on the same cluster's master, mean Dataproc, whatever
// spark.master says (two remote executors are no local-mode run).
var (
	dataprocWorkerRe = lazy.Regexp(`^([a-z][-a-z0-9]*?)-(?:w-\d+|sw-[a-z0-9]+)\.c\.(?:[a-z0-9-]+\.)*internal$`)
	dataprocMasterRe = lazy.Regexp(`^([a-z][-a-z0-9]*?)-m(?:-\d+)?\.c\.(?:[a-z0-9-]+\.)*internal$`)
)

// dataprocByHosts reports whether every executor host is a worker of one
// Dataproc cluster, and the driver host (when set) that cluster's master.
func dataprocByHosts(executorHosts map[string]bool, driverHost string) bool {
	cluster := ""
	for h := range executorHosts {
		m := dataprocWorkerRe().FindStringSubmatch(strings.ToLower(h))
		if m == nil || cluster != "" && m[1] != cluster {
			return false
		}
		cluster = m[1]
	}
	if cluster == "" {
		return false
	}
	if driverHost == "" {
		return true
	}
	m := dataprocMasterRe().FindStringSubmatch(strings.ToLower(driverHost))
	return m != nil && m[1] == cluster
}
