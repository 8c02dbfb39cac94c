package dockerproxy

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildArgs: config.json's proxies as docker build passes them: the
// engine host's entry, else "default"; both cases; empty values left out.
func TestBuildArgs(t *testing.T) {
	const cfg = `{"proxies": {
  "default": {"httpProxy": "http://u:s3cret@proxy.corp:3128", "httpsProxy": "http://proxy.corp:3128", "noProxy": "localhost,.corp", "ftpProxy": ""},
  "tcp://gpubox:2376": {"httpsProxy": "http://gpubox-proxy:8080"}
}}`
	cases := []struct {
		name, config, host string
		want               map[string]string
	}{
		{"default entry", cfg, "unix:///var/run/docker.sock", map[string]string{
			"HTTP_PROXY": "http://u:s3cret@proxy.corp:3128", "http_proxy": "http://u:s3cret@proxy.corp:3128",
			"HTTPS_PROXY": "http://proxy.corp:3128", "https_proxy": "http://proxy.corp:3128",
			"NO_PROXY": "localhost,.corp", "no_proxy": "localhost,.corp"}},
		{"the engine host's own entry", cfg, "tcp://gpubox:2376", map[string]string{
			"HTTPS_PROXY": "http://gpubox-proxy:8080", "https_proxy": "http://gpubox-proxy:8080"}},
		{"no proxies", `{"auths": {}}`, "unix:///var/run/docker.sock", map[string]string{}},
		{"no config.json", "", "unix:///var/run/docker.sock", map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.config != "" {
				if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(tc.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := BuildArgs(dir, tc.host)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("BuildArgs = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBuildArgsUnreadable(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"proxies": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := BuildArgs(dir, "")
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Fatalf("BuildArgs = %v, want an error naming %s", err, dir)
	}
}
