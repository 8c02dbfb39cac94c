// Package dockerproxy reads the proxies of the docker CLI's config.json
// (`{"proxies": {"default": {"httpProxy": ...}}}`) as docker build and
// Compose pass them to builds: the entry of the engine's host, else
// "default"; each set value as both HTTP_PROXY and http_proxy (and HTTPS,
// NO, FTP, ALL). Like docker build and Compose, devenv passes the
// environment's HTTP_PROXY to no build: the environment is the docker
// CLI's own route to the engine, and the build runs on the engine.
//
// The values may hold credentials (http://user:password@proxy:3128).
// They are predefined build arguments, which the engine's builder keeps
// out of the image history unless a Dockerfile declares them with ARG;
// devenv writes them to no lock, log or export, and they are no input
// of an image's hash, so a changed proxy rebuilds nothing.
package dockerproxy

import (
	"fmt"

	"github.com/docker/cli/cli/config"
	"github.com/docker/cli/cli/config/configfile"
)

// BuildArgs returns the build arguments that the docker CLI's config.json
// in configDir ("" for DOCKER_CONFIG, else ~/.docker) gives builds on the
// engine at daemonHost (as the endpoint writes it, e.g.
// unix:///var/run/docker.sock). No config.json is no proxies; one that
// does not read is an error naming it.
func BuildArgs(configDir, daemonHost string) (map[string]string, error) {
	if configDir == "" {
		configDir = config.Dir()
	}
	cfg, err := config.Load(configDir)
	if err != nil {
		return nil, fmt.Errorf("read the proxies of the docker CLI's configuration in %s: %w", configDir, err)
	}
	return FromConfig(cfg, daemonHost), nil
}

// FromConfig is BuildArgs of a loaded config.json.
func FromConfig(cfg *configfile.ConfigFile, daemonHost string) map[string]string {
	out := map[string]string{}
	for k, v := range cfg.ParseProxyConfig(daemonHost, nil) {
		if v != nil && *v != "" {
			out[k] = *v
		}
	}
	return out
}
