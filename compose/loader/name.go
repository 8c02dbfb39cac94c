package loader

import (
	"fmt"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	cgloader "github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/template"
	"go.yaml.in/yaml/v3"

	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// Declared is the project name the compose files state with a top-level
// name:, and where.
type Declared struct {
	Name string // "" when no file states one
	File string // absolute
	Line int
}

// At renders where the name is stated, relative to projectDir where it
// is inside it: "deploy/compose.yaml:1".
func (d Declared) At(projectDir string) string {
	file := d.File
	if r, ok := projpath.Within(projectDir, file); ok {
		file = r
	}
	return fmt.Sprintf("%s:%d", file, d.Line)
}

// DeclaredName is the project name the compose files state, as Compose
// takes it when no -p or COMPOSE_PROJECT_NAME is given: the top-level
// name: of the last file that states one (an override's wins; files
// that include: names do not name the project), interpolated from the
// environment and .env, normalized as compose-go normalizes it (lower
// case, only a-z 0-9 _ -). A file that does not read or parse states no
// name here: the load reports it.
func DeclaredName(files []string, projectDir string) (Declared, error) {
	var d Declared
	var raw string
	for _, f := range files {
		name, line := topLevelName(f)
		if name != "" {
			raw, d.File, d.Line = name, f, line
		}
	}
	if raw == "" {
		return Declared{}, nil
	}
	name := raw
	if strings.Contains(raw, "$") {
		var err error
		if name, err = interpolateName(raw, files, projectDir); err != nil {
			return Declared{}, exitcode.Newf(exitcode.Usage, "%s: name: %v", d.At(projectDir), err)
		}
	}
	d.Name = cgloader.NormalizeProjectName(name)
	if d.Name == "" {
		return Declared{}, nil // Compose then names the project after the directory too
	}
	return d, nil
}

// topLevelName is file's top-level name: and its line; "" when it states
// none.
func topLevelName(file string) (string, int) {
	data, err := safefile.ReadFile(file, safefile.MaxConfig)
	if err != nil {
		return "", 0
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return "", 0
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return "", 0
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k, v := root.Content[i], root.Content[i+1]; k.Value == "name" && v.Kind == yaml.ScalarNode {
			return v.Value, k.Line
		}
	}
	return "", 0
}

// interpolateName resolves ${VAR} in a name: from the environment, then
// the .env beside the first compose file, as Compose reads them.
func interpolateName(raw string, files []string, projectDir string) (string, error) {
	o, err := cli.NewProjectOptions(files,
		cli.WithWorkingDirectory(projpath.ComposeDir(files, projectDir)),
		cli.WithOsEnv,
		cli.WithEnvFiles(),
		cli.WithDotEnv,
	)
	if err != nil {
		return "", err
	}
	return template.Substitute(raw, func(k string) (string, bool) {
		v, ok := o.Environment[k]
		return v, ok
	})
}
