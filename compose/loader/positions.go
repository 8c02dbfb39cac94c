package loader

import (
	"fmt"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// place is where something was written in a compose file.
type place struct {
	file      string // absolute
	line, col int
}

// positions remembers, per service, where the service and each of its
// top-level keys were written, so errors can point at file:line:col.
type positions struct {
	projectDir string
	service    map[string]place            // service name -> its key
	keys       map[string]map[string]place // service name -> key -> place
}

// readPositions scans the compose files for services: and their keys. A file
// that does not parse is skipped here: compose-go reports it properly.
func readPositions(files []string, projectDir string) *positions {
	p := &positions{projectDir: projectDir, service: map[string]place{}, keys: map[string]map[string]place{}}
	for _, f := range files {
		data, err := safefile.ReadFile(f, safefile.MaxConfig)
		if err != nil {
			continue
		}
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
			continue
		}
		services := mapValue(doc.Content[0], "services")
		if services == nil || services.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(services.Content); i += 2 {
			p.add(f, services.Content[i], services.Content[i+1])
		}
	}
	return p
}

func (p *positions) add(file string, key, body *yaml.Node) {
	name := key.Value
	p.service[name] = place{file, key.Line, key.Column}
	if p.keys[name] == nil {
		p.keys[name] = map[string]place{}
	}
	if body.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(body.Content); i += 2 {
		k := body.Content[i]
		p.keys[name][k.Value] = place{file, k.Line, k.Column}
	}
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// fileOf is the file that defines the service last.
func (p *positions) fileOf(service string) string { return p.service[service].file }

// at renders where service's key was written ("compose.yaml:12:5"), the
// service's own key when the key was not found (set by an override or
// extends), or the file alone.
func (p *positions) at(service, key string) string {
	pl, ok := p.keys[service][key]
	if !ok {
		pl, ok = p.service[service]
	}
	if !ok {
		return "compose files"
	}
	return fmt.Sprintf("%s:%d:%d", p.rel(pl.file), pl.line, pl.col)
}

func (p *positions) rel(file string) string {
	if r, ok := projpath.Within(p.projectDir, file); ok {
		return filepath.FromSlash(r)
	}
	return file
}

// problem formats one finding about a service's key with its place.
func (p *positions) problem(service, key, format string, args ...any) string {
	return fmt.Sprintf("%s: service %q: %s", p.at(service, key), service, fmt.Sprintf(format, args...))
}
