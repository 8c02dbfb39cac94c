package spec

import (
	"path/filepath"

	"github.com/devenv-dev/devenv/profiles"
)

// DefaultHostIP is where ports are published unless an IP is written.
const DefaultHostIP = "127.0.0.1"

// applyDefaults fills what the user left out; it runs only on a valid file.
func (l *loader) applyDefaults() {
	p := l.p
	if p.Name == "" {
		p.Name = DockerName(filepath.Base(p.Dir))
	}
	for _, t := range l.services {
		s := t.s
		if s.GPU == "" {
			s.GPU = "required"
		}
		if !s.GPUs.Set && l.p.BaseProfile(s) != profiles.Image {
			s.GPUs.Count = 1
		}
		for i := range s.Ports {
			if s.Ports[i].HostIP == "" {
				s.Ports[i].HostIP = DefaultHostIP
			}
			if s.Ports[i].Host == 0 {
				s.Ports[i].Host = s.Ports[i].Container
			}
		}
		p.Services = append(p.Services, s)
	}
}
