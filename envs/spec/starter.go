package spec

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"sync"
	"text/template"

	"go.yaml.in/yaml/v3"
)

//go:embed starters/*.yaml.tmpl
var starterFS embed.FS

// starters are parsed on first use, not at start-up of every command.
var starters = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{"scalar": yamlScalar}).ParseFS(starterFS, "starters/*.yaml.tmpl"))
})

// yamlScalar is s written as a YAML string: plain where YAML reads it
// back as that string, quoted where it would read a number, a boolean or
// null (a project in a directory called 002, true or 1e3).
func yamlScalar(s string) (string, error) {
	b, err := yaml.Marshal(s)
	return strings.TrimSuffix(string(b), "\n"), err
}

// Starter returns the commented devenv.yaml that devenv init writes for a
// project called name, using one built-in profile ("" means spark-rapids).
func Starter(name, profile string) ([]byte, error) {
	if profile == "" {
		profile = BuiltinProfiles[0]
	}
	if !isBuiltin(profile) {
		return nil, fmt.Errorf("no starter for profile %q%s; choose one of: %s", profile, didYouMean(profile, BuiltinProfiles), strings.Join(BuiltinProfiles, ", "))
	}
	if !projectNameRE().MatchString(name) {
		return nil, fmt.Errorf("project name %q is not valid; use lower-case letters, digits, '-' and '_', e.g. %q", name, DockerName(name))
	}
	var b bytes.Buffer
	data := map[string]string{"Name": name, "Volumes": starterVolumes[profile]}
	if err := starters().ExecuteTemplate(&b, profile+".yaml.tmpl", data); err != nil {
		return nil, fmt.Errorf("starter for %s: %w", profile, err)
	}
	return b.Bytes(), nil
}

// starterVolumes is the volumes: line a starter writes out, by profile:
// Triton needs its model repository, which StarterDirs creates.
var starterVolumes = map[string]string{
	"triton": `["./models:/models:ro"]`,
}

// StarterDirs are the project folders a profile's starter mounts, which
// devenv init creates next to devenv.yaml so that up can bind them.
func StarterDirs(profile string) []string {
	if profile == "triton" {
		return []string{"models"}
	}
	return nil
}
