package mirror

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// A Databricks job task on serverless GPU compute names no cluster: its
// compute.hardware_accelerator (GPU_1xA10, GPU_8xH100) encodes the GPUs
// per node and their model, and Databricks picks the runtime (the Jobs
// API's Compute and ComputeSpec_AcceleratorType; "GPU_8xH100 means 8
// H100s per node").

var acceleratorRe = lazy.Regexp(`^GPU_(\d+)x([A-Za-z0-9]+)$`)

// findServerlessGPU is the first hardware accelerator of a job's tasks
// (or its settings') and where it is.
func findServerlessGPU(job map[string]any) (string, string) {
	if s := asMap(job["settings"]); s != nil {
		if acc, where := findServerlessGPU(s); acc != "" {
			return acc, "settings." + where
		}
	}
	for i, t := range asList(job["tasks"]) {
		if acc := str(asMap(asMap(t)["compute"])["hardware_accelerator"]); acc != "" {
			return acc, fmt.Sprintf("tasks[%d].compute.hardware_accelerator", i)
		}
	}
	return "", ""
}

// readServerlessGPU reads a task's serverless GPU compute into p: its GPUs
// per node and their model; the runtime is Databricks' choice, which the
// warning says to pin.
func readServerlessGPU(p *Profile, acc, where string) error {
	m := acceleratorRe().FindStringSubmatch(acc)
	if m == nil {
		return fmt.Errorf("%s is %q, not a hardware accelerator of the form GPU_<count>x<model> (GPU_1xA10, GPU_8xH100)", where, acc)
	}
	n, _ := strconv.Atoi(m[1])
	src := "databricks:" + where + " " + acc
	setInt(&p.GPU.PerNode, &p.GPU.PerNodeProvenance, n, src, false)
	setStr(&p.GPU.Model, &p.GPU.ModelProvenance, strings.ToUpper(m[2]), src, false)
	p.warn(fmt.Sprintf("%s: serverless GPU compute (%s): Databricks picks its runtime, so Spark, Python and the workers are not in the file; set them in devenv.yaml", where, acc))
	return nil
}

// A Databricks job task that names no compute (no new_cluster,
// job_cluster_key or existing_cluster_id) runs on serverless compute;
// an environment_key says so outright, naming the job's environment
// (its Python dependencies). Databricks picks the runtime: the file
// states no Spark, Python or nodes.

// clusterKeys are the task keys that name classic compute.
var clusterKeys = []string{"new_cluster", "job_cluster_key", "existing_cluster_id"}

// findServerless says where a job's tasks are seen to run on serverless
// compute (non-GPU: findServerlessGPU reads accelerators), or "".
func findServerless(job map[string]any) string {
	if s := asMap(job["settings"]); s != nil {
		if where := findServerless(s); where != "" {
			return "settings." + where
		}
	}
	tasks := asList(job["tasks"])
	if len(tasks) == 0 {
		return ""
	}
	for _, t := range tasks {
		for _, k := range clusterKeys {
			if asMap(t)[k] != nil {
				return ""
			}
		}
	}
	for i, t := range tasks {
		if key := str(asMap(t)["environment_key"]); key != "" {
			return fmt.Sprintf("tasks[%d].environment_key %s", i, key)
		}
	}
	return "tasks (none names a cluster)"
}

// readServerless records a job on serverless compute: the platform, and a
// warning that its runtime is Databricks' choice.
func readServerless(p *Profile, where string) {
	p.Source.Platform = "databricks"
	p.warn(fmt.Sprintf("%s: the job runs on serverless compute: Databricks picks its runtime and nodes, so Spark, Python and the workers are not in the file; set them in devenv.yaml", where))
}
