package mirror

import (
	_ "embed"
	"strings"
	"sync"
)

// deltaOSSConfs is open-source Delta Lake's spark.databricks.delta.*
// confs, from its sources (tables/delta-oss-confs.txt says which); a name
// ending in "." is a prefix.
//
//go:embed tables/delta-oss-confs.txt
var deltaOSSConfsText string

var deltaOSSConfs = sync.OnceValues(func() (map[string]bool, []string) {
	names, prefixes := map[string]bool{}, []string(nil)
	for _, line := range strings.Split(deltaOSSConfsText, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasSuffix(line, "."):
			prefixes = append(prefixes, line)
		default:
			names[line] = true
		}
	}
	return names, prefixes
})

// databricksOnlyKey says whether a spark.databricks.delta.* conf is one
// open-source Delta Lake does not define: the Databricks runtime alone
// reads it.
func databricksOnlyKey(key string) bool {
	if !strings.HasPrefix(key, "spark.databricks.delta.") {
		return false
	}
	names, prefixes := deltaOSSConfs()
	if names[key] {
		return false
	}
	for _, p := range prefixes {
		if strings.HasPrefix(key, p) {
			return false
		}
	}
	return true
}
