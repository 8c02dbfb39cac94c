package mirror

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// A Databricks asset bundle (databricks.yml, resources/*.yml) describes
// jobs under resources.jobs.<name>, each a jobs spec whose clusters sit at
// job_clusters[].new_cluster or tasks[].new_cluster, as in the Jobs API;
// workspace.host names the cloud.

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

// decodeBundle reads a bundle's YAML (its first document).
func decodeBundle(data []byte) (map[string]any, bool) {
	var v any
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&v); err != nil {
		return nil, false
	}
	m := asMap(v)
	return m, bundleJobs(m) != nil
}

// importBundle reads the first job (by name) that has a cluster.
func importBundle(path string, b map[string]any) (*Profile, error) {
	jobs := bundleJobs(b)
	p := newProfile(path, FormatDatabricks)
	p.Source.Platform = "databricks"
	p.Source.Cloud = databricksHostCloud(str(asMap(b["workspace"])["host"]))
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
	return nil, fmt.Errorf("mirror: %s: a Databricks asset bundle without a cluster: expected new_cluster under resources.jobs.*.tasks[] or job_clusters[]; a job on an existing cluster (existing_cluster_id) says nothing of its shape", path)
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
