package export

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/projpath"
	"go.yaml.in/yaml/v3"
)

// ComposeFileName is the file `devenv export compose -o` suggests and the
// devcontainer export points at.
const ComposeFileName = "compose.devenv.yaml"

// Compose writes the Compose project devenv runs (project.FromPlan: the
// same services, container names, labels, ports, mounts, GPU reservations
// and generated files as configs with their content), serialised by
// compose-go, so that `docker compose` loading the file computes the same
// config hash per service as devenv's project and neither recreates the
// other's containers. Where it differs from FromPlan's value it differs
// only in what Compose resolves back at load time, so the hashes still
// agree when the file is loaded from the project directory:
//
//   - variables whose values come from an env_file are left out of
//     environment: and the service refers to the file (env_file:), which
//     Compose merges back under environment:, so no value read from the
//     file lands in the export;
//   - secrets devenv makes (JUPYTER_TOKEN) are ${VAR:?hint} references,
//     and a compose service's entries written as ${VAR} stay as written,
//     so Compose reads them from the shell and .env;
//   - paths inside the project directory are written ./relative, which
//     Compose resolves against the project directory;
//   - every other $ is written $$, so Compose does not interpolate it;
//   - the network and volumes are not external: `docker compose up` with
//     this file alone makes them (with devenv's labels) when they are missing.
//
// proj is project.FromPlan(pl) with the project directory as its working
// directory and not external (rendered(pl); the caller renders it once for
// this export and its own use).
func Compose(pl *plan.Plan, proj *types.Project, lf *lock.File) ([]byte, error) {
	es, err := entries(pl, proj)
	if err != nil {
		return nil, err
	}
	byName := map[string]entry{}
	for _, e := range es {
		byName[e.name] = e
	}
	dir := projectDir(pl)
	// a deep copy: FromPlan shares maps and slices with the plan (a
	// compose service's with compose-go's value), which stay as they are
	proj, err = proj.WithServicesTransform(func(_ string, s types.ServiceConfig) (types.ServiceConfig, error) { return s, nil })
	if err != nil {
		return nil, err
	}
	raw := map[string]map[string]string{} // service -> variable -> value written as is
	for name, svc := range proj.Services {
		e := byName[name]
		svc.Image = exportedImage(pl, name, svc)
		optional := optionalEnvFiles(svc.EnvFiles)
		svc.EnvFiles = nil // written anew, relative (referEnvFiles)
		referEnvFiles(&svc, e, dir, optional)
		raw[name] = referVariables(&svc, e)
		relativePaths(&svc, dir)
		proj.Services[name] = svc
	}
	data, err := proj.MarshalYAML()
	if err != nil {
		return nil, fmt.Errorf("writing project %s as YAML: %w", pl.Project, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("reading back project %s as YAML: %w", pl.Project, err)
	}
	if len(doc.Content) != 1 {
		return nil, fmt.Errorf("project %s as YAML is not one document", pl.Project)
	}
	root := doc.Content[0]
	escapeValues(root)
	services := valueOf(root, "services")
	for name, vars := range raw {
		env := valueOf(valueOf(services, name), "environment")
		for k, v := range vars {
			if n := valueOf(env, k); n != nil {
				n.Value, n.Style = v, 0
			}
		}
	}
	for name, e := range byName {
		args := valueOf(valueOf(valueOf(services, name), "build"), "args")
		for k, v := range e.rawArgs {
			if n := valueOf(args, k); n != nil {
				n.Value, n.Style = v, 0 // as the file wrote it, read by compose at load
			}
		}
	}
	keepLeadingNewlines(root) // after the values written as is, which may start with one too
	shortEnvFiles(services)
	commentServices(services, byName, lf != nil)
	root.HeadComment = composeHeader(pl, lf)
	return encodeYAML(&doc)
}

// exportedImage is the image the file names for service name: a compose
// service with build: names the image devenv builds and runs for it
// (images.Tag, as reconcile renders it), so that docker compose finds it
// and neither tool recreates the other's container for an image name; an
// image pulled through a registry mirror is named as devenv.lock records
// it (Mirrored), so the file runs on any machine.
func exportedImage(pl *plan.Plan, name string, svc types.ServiceConfig) string {
	ps := pl.Service(name)
	switch {
	case ps == nil:
		return svc.Image
	case ps.Build != nil && svc.Build != nil:
		return ps.Image
	}
	if canon, ok := Mirrored(pl, ps); ok {
		return canon
	}
	return svc.Image
}

// Mirrored is the image reference devenv.lock records for a service that
// this machine pulls through a registry mirror (127.0.0.1:5055/nvidia/
// cuda@sha256:... is nvcr.io/nvidia/cuda@sha256:...), and whether it is
// one.
func Mirrored(pl *plan.Plan, ps *plan.Service) (string, bool) {
	ls := lockedService(pl, ps.Name)
	if ps.Build != nil || ls == nil || ls.Base == nil || ls.Base.Local {
		return "", false
	}
	canon := ls.Base.Pinned()
	if ps.Image == canon || ps.Image != pl.Mirrors.Image(canon) {
		return "", false
	}
	return canon, true
}

// referEnvFiles takes the variables whose values come from the service's
// env_files out of its environment and refers to the files instead.
// Compose merges the files under environment: when it loads the project,
// which gives back FromPlan's environment.
// optional names the files (absolute) that the compose file marks
// required: false, which stay optional.
func referEnvFiles(svc *types.ServiceConfig, e entry, dir string, optional map[string]bool) {
	if len(e.envFiles) == 0 {
		return
	}
	for k := range fromEnvFiles(e, svc.Environment) {
		delete(svc.Environment, k)
	}
	if len(svc.Environment) == 0 {
		svc.Environment = nil
	}
	for _, f := range e.envFiles {
		svc.EnvFiles = append(svc.EnvFiles, types.EnvFile{Path: projectRel(f, dir), Required: types.OptOut(!optional[f])})
	}
}

// optionalEnvFiles are the paths of files that compose-go's value of a
// service marks required: false (a devenv service's env_file is always
// required).
func optionalEnvFiles(files []types.EnvFile) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		if !f.Required {
			out[f.Path] = true
		}
	}
	return out
}

// fromEnvFiles are the variables of env that the service's env_files give
// it. A compose service's are compose-go's own record; a devenv service's
// are the file's variables that still hold the file's value (devenv.yaml's
// env: and devenv's own variables, such as SPARK_CONF_DIR, win over the
// file and are written).
func fromEnvFiles(e entry, env types.MappingWithEquals) map[string]bool {
	if e.profile == lock.ComposeProfile || e.fromFile != "" {
		return e.fileKeys
	}
	out := map[string]bool{}
	for _, f := range e.envFiles {
		values, err := plan.ReadEnvFile(f)
		if err != nil {
			continue // the plan took nothing from it either
		}
		for k := range e.fileKeys {
			if v, ok := values[k]; ok && env[k] != nil && *env[k] == v {
				out[k] = true
			}
		}
	}
	return out
}

// secretEnv are variables whose values devenv keeps out of files: the
// export refers to the environment instead, and compose refuses to start
// until they are set.
var secretEnv = map[string]string{
	"JUPYTER_TOKEN": "${JUPYTER_TOKEN:?set JUPYTER_TOKEN, e.g. export JUPYTER_TOKEN=$$(cat .devenv/jupyter-token)}",
}

// referVariables replaces the values Compose must read from the shell and
// .env at load time with references: devenv's secrets, and a compose
// service's entries written as ${VAR}. It returns them, to be written as
// they are (not escaped).
func referVariables(svc *types.ServiceConfig, e entry) map[string]string {
	out := map[string]string{}
	for k, ref := range secretEnv {
		if _, ok := svc.Environment[k]; ok {
			out[k] = ref
		}
	}
	for k, v := range e.rawEnv {
		if _, ok := svc.Environment[k]; ok {
			out[k] = v
		}
	}
	for k, v := range out {
		svc.Environment[k] = &v
	}
	return out
}

// relativePaths writes the service's paths inside the project directory
// as ./relative: bind mount sources, env_files and a build context.
func relativePaths(svc *types.ServiceConfig, dir string) {
	for i, v := range svc.Volumes {
		if v.Type == types.VolumeTypeBind {
			svc.Volumes[i].Source = projectRel(v.Source, dir)
		}
	}
	if svc.Build != nil {
		svc.Build.Context = projectRel(svc.Build.Context, dir)
	}
}

// projectRel writes a path inside the project directory as ./relative
// (the directory itself as "."), and any other path as it is.
func projectRel(p, dir string) string {
	if dir == "" {
		return p
	}
	r, ok := projpath.Within(dir, p)
	switch {
	case !ok:
		return p
	case r == ".":
		return "."
	}
	return "./" + r
}

// relPath is projectRel escaped for compose.
func relPath(p, dir string) string { return esc(projectRel(p, dir)) }

// escapeValues writes every $ of the tree's values as $$, so Compose reads
// them as written rather than as variables. Mapping keys are never
// interpolated and stay as they are.
func escapeValues(n *yaml.Node) {
	eachValue(n, func(v *yaml.Node) {
		if strings.Contains(v.Value, "$") {
			v.Value = esc(v.Value)
		}
	})
}

// keepLeadingNewlines writes each value that starts with a newline
// double-quoted: yaml.v3 writes it as a block scalar without its leading
// newlines (`|4-` then the text), so Compose would read it without them.
// compose-go's own YAML (what `docker compose config` prints) keeps them.
func keepLeadingNewlines(n *yaml.Node) {
	eachValue(n, func(v *yaml.Node) {
		if strings.HasPrefix(v.Value, "\n") {
			v.Style = yaml.DoubleQuotedStyle
		}
	})
}

// eachValue calls fn with every scalar of the tree that is a value: a
// mapping's keys are left out, a sequence's items and a mapping's values
// are walked.
func eachValue(n *yaml.Node, fn func(*yaml.Node)) {
	switch n.Kind {
	case yaml.ScalarNode:
		fn(n)
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			eachValue(n.Content[i], fn)
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			eachValue(c, fn)
		}
	}
}

// shortEnvFiles writes env_file entries that are only a path (required,
// compose's default format) in the short syntax every Compose v2 reads;
// the long one needs Compose 2.24.
func shortEnvFiles(services *yaml.Node) {
	if services == nil {
		return
	}
	for i := 1; i < len(services.Content); i += 2 {
		files := valueOf(services.Content[i], "env_file")
		if files == nil {
			continue
		}
		for j, f := range files.Content {
			if f.Kind == yaml.MappingNode && len(f.Content) == 2 && f.Content[0].Value == "path" {
				files.Content[j] = f.Content[1]
			}
		}
	}
}

// valueOf is the value of key in mapping n, or nil.
func valueOf(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func commentServices(services *yaml.Node, byName map[string]entry, pinned bool) {
	if services == nil {
		return
	}
	for i := 0; i+1 < len(services.Content); i += 2 {
		key := services.Content[i]
		if e, ok := byName[key.Value]; ok {
			key.HeadComment = serviceComment(e, pinned)
		}
	}
}

func projectDir(pl *plan.Plan) string {
	if pl.Project0 != nil {
		return pl.Project0.Dir
	}
	return ""
}

func composeHeader(pl *plan.Plan, lf *lock.File) string {
	return strings.ReplaceAll(strings.Join([]string{
		fmt.Sprintf("Generated by `devenv export compose` for project %s; edit devenv.yaml and export again rather than editing this file.", pl.Project),
		pinnedHeader(lf),
		mirrorsHeader(pl),
		"This is the Compose project devenv up runs: the same containers, names, labels and config hashes, so docker compose and devenv see one project and neither recreates the other's containers.",
		"Run it from the project directory: docker compose -f <this file> up -d",
		profilesHeader(pl),
		"Paths are relative to the project directory: keep this file there, or run docker compose with --project-directory.",
		"Secrets are not in this file: env_file: names the files they are read from, and JUPYTER_TOKEN must be set (export JUPYTER_TOKEN=$(cat .devenv/jupyter-token)).",
		"Generated files (spark-defaults.conf) are carried under configs: and copied into the containers (Docker Compose 2.23 or later); .devenv/generated/<service>/ keeps a copy only you can read.",
		"docker compose makes the network and volumes when they are missing; devenv down removes them as its own.",
	}, "\n"), "\n\n", "\n")
}

// profilesHeader says which compose profiles the file's services need
// enabled: docker compose skips a service of a profile that is not.
func profilesHeader(pl *plan.Plan) string {
	ps := Profiles(pl)
	if len(ps) == 0 {
		return ""
	}
	return fmt.Sprintf("Services of compose profiles start only with them enabled: COMPOSE_PROFILES=%s docker compose -f <this file> up -d", strings.Join(ps, ","))
}

// Profiles are the compose profiles to enable for docker compose to start
// every service of pl's export (it skips a service none of whose profiles
// is enabled), each once: the active ones (--profile, COMPOSE_PROFILES)
// that a service of the file names, in their order, or every one the
// services name under "*".
func Profiles(pl *plan.Plan) []string {
	var active []string
	if p := pl.Project0; p != nil && len(p.Compose) > 0 {
		active = pl.Compose.For(p.Compose, p.Dir, p.Name).ActiveProfiles(context.Background())
	}
	var each [][]string
	for _, s := range pl.Services {
		if s.Compose != nil && len(s.Compose.Profiles) > 0 {
			each = append(each, s.Compose.Profiles)
		}
	}
	return neededProfiles(each, active)
}

// neededProfiles are the profiles that enable every service of each (its
// profiles), each once: those of active that a service names, in active's
// order ("*": every one, in the services' order), then the first of each
// service's profiles that none of those enables.
func neededProfiles(each [][]string, active []string) []string {
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	all := slices.Contains(active, "*")
	for _, p := range active {
		for _, ps := range each {
			if slices.Contains(ps, p) {
				add(p)
			}
		}
	}
	for _, ps := range each {
		switch {
		case all:
			for _, p := range ps {
				add(p)
			}
		case !slices.ContainsFunc(ps, func(p string) bool { return slices.Contains(out, p) }):
			add(ps[0])
		}
	}
	return out
}

// mirrorsHeader says, when this machine pulls images through registry
// mirrors, that the file names them as the lock does.
func mirrorsHeader(pl *plan.Plan) string {
	for _, ps := range pl.Services {
		if _, ok := Mirrored(pl, ps); ok {
			return "Images this machine pulls through its registry mirrors are named as devenv.lock records them, so the file runs on any machine; here, add -f .devenv/" + MirrorsFileName + " (written with -o) to pull them through the mirrors as devenv does."
		}
	}
	return ""
}

func serviceComment(e entry, pinned bool) string {
	var lines []string
	if c := imageComment(e, pinned); c != "" {
		lines = append(lines, c)
	}
	if e.onCPU != "" {
		lines = append(lines, fmt.Sprintf("%s runs on the CPU in this file: %s.", e.name, e.onCPU))
	}
	return strings.Join(lines, "\n")
}

func imageComment(e entry, pinned bool) string {
	switch {
	case e.built && e.profile == lock.ComposeProfile:
		return fmt.Sprintf("built from build: as devenv up builds it, tagged %s: docker compose builds it when the image is missing, and uses devenv's when it is there.", e.image)
	case e.built && !pinned:
		return fmt.Sprintf("%s is built by devenv once the project is locked: run `devenv lock`, `devenv build %s` and export again.", e.image, e.name)
	case e.built:
		return fmt.Sprintf("%s is built by devenv: run `devenv build %s` first (docker compose cannot build it).", e.image, e.name)
	case e.localID != "":
		return fmt.Sprintf("from %s; the image is %s by its ID %s (devenv.lock pins it so), which exists on this machine only: build or load it before docker compose up.", filepath.Base(e.fromFile), e.image, e.localID)
	case e.fromFile != "":
		return "from " + filepath.Base(e.fromFile)
	}
	return ""
}

// esc keeps compose from interpolating: $ is written $$.
func esc(s string) string { return strings.ReplaceAll(s, "$", "$$") }

// MirrorsFileName is the override file, in devenv's state directory, that
// names the images of an export as this machine pulls them (through its
// registry mirrors): `docker compose -f <export> -f <it>` runs the export
// here as devenv runs the project, while the export alone runs anywhere.
const MirrorsFileName = "compose.mirrors.yaml"

// MirrorsOverride is the override file for the services the export names
// by devenv.lock's references that this machine pulls through a mirror,
// or nil when there is none.
func MirrorsOverride(pl *plan.Plan) ([]byte, error) {
	services := map[string]map[string]string{}
	for _, ps := range pl.Services {
		if _, ok := Mirrored(pl, ps); ok {
			services[ps.Name] = map[string]string{"image": esc(ps.Image)}
		}
	}
	if len(services) == 0 {
		return nil, nil
	}
	var doc yaml.Node
	if err := doc.Encode(map[string]any{"services": services}); err != nil {
		return nil, err
	}
	doc.HeadComment = "Generated by `devenv export compose`: the images this machine pulls through its registry mirrors (devenv.yaml mirrors:).\n" +
		"Use it after the export to run it here: docker compose -f <export> -f " + filepath.Join(".devenv", MirrorsFileName) + " up -d; the export alone names the images as devenv.lock records them."
	return encodeYAML(&doc)
}

// encodeYAML writes doc as YAML indented by two spaces, as every export is.
func encodeYAML(doc *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeYAML(&buf, doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeYAML writes one YAML document of v to w, indented by two spaces.
func writeYAML(w io.Writer, v any) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return enc.Close()
}
