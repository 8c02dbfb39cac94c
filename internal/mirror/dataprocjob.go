package mirror

import (
	"maps"
	"slices"
	"strings"
)

// A Dataproc job resource (gcloud dataproc jobs describe, jobs.get, or
// the body of jobs.submit): reference and placement.clusterName say where
// it ran, and one of sparkJob, pysparkJob, sparkRJob or sparkSqlJob holds
// its Spark properties (plain keys, no spark: prefix) and jars. The job
// does not name its cluster's image: that is in the cluster's describe.

var dataprocJobKinds = []string{"sparkJob", "pysparkJob", "sparkRJob", "sparkSqlJob"}

// dataprocJobKind names the workload of a Dataproc job resource, or "".
func dataprocJobKind(m map[string]any) string {
	if asMap(m["placement"]) == nil && asMap(m["reference"]) == nil {
		return ""
	}
	for _, k := range dataprocJobKinds {
		if asMap(m[k]) != nil {
			return k
		}
	}
	return ""
}

// readDataprocJob reads a job resource's workload into p.
func readDataprocJob(p *Profile, root map[string]any, kind string) {
	p.Source.Platform, p.Source.Cloud = "dataproc", "gcp"
	job := asMap(root[kind])
	props := asMap(job["properties"])
	for _, k := range slices.Sorted(maps.Keys(props)) {
		p.addConf(k, str(props[k]), "dataproc:"+kind+".properties")
	}
	for _, j := range asList(job["jarFileUris"]) {
		if f := lastSegment(str(j)); strings.HasSuffix(f, ".jar") {
			p.jarNameFacts(f, "dataproc:"+kind+".jarFileUris ("+f+")")
		}
	}
	cluster := str(dig(root, "placement", "clusterName"))
	if cluster == "" {
		cluster = "its cluster"
	}
	p.warn("a Dataproc job names no image version (" + cluster + " has it): mirror the cluster's describe, or set spark:, java: and python: in devenv.yaml")
}
