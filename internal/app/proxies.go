package app

import (
	"os"

	"github.com/devenv-dev/devenv/internal/dockerproxy"
	"github.com/devenv-dev/devenv/internal/engine"
)

// buildProxies are the docker CLI's proxies for the engine devenv builds
// on (config.json's entry of its host, else "default"), as build
// arguments; a config.json that does not read is a warning, and the
// builds go without proxies.
func (p *Project) buildProxies() map[string]string {
	if p.eng == nil {
		return nil
	}
	host := ""
	if e := engine.EndpointOf(p.eng); e != nil {
		host = e.Host
	}
	args, err := dockerproxy.BuildArgs(os.Getenv("DOCKER_CONFIG"), host) // "" is ~/.docker
	if err != nil {
		p.out.Warn("%v; images build without the proxies it may name", err)
		return nil
	}
	return args
}
