//go:build !windows

package reconcile

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Lock serialises devenv runs that change one project (two `devenv up` at
// once): it takes an exclusive lock on <state>/run.lock, waiting while
// another devenv holds it. The returned func releases it.
func Lock(stateDir string, waiting func()) (func(), error) {
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(stateDir, "run.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if waiting != nil {
			waiting()
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
		}
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}
