package mirror

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

var rollingEventsRe = lazy.Regexp(`^events_(\d+)_`)

// eventLogFiles lists the files of an event log in reading order: the file
// itself, the events_N_* files of an eventlog_v2_* directory by N, or a
// Databricks directory's dated eventlog-* files followed by eventlog.
func eventLogFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("mirror: cannot read %s: %w", path, err)
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("mirror: cannot list %s: %w", path, err)
	}
	type numbered struct {
		n    int
		name string
	}
	var rolling []numbered
	var dbx []string
	current := ""
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue // subdirectories, and links that could lead out of the project
		}
		name := e.Name()
		if m := rollingEventsRe().FindStringSubmatch(name); m != nil {
			n, _ := strconv.Atoi(m[1])
			rolling = append(rolling, numbered{n, name})
		} else if name == "eventlog" {
			current = name
		} else if strings.HasPrefix(name, "eventlog-") {
			dbx = append(dbx, name)
		}
	}
	var files []string
	if len(rolling) > 0 {
		sort.Slice(rolling, func(i, j int) bool { return rolling[i].n < rolling[j].n })
		for _, r := range rolling {
			files = append(files, filepath.Join(path, r.name))
		}
		return files, nil
	}
	sort.Strings(dbx) // eventlog-YYYY-MM-DD--HH-MM sorts by time
	for _, f := range dbx {
		files = append(files, filepath.Join(path, f))
	}
	if current != "" {
		files = append(files, filepath.Join(path, current))
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("mirror: %s is a directory without event log files (expected events_<n>_<app id> files of an eventlog_v2_* directory, or Databricks eventlog files); pass a file or a rolling event log directory", path)
	}
	return files, nil
}
