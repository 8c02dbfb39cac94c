package app

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRunnerBuildsWithTheDockerCLIsProxies: the runner up builds with
// carries config.json's proxies (DOCKER_CONFIG's), as docker build does.
func TestRunnerBuildsWithTheDockerCLIsProxies(t *testing.T) {
	cfg := t.TempDir()
	if err := os.WriteFile(filepath.Join(cfg, "config.json"), []byte(`{"proxies":{"default":{"httpsProxy":"http://proxy.corp:3128"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DOCKER_CONFIG", cfg)
	w := newWorld(t, optionalSpark, map[string]string{})
	p := w.open(t)
	if _, err := p.Engine(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := p.runner(nil).Proxies
	if got["HTTPS_PROXY"] != "http://proxy.corp:3128" || got["https_proxy"] != "http://proxy.corp:3128" || len(got) != 2 {
		t.Fatalf("runner proxies = %v, want config.json's https proxy in both cases", got)
	}
}
