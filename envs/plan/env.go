package plan

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/devenv-dev/devenv/internal/safefile"
	"strings"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/profiles"
)

// serviceEnv merges, lowest first: the profile's env, env_file, env:.
func serviceEnv(p *spec.Project, s *spec.Service, res profiles.Resolved) (map[string]string, error) {
	env := map[string]string{}
	for k, v := range res.Env {
		env[k] = v
	}
	if s.EnvFile != "" && !s.EnvFileMissing() {
		fromFile, err := ReadEnvFile(s.EnvFile)
		if err != nil {
			return nil, err
		}
		for k, v := range fromFile {
			env[k] = v
		}
	}
	for k, v := range s.Env {
		env[k] = v
	}
	return env, nil
}

// ReadEnvFile reads KEY=VALUE lines (comments, blank lines, `export `,
// single or double quotes). Errors name the file and line.
func ReadEnvFile(path string) (map[string]string, error) {
	data, err := safefile.ReadFile(path, safefile.MaxConfig)
	if err != nil {
		return nil, fmt.Errorf("env_file: %w", err)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("%s:%d: not KEY=VALUE; write one variable a line, e.g. TZ=UTC", path, n)
		}
		out[k] = unquote(strings.TrimSpace(v))
	}
	return out, sc.Err()
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}
