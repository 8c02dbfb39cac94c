package images

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"

	"github.com/devenv-dev/devenv/internal/safefile"
	"github.com/devenv-dev/devenv/profiles"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

// commonTemplate holds the blocks every profile template shares.
const commonTemplate = "templates/common.tmpl"

// templateFile returns the embedded template of a built-in profile.
func templateFile(profile string) string { return "templates/" + profile + ".tmpl" }

var funcs = template.FuncMap{"shq": shellQuote, "envq": envQuote}

// Render returns the Dockerfile of the service: the profile's template filled
// from in, or for profile image with build: the user's own Dockerfile.
func Render(in Input) ([]byte, error) {
	if in.Resolved.Profile == profiles.Image {
		if in.UserDockerfileInline != "" {
			return []byte(in.UserDockerfileInline), nil
		}
		if in.UserDockerfile == "" {
			return nil, fmt.Errorf("service %q uses image %s as it is: there is no Dockerfile to render", in.Service, in.Base)
		}
		b, err := safefile.ReadFile(in.UserDockerfile, safefile.MaxConfig)
		if err != nil {
			return nil, fmt.Errorf("service %q: reading its Dockerfile: %w; check build: in devenv.yaml", in.Service, err)
		}
		return b, nil
	}
	_, dockerfile, err := recipeFor(in)
	return dockerfile, err
}

// recipeFor is in's template recipe and the Dockerfile it renders.
func recipeFor(in Input) (*recipe, []byte, error) {
	r, err := newRecipe(in)
	if err != nil {
		return nil, nil, err
	}
	dockerfile, err := renderRecipe(r, in.Service)
	if err != nil {
		return nil, nil, err
	}
	return r, dockerfile, nil
}

func renderRecipe(r *recipe, service string) ([]byte, error) {
	t, err := template.New("").Funcs(funcs).Option("missingkey=error").
		ParseFS(templateFS, commonTemplate, templateFile(r.Profile))
	if err != nil {
		return nil, fmt.Errorf("loading the %s Dockerfile template: %w", r.Profile, err)
	}
	var buf bytes.Buffer
	data := templateData{recipe: r, Service: service}
	if err := t.ExecuteTemplate(&buf, r.Profile+".tmpl", data); err != nil {
		return nil, fmt.Errorf("rendering the %s Dockerfile for service %q: %w", r.Profile, service, err)
	}
	return buf.Bytes(), nil
}

// templateData is what the templates see: the recipe plus derived values.
type templateData struct {
	*recipe
	Service string
}

// DiscoveryScript is the context name of the GPU discovery script.
func (templateData) DiscoveryScript() string { return DiscoveryScript }

// AptPackages is the full apt install list of the profile.
func (d templateData) AptPackages() []string {
	var pkgs []string
	switch d.Profile {
	case profiles.SparkRapids:
		// procps: ps and top, which Spark's own scripts (spark-daemon.sh)
		// and anyone debugging a job reach for.
		pkgs = append([]string{"ca-certificates", "procps", "tini"}, d.PythonApt...)
	default:
		if len(d.Certs) > 0 {
			pkgs = append(pkgs, "ca-certificates")
		}
	}
	return append(pkgs, d.Apt...)
}

// aptDir is where an apt step with mirrors.apt writes the sources it reads;
// the step removes it.
const aptDir = "/tmp/devenv-apt"

// aptArchive matches the scheme://host[:port] of a Debian or Ubuntu archive
// in a source entry (an extended regular expression for sed): the part
// mirrors.apt replaces.
const aptArchive = `[a-z+]+://([^/[:space:]]*\.)?(debian\.org|ubuntu\.com)(:[0-9]+)?`

// AptDir and AptArchive are the constants above, for the templates.
func (templateData) AptDir() string     { return aptDir }
func (templateData) AptArchive() string { return aptArchive }

// AptOptions are apt-get's options in the generated apt steps: with
// mirrors.apt, read the sources written under AptDir instead of the base's.
func (d templateData) AptOptions() string {
	if d.AptMirror == "" {
		return ""
	}
	return " -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=" + aptDir + "/sources.list.d"
}

// NeedsRoot reports whether system-wide changes (apt, CA certificates) are made.
func (d templateData) NeedsRoot() bool { return len(d.Apt) > 0 || len(d.Certs) > 0 }

// PipCmd is how the profile's image runs pip.
func (d templateData) PipCmd() string {
	switch d.Profile {
	case profiles.Triton:
		// Newer bases mark the system Python as externally managed (PEP 668).
		return "PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip"
	default:
		return "pip"
	}
}

// shellQuote quotes s as one POSIX shell word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// envQuote quotes s as a Dockerfile ENV value: double quotes, with \, " and $
// escaped so the builder takes it literally.
func envQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`)
	return `"` + r.Replace(s) + `"`
}
