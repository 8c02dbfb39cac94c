package mirror

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A Dataproc Serverless batch (gcloud dataproc batches describe, or the
// body of batches.create) or session template: runtimeConfig.version names
// the Serverless runtime (1.1, 1.2, 2.2 ...), runtimeConfig.properties are
// plain Spark properties (no spark: prefix, unlike a cluster's), and
// environmentConfig holds the network and service account, none of which
// is Spark's. The workload is one of sparkBatch, pysparkBatch, sparkRBatch
// or sparkSqlBatch.

var dataprocBatchKinds = []string{"sparkBatch", "pysparkBatch", "sparkRBatch", "sparkSqlBatch"}

// isDataprocBatch reports whether m is a Serverless batch or session template.
func isDataprocBatch(m map[string]any) bool {
	if asMap(m["runtimeConfig"]) == nil {
		return false
	}
	for _, k := range dataprocBatchKinds {
		if m[k] != nil {
			return true
		}
	}
	return m["environmentConfig"] != nil || m["jupyterSession"] != nil || m["sparkConnectSession"] != nil
}

// readDataprocBatch reads a Serverless batch into p.
func readDataprocBatch(p *Profile, root map[string]any) {
	p.Source.Platform, p.Source.Cloud = "dataproc-serverless", "gcp"
	rc := asMap(root["runtimeConfig"])
	props := asMap(rc["properties"])
	for _, k := range slices.Sorted(maps.Keys(props)) {
		p.addConf(k, str(props[k]), "dataproc:runtimeConfig.properties")
	}
	if img := str(rc["containerImage"]); img != "" {
		p.addConf("spark.kubernetes.container.image", img, "dataproc:runtimeConfig.containerImage")
	}
	for _, k := range dataprocBatchKinds {
		b := asMap(root[k])
		for _, j := range asList(b["jarFileUris"]) {
			if f := lastSegment(str(j)); strings.HasSuffix(f, ".jar") {
				p.jarNameFacts(f, "dataproc:"+k+".jarFileUris ("+f+")")
			}
		}
	}
	p.applyServerlessVersion(str(rc["version"]), "dataproc:runtimeConfig.version")
}

// applyServerlessVersion applies a Serverless runtime version (2.2) named
// by src; none means Serverless's default runtime, which changes over time.
func (p *Profile) applyServerlessVersion(v, src string) {
	v = strings.TrimSpace(v)
	if v == "" {
		field := src[strings.LastIndexAny(src, ": ")+1:] // runtimeConfig.version, --version
		p.warn(fmt.Sprintf("the batch names no %s: Dataproc Serverless then uses its default runtime, which changes over time; set spark:, java: and python: in devenv.yaml", field))
		return
	}
	setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, v, src, false)
	r, ok := lookupRuntime("dataproc", "serverless-"+v)
	if !ok {
		p.warn(fmt.Sprintf("Dataproc Serverless runtime %s is not in devenv's table; set spark:, java: and python: in devenv.yaml", v))
		return
	}
	p.applyRuntime("dataproc", r)
}
