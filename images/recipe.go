package images

import (
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/hashicorp/go-multierror"

	"github.com/devenv-dev/devenv/internal/lazy"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/profiles"
)

// recipe is what a template needs, derived from an Input and checked.
type recipe struct {
	Base    string
	Profile string

	// spark-rapids
	Java       string   // JDK major version, e.g. "17"
	PythonExe  string   // interpreter the venv is made from: "python3" or "python3.11"
	PythonApt  []string // apt packages providing it
	Spark      contextFile
	RapidsJar  contextFile
	Jars       []contextFile // extra jars for $SPARK_HOME/jars
	Jupyter    bool
	JupyterLab string // the locked release, installed when Jupyter

	Extras       []string // Extra names besides DiscoveryScript, sorted
	Requirements bool
	Apt          []string // custom apt packages
	Pip          []string // custom pip requirement specifiers
	Env          []envVar // custom env, sorted by name
	Certs        []string // CA certificate file names under certs/ in the context

	// UID and GID are the image user's ids (spark-rapids: devenv).
	UID, GID int

	artifacts []artifactImage // the artifact images the Dockerfile copies from

	PipIndexEnv    string // index URL safe to bake into ENV
	PipIndexArg    bool   // index URL carries credentials: reached through credproxy, a build arg
	PipTrustedHost string // host of a plain-http index

	AptMirror string // mirrors.apt, checked by sources.APTMirrorProblem; "" for the base's sources
}

// contextFile is an artifact as the Dockerfile sees it: copied from its
// artifact image.
type contextFile struct {
	Name   string
	SHA256 string
	Image  string // the artifact image's tag
	From   string // the path to copy from it
}

func artifactFile(f File, unpack bool) contextFile {
	a := newArtifactImage(f, unpack)
	return contextFile{Name: f.Name, SHA256: f.SHA256, Image: a.Tag, From: a.From()}
}

type envVar struct{ Key, Value string }

// Context paths of the declared inputs.
const (
	artifactDir      = "artifacts"
	extraDir         = "extra"
	certDir          = "certs"
	requirementsName = "requirements.txt"
	dockerfileName   = "Dockerfile"
)

var (
	sha256Hex   = lazy.Regexp(`^[0-9a-f]{64}$`)
	aptName     = lazy.Regexp(`^[a-z0-9][a-z0-9+.\-]*(:[a-z0-9]+)?(=[A-Za-z0-9.+~:\-]+)?$`)
	envKey      = lazy.Regexp(`^[A-Za-z_][A-Za-z0-9_]*$`)
	majorNumber = lazy.Regexp(`^[0-9]+$`)
	pyVersion   = lazy.Regexp(`^3\.[0-9]+$`)
	pipVersion  = lazy.Regexp(`^[0-9]+(\.[0-9]+)*$`)
	certUnsafe  = lazy.Regexp(`[^A-Za-z0-9._-]+`)
)

// newRecipe checks in and derives the template data, reporting every problem
// at once.
func newRecipe(in Input) (*recipe, error) {
	var errs *multierror.Error
	add := func(format string, a ...any) { errs = multierror.Append(errs, fmt.Errorf(format, a...)) }
	r := &recipe{Base: in.Base, Profile: in.Resolved.Profile, Jupyter: in.Jupyter, JupyterLab: in.JupyterLab,
		Requirements: in.RequirementsPath != "", UID: DefaultUser.UID, GID: DefaultUser.GID}
	if in.User != nil {
		r.UID, r.GID = in.User.UID, in.User.GID
		if r.UID < 0 || r.GID < 0 {
			add("service %q: image user ids %d:%d must not be negative", in.Service, r.UID, r.GID)
		}
	}
	if strings.TrimSpace(in.Base) == "" || strings.ContainsAny(in.Base, " \t\r\n") {
		add("service %q: base image reference %q is empty or has spaces; run `devenv lock` to pin it", in.Service, in.Base)
	}
	switch r.Profile {
	case profiles.SparkRapids:
		sparkRecipe(r, in, add)
	case profiles.Rapids, profiles.Triton:
		otherFiles(r, in, add)
	default:
		add("service %q: profile %q has no Dockerfile template (want %s, %s or %s)",
			in.Service, r.Profile, profiles.SparkRapids, profiles.Rapids, profiles.Triton)
	}
	customRecipe(r, in, add)
	pipIndexRecipe(r, in, add)
	aptMirrorRecipe(r, in, add)
	return r, errs.ErrorOrNil()
}

type addFunc func(format string, a ...any)

func sparkRecipe(r *recipe, in Input, add addFunc) {
	r.Java = in.Resolved.Java
	if !majorNumber().MatchString(r.Java) {
		add("service %q: resolved Java %q is not a JDK major version like \"17\"; run `devenv lock` again", in.Service, r.Java)
	}
	if r.Jupyter && !pipVersion().MatchString(r.JupyterLab) {
		add("service %q: JupyterLab's version %q is not pinned in devenv.lock; run `devenv lock`", in.Service, r.JupyterLab)
	}
	r.PythonExe, r.PythonApt = pythonPackages(in.Resolved)
	if in.Resolved.Python != "" && !pyVersion().MatchString(in.Resolved.Python) {
		add("service %q: resolved Python %q is not a version like \"3.11\"", in.Service, in.Resolved.Python)
	}
	roles := artifactRoles(in.Resolved.Artifacts)
	for _, f := range in.Files {
		checkFile(f, in.Service, add)
		switch role := roles[f.Name]; {
		case role == ArtifactSpark:
			r.Spark = artifactFile(f, true)
			r.artifacts = append(r.artifacts, newArtifactImage(f, true))
		case role == ArtifactRapidsJar:
			r.RapidsJar = artifactFile(f, false)
			r.artifacts = append(r.artifacts, newArtifactImage(f, false))
		case strings.HasPrefix(role, "jar:") || (role == "" && strings.HasSuffix(f.Name, ".jar")):
			r.Jars = append(r.Jars, artifactFile(f, false))
			r.artifacts = append(r.artifacts, newArtifactImage(f, false))
		default:
			add("service %q: artifact file %q is neither the Spark distribution, the RAPIDS jar nor a jar; remove it from the build input", in.Service, f.Name)
		}
	}
	if r.Spark.Name == "" {
		add("service %q: no Spark distribution among the artifact files (artifact %q); run `devenv lock` to fetch it", in.Service, ArtifactSpark)
	}
	if r.RapidsJar.Name == "" {
		add("service %q: no RAPIDS Accelerator jar among the artifact files (artifact %q); run `devenv lock` to fetch it", in.Service, ArtifactRapidsJar)
	}
	if _, ok := in.Extra[DiscoveryScript]; !ok {
		add("service %q: the GPU discovery script %s is missing from the generated files", in.Service, DiscoveryScript)
	}
	r.Extras = extraNames(in, add)
}

// otherFiles handles profiles that take no artifacts.
func otherFiles(r *recipe, in Input, add addFunc) {
	for _, f := range in.Files {
		add("service %q: profile %s takes no artifact files, got %q", in.Service, r.Profile, f.Name)
	}
	r.Extras = extraNames(in, add)
}

func artifactRoles(arts []profiles.Artifact) map[string]string {
	roles := make(map[string]string, len(arts))
	for _, a := range arts {
		roles[a.File] = a.Name
	}
	return roles
}

func checkFile(f File, service string, add addFunc) {
	if !plainName(f.Name) {
		add("service %q: artifact file name %q must be a plain file name", service, f.Name)
	}
	if !sha256Hex().MatchString(f.SHA256) {
		add("service %q: artifact %q has sha256 %q, want 64 lower-case hex digits; run `devenv lock` again", service, f.Name, f.SHA256)
	}
	if f.Path == "" {
		add("service %q: artifact %q has no local path; run `devenv lock` to download it", service, f.Name)
	}
}

// extraNames returns the Extra names other than the discovery script, sorted.
func extraNames(in Input, add addFunc) []string {
	var names []string
	for name := range in.Extra {
		if !plainName(name) {
			add("service %q: generated file name %q must be a plain file name", in.Service, name)
			continue
		}
		if name != DiscoveryScript {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

func plainName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\\\x00\n\r")
}

func customRecipe(r *recipe, in Input, add addFunc) {
	for _, p := range in.Resolved.Apt {
		if !aptName().MatchString(p) {
			add("service %q: apt package %q is not a Debian package name (like \"curl\" or \"curl=7.81.0-1\")", in.Service, p)
		}
	}
	r.Apt = in.Resolved.Apt
	for _, p := range in.Resolved.Pip {
		if strings.TrimSpace(p) == "" || strings.ContainsAny(p, "\x00\n\r") {
			add("service %q: pip requirement %q is empty or spans lines", in.Service, p)
		}
	}
	r.Pip = in.Resolved.Pip
	for k, v := range in.Resolved.Env {
		if !envKey().MatchString(k) {
			add("service %q: env name %q must be letters, digits and _ and not start with a digit", in.Service, k)
		}
		if strings.ContainsAny(v, "\x00\n\r") {
			add("service %q: env %s has a line break in its value; use one line", in.Service, k)
		}
		r.Env = append(r.Env, envVar{k, v})
	}
	sort.Slice(r.Env, func(i, j int) bool { return r.Env[i].Key < r.Env[j].Key })
	for i, c := range in.Resolved.CACerts {
		r.Certs = append(r.Certs, certName(i, c))
	}
}

// certName is the context file name of the i-th CA certificate; the .crt
// suffix is what update-ca-certificates looks for.
func certName(i int, p string) string {
	base := strings.TrimSuffix(path.Base(strings.ReplaceAll(p, "\\", "/")), path.Ext(p))
	return fmt.Sprintf("%02d-%s.crt", i, certUnsafe().ReplaceAllString(base, "_"))
}

func pipIndexRecipe(r *recipe, in Input, add addFunc) {
	if in.PipIndexURL == "" {
		return
	}
	u, err := url.Parse(in.PipIndexURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		add("PyPI mirror %q is not an http(s) URL; fix mirrors.pypi in devenv.yaml or DEVENV_MIRROR_PYPI", redact(in.PipIndexURL))
		return
	}
	if u.User != nil {
		r.PipIndexArg = true // the build gets a credential-free proxy URL
		return
	}
	r.PipIndexEnv = in.PipIndexURL
	if u.Scheme == "http" {
		r.PipTrustedHost = u.Hostname()
	}
}

func aptMirrorRecipe(r *recipe, in Input, add addFunc) {
	if in.AptMirror == "" {
		return
	}
	if why := sources.APTMirrorProblem(in.AptMirror); why != "" {
		add("the apt mirror %s; fix mirrors.apt in devenv.yaml or DEVENV_MIRROR_APT", why)
		return
	}
	r.AptMirror = strings.TrimRight(in.AptMirror, "/")
}

// redact hides the password of a URL for messages.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "<unparsable URL>"
	}
	return u.Redacted()
}

// pythonPackages picks the interpreter for a spark-rapids image: the base's
// own python3 unless the resolved Python differs from the base OS default.
func pythonPackages(res profiles.Resolved) (exe string, apt []string) {
	want := res.Python
	if want == "" || want == profiles.BaseOSPython(res.BaseImage) {
		return "python3", []string{"python3", "python3-venv"}
	}
	exe = "python" + want
	return exe, []string{exe, exe + "-venv"}
}
