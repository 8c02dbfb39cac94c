//go:build windows

package reconcile

import (
	"os"
	"path/filepath"
	"time"
)

// Lock serialises devenv runs that change one project with an exclusively
// created lock file (Windows has no flock).
func Lock(stateDir string, waiting func()) (func(), error) {
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(stateDir, "run.lock.d")
	told := false
	for {
		if err := os.Mkdir(path, 0o755); err == nil {
			return func() { os.Remove(path) }, nil
		}
		if !told && waiting != nil {
			waiting()
			told = true
		}
		time.Sleep(200 * time.Millisecond)
	}
}
