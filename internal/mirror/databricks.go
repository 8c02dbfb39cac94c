package mirror

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// importDatabricks reads a Databricks cluster spec (clusters get/create) or a
// jobs spec whose clusters sit at tasks[].new_cluster or
// job_clusters[].new_cluster (also under "settings", as jobs get prints).
func importDatabricks(path string, data []byte) (*Profile, error) {
	v, err := decodeJSON(data)
	if err != nil {
		if b, ok := decodeBundle(data); ok {
			return importBundle(path, b)
		}
		if jobs, where := dbxJobs(decodeYAMLMap(data)); jobs != nil {
			return importDBX(path, jobs, where)
		}
		return nil, fmt.Errorf("mirror: %s:%w; fix the JSON or export it again with the databricks CLI%s", path, err, decodeHint(data))
	}
	if b := asMap(v); isBundle(b) {
		return importBundle(path, b)
	}
	if jobs, where := dbxJobs(asMap(v)); jobs != nil {
		return importDBX(path, jobs, where)
	}
	root := asMap(v)
	if root == nil {
		return nil, fmt.Errorf("mirror: %s: a Databricks cluster spec is a JSON object", path)
	}
	if err := checkTypes(path, data, dbSpec{}, false, "fix the value or export the spec again with the databricks CLI"); err != nil {
		return nil, err
	}
	p := newProfile(path, FormatDatabricks)
	p.Source.Platform = "databricks"
	cluster, where := findDatabricksCluster(root)
	if cluster == nil {
		if acc, at := findServerlessGPU(root); acc != "" {
			if err := readServerlessGPU(p, acc, at); err != nil {
				return nil, fmt.Errorf("mirror: %s: %w", path, err)
			}
			return p, nil
		}
		if where := findServerless(root); where != "" {
			readServerless(p, where)
			return p, nil
		}
		if id, where := findExistingCluster(root); id != "" {
			return nil, fmt.Errorf("mirror: %s: a Databricks job whose %s runs on existing_cluster_id %s: the file says nothing of that cluster's runtime or nodes; export it with `databricks clusters get %s` and mirror that", path, where, id, id)
		}
		return nil, fmt.Errorf("mirror: %s: no cluster found: expected spark_version at the top, or new_cluster under tasks[] or job_clusters[]", path)
	}
	if where != "" {
		p.warn(fmt.Sprintf("using the cluster at %s", where))
	}
	readDatabricksCluster(p, cluster)
	readDatabricksLibraries(p, root)
	return p, nil
}

// findDatabricksCluster returns the cluster spec and where it was found.
func findDatabricksCluster(root map[string]any) (map[string]any, string) {
	if root["spark_version"] != nil || root["node_type_id"] != nil {
		return root, ""
	}
	if s := asMap(root["settings"]); s != nil {
		c, where := findDatabricksCluster(s)
		return c, "settings." + strings.TrimPrefix(where, ".")
	}
	if c := asMap(root["new_cluster"]); c != nil {
		return c, "new_cluster"
	}
	for i, jc := range asList(root["job_clusters"]) {
		if c := asMap(asMap(jc)["new_cluster"]); c != nil {
			return c, fmt.Sprintf("job_clusters[%d].new_cluster (%s)", i, str(asMap(jc)["job_cluster_key"]))
		}
	}
	for i, t := range asList(root["tasks"]) {
		if c := asMap(asMap(t)["new_cluster"]); c != nil {
			return c, fmt.Sprintf("tasks[%d].new_cluster", i)
		}
	}
	return nil, ""
}

// findExistingCluster is the first existing_cluster_id a job (or its
// settings) runs on, and where.
func findExistingCluster(root map[string]any) (string, string) {
	if s := asMap(root["settings"]); s != nil {
		id, where := findExistingCluster(s)
		return id, "settings." + where
	}
	if id := str(root["existing_cluster_id"]); id != "" {
		return id, "job"
	}
	for i, t := range asList(root["tasks"]) {
		if id := str(asMap(t)["existing_cluster_id"]); id != "" {
			return id, fmt.Sprintf("tasks[%d]", i)
		}
	}
	return "", ""
}

func readDatabricksCluster(p *Profile, c map[string]any) {
	label := str(c["spark_version"])
	if eff := str(c["effective_spark_version"]); eff != "" {
		label = eff
		if strings.Contains(eff, "aarch64") {
			p.warn("the cluster runs on aarch64 (Graviton); the local mirror uses your host's architecture")
		}
	}
	if label != "" {
		p.applyDatabricksLabel(label, "databricks:spark_version")
	}
	if strings.EqualFold(str(c["runtime_engine"]), "PHOTON") && p.Runtime.Engine != "photon" {
		p.Runtime.Engine = "photon"
		p.warn("the cluster runs Photon, which has no open-source equivalent; the local mirror runs plain Apache Spark")
	} else if p.Runtime.Engine == "" {
		p.Runtime.Engine = "standard"
	}
	switch {
	case c["aws_attributes"] != nil:
		p.Source.Cloud = "aws"
	case c["azure_attributes"] != nil:
		p.Source.Cloud = "azure"
	case c["gcp_attributes"] != nil:
		p.Source.Cloud = "gcp"
	}
	p.Topology.WorkerType = str(c["node_type_id"])
	p.Topology.DriverType = str(c["driver_node_type_id"])
	if as := asMap(c["autoscale"]); as != nil {
		setInt(&p.Topology.Workers, &p.Topology.WorkersProvenance, num(as["min_workers"]), "databricks:autoscale", false)
		p.Topology.WorkersMax = num(as["max_workers"])
	} else if single, _ := c["is_single_node"].(bool); single {
		p.setSingleNode(p.Topology.WorkerType, "databricks:is_single_node (the driver node runs the executors)")
	} else if n, ok := c["num_workers"]; ok && num(n) == 0 {
		p.setSingleNode(p.Topology.WorkerType, "databricks:num_workers 0 (the driver node runs the executors)")
	} else {
		setInt(&p.Topology.Workers, &p.Topology.WorkersProvenance, num(c["num_workers"]), "databricks:num_workers", false)
	}
	for _, k := range slices.Sorted(maps.Keys(asMap(c["spark_conf"]))) {
		p.addConf(k, str(asMap(c["spark_conf"])[k]), "databricks:spark_conf")
	}
	for _, k := range slices.Sorted(maps.Keys(asMap(c["spark_env_vars"]))) {
		p.addEnv(k, str(asMap(c["spark_env_vars"])[k]))
	}
	if strings.HasPrefix(p.Env["PYSPARK_PYTHON"], "/databricks/python3") && p.Runtime.Python == "" {
		p.Runtime.Python, p.Runtime.PythonProvenance = "3", "databricks:spark_env_vars.PYSPARK_PYTHON"
	}
	for i, s := range asList(c["init_scripts"]) {
		for kind, dest := range asMap(s) {
			dst := str(asMap(dest)["destination"])
			if j, ok := findRapidsJar(dst); ok {
				p.setRapidsJar(j, fmt.Sprintf("databricks:init_scripts[%d]", i))
			}
			p.warn(fmt.Sprintf("init script %s (%s) is not run locally; install what it adds through devenv.yaml", dst, kind))
		}
	}
	if img := str(asMap(c["docker_image"])["url"]); img != "" {
		p.warn(fmt.Sprintf("the cluster uses the custom image %s; devenv builds its own image", img))
	}
}

// readDatabricksLibraries records the Maven libraries of a job's tasks
// (tasks[].libraries[].maven.coordinates; also under "settings").
func readDatabricksLibraries(p *Profile, root map[string]any) {
	if s := asMap(root["settings"]); s != nil {
		root = s
	}
	for i, t := range asList(root["tasks"]) {
		for j, lib := range asList(asMap(t)["libraries"]) {
			mv := asMap(asMap(lib)["maven"])
			if c := str(mv["coordinates"]); c != "" {
				if p.libraries == nil {
					p.libraries = map[string]string{}
				}
				p.libraries[c] = fmt.Sprintf("databricks:tasks[%d].libraries[%d].maven", i, j)
				for _, ex := range asList(mv["exclusions"]) {
					p.PackageExcludes = append(p.PackageExcludes, str(ex))
				}
			}
		}
	}
}
