package mirror

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A Databricks asset bundle (databricks.yml, resources/*.yml) describes
// jobs under resources.jobs.<name>, each a jobs spec whose clusters sit at
// job_clusters[].new_cluster or tasks[].new_cluster, as in the Jobs API,
// and all-purpose clusters under resources.clusters.<name>, each a
// Clusters API spec; workspace.host names the cloud.

// bundleJobs is a bundle's resources.jobs, or nil when m is no bundle.
func bundleJobs(m map[string]any) map[string]any {
	jobs := asMap(asMap(m["resources"])["jobs"])
	for _, j := range jobs {
		if jm := asMap(j); jm["tasks"] != nil || jm["job_clusters"] != nil {
			return jobs
		}
	}
	return nil
}

// bundleClusters is a bundle's resources.clusters, or nil when none of
// them is a cluster spec (a spark_version or a node_type_id).
func bundleClusters(m map[string]any) map[string]any {
	clusters := asMap(asMap(m["resources"])["clusters"])
	for _, c := range clusters {
		if cm := asMap(c); cm["spark_version"] != nil || cm["node_type_id"] != nil {
			return clusters
		}
	}
	return nil
}

// isBundle says whether m is an asset bundle with jobs or clusters.
func isBundle(m map[string]any) bool {
	return bundleJobs(m) != nil || bundleClusters(m) != nil
}

// decodeBundle reads a bundle's YAML (its first document).
func decodeBundle(data []byte) (map[string]any, bool) {
	var v any
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&v); err != nil {
		return nil, false
	}
	m := asMap(v)
	return m, isBundle(m)
}

// importBundle reads the first job (by name) that has a cluster, else the
// first all-purpose cluster (by name).
func importBundle(path string, b map[string]any) (*Profile, error) {
	jobs := bundleJobs(b)
	p := newProfile(path, FormatDatabricks)
	p.Source.Platform = "databricks"
	p.Source.Cloud = databricksHostCloud(str(asMap(b["workspace"])["host"]))
	if jobs == nil {
		return importBundleCluster(p, bundleClusters(b)), nil
	}
	names := slices.Sorted(maps.Keys(jobs))
	for _, name := range names {
		job := asMap(jobs[name])
		cluster, where := findDatabricksCluster(job)
		if cluster == nil {
			continue
		}
		if len(names) > 1 {
			p.warn(fmt.Sprintf("the bundle has %d jobs; using resources.jobs.%s", len(names), name))
		}
		p.warn(fmt.Sprintf("using the cluster at resources.jobs.%s.%s", name, where))
		readDatabricksCluster(p, cluster)
		readDatabricksLibraries(p, job)
		return p, nil
	}
	if clusters := bundleClusters(b); clusters != nil {
		return importBundleCluster(p, clusters), nil
	}
	for _, name := range names {
		if acc, where := findServerlessGPU(asMap(jobs[name])); acc != "" {
			if err := readServerlessGPU(p, acc, "resources.jobs."+name+"."+where); err != nil {
				return nil, fmt.Errorf("mirror: %s: %w", path, err)
			}
			return p, nil
		}
	}
	for _, name := range names {
		if where := findServerless(asMap(jobs[name])); where != "" {
			readServerless(p, "resources.jobs."+name+"."+where)
			return p, nil
		}
	}
	return nil, fmt.Errorf("mirror: %s: a Databricks asset bundle without a cluster: expected new_cluster under resources.jobs.*.tasks[] or job_clusters[]; a job on an existing cluster (existing_cluster_id) says nothing of its shape", path)
}

// importBundleCluster reads the first of a bundle's all-purpose clusters.
func importBundleCluster(p *Profile, clusters map[string]any) *Profile {
	names := slices.Sorted(maps.Keys(clusters))
	if len(names) > 1 {
		p.warn(fmt.Sprintf("the bundle has %d clusters; using resources.clusters.%s", len(names), names[0]))
	}
	p.warn(fmt.Sprintf("using the cluster at resources.clusters.%s", names[0]))
	readDatabricksCluster(p, asMap(clusters[names[0]]))
	return p
}

// databricksHostCloud names the cloud of a workspace URL: *.cloud.databricks.com
// is AWS, *.azuredatabricks.net Azure, *.gcp.databricks.com Google Cloud.
func databricksHostCloud(host string) string {
	h := strings.ToLower(host)
	switch {
	case strings.Contains(h, ".azuredatabricks.net"):
		return "azure"
	case strings.Contains(h, ".gcp.databricks.com"):
		return "gcp"
	case strings.Contains(h, ".cloud.databricks.com"):
		return "aws"
	}
	return ""
}

// A dbx deployment file (conf/deployment.json or .yml of databrickslabs/dbx)
// names environments, each with jobs (or, in dbx 0.8, workflows) that are
// Jobs API specs; newer files put the environments under "environments".

// dbxJobs is the jobs of a dbx deployment's environment ("default" when it
// has one, else the first by name) and the environment's name, or nil.
func dbxJobs(m map[string]any) ([]any, string) {
	envs := m
	if e := asMap(m["environments"]); e != nil {
		envs = e
	}
	names := slices.Sorted(maps.Keys(envs))
	if i := slices.Index(names, "default"); i > 0 {
		names[0], names[i] = names[i], names[0]
	}
	for _, name := range names {
		env := asMap(envs[name])
		for _, key := range []string{"jobs", "workflows"} {
			jobs := asList(env[key])
			for _, j := range jobs {
				if jm := asMap(j); jm["new_cluster"] != nil || jm["job_clusters"] != nil || jm["tasks"] != nil {
					return jobs, name + "." + key
				}
			}
		}
	}
	return nil, ""
}

// importDBX reads the first job of a dbx deployment that has a cluster.
func importDBX(path string, jobs []any, where string) (*Profile, error) {
	p := newProfile(path, FormatDatabricks)
	p.Source.Platform = "databricks"
	for i, j := range jobs {
		job := asMap(j)
		cluster, at := findDatabricksCluster(job)
		if cluster == nil {
			continue
		}
		p.warn(fmt.Sprintf("dbx deployment: using the cluster at %s[%d] (%s).%s", where, i, str(job["name"]), at))
		readDatabricksCluster(p, cluster)
		readDatabricksLibraries(p, job)
		if t := p.Topology.WorkerType; strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
			p.warn(fmt.Sprintf("node_type_id %s is a placeholder; the worker type is unknown", t))
			p.Topology.WorkerType = ""
		}
		return p, nil
	}
	return nil, fmt.Errorf("mirror: %s: a dbx deployment (%s) without a cluster: expected new_cluster under its jobs, tasks[] or job_clusters[]", path, where)
}

func isDBX(m map[string]any) bool {
	jobs, _ := dbxJobs(m)
	return jobs != nil
}

// decodeYAMLMap is the first YAML document of data as a map, or nil.
func decodeYAMLMap(data []byte) map[string]any {
	var v any
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&v); err != nil {
		return nil
	}
	return asMap(v)
}
