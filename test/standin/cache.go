package standin

import (
	"os"
	"path/filepath"
	"testing"
)

// CacheDir returns the directory that keeps stand-in artifacts between test
// runs: $DEVENV_TEST_CACHE, or ~/.cache/devenv-test when that is unset. It is
// created when missing.
func CacheDir(t testing.TB) string {
	t.Helper()
	dir, err := cacheDir()
	if err != nil {
		t.Fatalf("standin: %v", err)
	}
	return dir
}

// CacheDirectory is CacheDir for a program: the error is its caller's.
func CacheDirectory() (string, error) { return cacheDir() }

func cacheDir() (string, error) {
	dir := os.Getenv("DEVENV_TEST_CACHE")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", errorf("cannot find the test cache: set DEVENV_TEST_CACHE to a writable directory (%v)", err)
		}
		dir = filepath.Join(home, ".cache", "devenv-test")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", errorf("cannot create the test cache %s: %v; set DEVENV_TEST_CACHE to a writable directory", dir, err)
	}
	return dir, nil
}
