package plan

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/safefile"
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

// MaxEnvLine is the longest env_file line devenv reads (1 MiB); a longer
// one is refused with its line number, as is a NUL byte, which no
// environment variable can hold.
const MaxEnvLine = 1 << 20

// ReadEnvFile reads KEY=VALUE lines (comments, blank lines, `export `,
// single or double quotes). Errors name the file and line, and are
// invalid-input errors (exit 2).
func ReadEnvFile(path string) (map[string]string, error) {
	data, err := safefile.ReadFile(path, safefile.MaxConfig)
	if err != nil {
		return nil, fmt.Errorf("env_file: %w", err)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), MaxEnvLine)
	n := 1
	for ; sc.Scan(); n++ {
		if err := envLine(out, sc.Text()); err != nil {
			return nil, exitcode.With(exitcode.Usage, fmt.Errorf("%s:%d: %w", path, n, err))
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return nil, exitcode.With(exitcode.Usage, fmt.Errorf("%s:%d: the line is longer than %d bytes; an env_file holds one short KEY=VALUE a line", path, n, MaxEnvLine))
	}
	return out, sc.Err()
}

// envLine reads one line of an env_file into out.
func envLine(out map[string]string, line string) error {
	if strings.IndexByte(line, 0) >= 0 {
		return errors.New("the line holds a NUL byte, which no environment variable can hold; is this a binary file?")
	}
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return nil
	}
	line = strings.TrimPrefix(line, "export ")
	k, v, ok := strings.Cut(line, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" || strings.ContainsAny(k, " \t") {
		return errors.New("not KEY=VALUE; write one variable a line, e.g. TZ=UTC")
	}
	out[k] = unquote(strings.TrimSpace(v))
	return nil
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}
