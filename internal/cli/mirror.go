package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"
)

func mirrorCommand() *cli.Command {
	return &cli.Command{
		Name:      "mirror",
		Usage:     "make a service use production's versions and confs (cluster JSON/YAML, spark-defaults, spark-submit, event log)",
		ArgsUsage: "SOURCE",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "service", Aliases: []string{"s"}, Usage: "the service to mirror into (default: the first spark-rapids service)"},
			&cli.StringFlag{Name: "format", Usage: "force the format: " + strings.Join(mirror.Formats, ", ")},
			&cli.BoolFlag{Name: "full", Usage: "scan a whole event log (executor and GPU facts across the run)"},
			&cli.BoolFlag{Name: "print", Usage: "only print the normalized cluster profile; change nothing"},
		},
		Action: runMirror,
	}
}

func runMirror(c *cli.Context) error {
	if c.NArg() != 1 {
		return exitcode.Newf(exitcode.Usage, "usage: devenv mirror SOURCE [--service S] [--print]")
	}
	src, err := filepath.Abs(c.Args().First())
	if err != nil {
		return err
	}
	prof, err := mirror.Import(src, mirror.Options{Format: c.String("format"), Full: c.Bool("full")})
	if err != nil {
		return err
	}
	out := printer(c)
	if c.Bool("print") {
		return out.Result(prof, func(w io.Writer) { printProfile(w, prof) })
	}
	p, err := loadProject(c)
	if err != nil {
		return err
	}
	svc, err := mirrorTarget(p, c.String("service"))
	if err != nil {
		return err
	}
	rel, ok := projpath.Inside(p.Dir, src)
	if !ok {
		return exitcode.Newf(exitcode.Usage, "%s is outside the project %s: copy it into the project (for example prod/), check it holds no secrets you would not commit, and run devenv mirror on the copy", src, p.Dir)
	}
	p2, data, err := recordMirror(p, svc.Name, rel)
	if err != nil {
		return err
	}
	prev, _ := readLock(p)
	lf, err := generateLock(c, p2, prev)
	if err != nil {
		return fmt.Errorf("devenv.yaml and devenv.lock were left as they were: %w", err)
	}
	st, err := os.Stat(p.File)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(p.File, data, st.Mode().Perm()); err != nil {
		return err
	}
	if _, err := lock.Write(lockPath(p2), lf); err != nil {
		return err
	}
	for _, n := range lf.Notes {
		out.Say("%s", n)
	}
	res := mirrorResult{Service: svc.Name, Source: filepath.ToSlash(rel), Profile: prof, Locked: lf.Service(svc.Name)}
	return out.Result(res, func(w io.Writer) { printMirrored(w, res) })
}

type mirrorResult struct {
	Service string          `json:"service"`
	Source  string          `json:"source"`
	Profile *mirror.Profile `json:"profile"`
	Locked  *lock.Service   `json:"locked"`
}

// mirrorTarget picks the service that mirrors prod.
func mirrorTarget(p *spec.Project, name string) (*spec.Service, error) {
	if name != "" {
		if err := checkServices(p, []string{name}); err != nil {
			return nil, err
		}
		return p.Service(name), nil
	}
	for _, s := range p.Services {
		if s.Profile == profiles.SparkRapids || (p.Profiles[s.Profile] != nil && p.Profiles[s.Profile].Extends == profiles.SparkRapids) {
			return s, nil
		}
	}
	return nil, exitcode.Newf(exitcode.Usage, "no spark-rapids service to mirror into: add one to devenv.yaml or pass --service")
}

// recordMirror returns devenv.yaml with `mirror: rel` set in the service,
// keeping the file's comments, and the project it loads as; nothing is
// written until the caller has relocked.
func recordMirror(p *spec.Project, service, rel string) (*spec.Project, []byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(p.Raw, &doc); err != nil || len(doc.Content) == 0 {
		return nil, nil, fmt.Errorf("read %s: %v", p.File, err)
	}
	svc := mapValue(mapValue(doc.Content[0], "services"), service)
	if svc == nil {
		return nil, nil, fmt.Errorf("service %q not found in %s", service, p.File)
	}
	setScalar(svc, "mirror", rel)
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, nil, err
	}
	data := []byte(b.String())
	p2, err := spec.Parse(p.File, data, p.Dir)
	if err != nil {
		return nil, nil, fmt.Errorf("devenv.yaml with the mirror recorded would not load, so it was left as it was: %w", err)
	}
	return p2, data, nil
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func setScalar(m *yaml.Node, key, value string) {
	if v := mapValue(m, key); v != nil {
		v.Kind, v.Tag, v.Value, v.Style = yaml.ScalarNode, "!!str", value, 0
		return
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value})
}

func printProfile(w io.Writer, p *mirror.Profile) {
	fmt.Fprintf(w, "source:   %s (%s, %s)\n", p.Source.Path, p.Source.Format, p.Source.Platform)
	fmt.Fprintf(w, "runtime:  spark %s, scala %s, java %s, python %s", p.Runtime.Spark, p.Runtime.ScalaFull, p.Runtime.Java, p.Runtime.Python)
	if p.Runtime.Label != "" {
		fmt.Fprintf(w, " (%s)", p.Runtime.Label)
	}
	fmt.Fprintln(w)
	if p.GPU.Rapids != "" {
		fmt.Fprintf(w, "gpu:      RAPIDS Accelerator %s, %v GPU(s) per executor, task share %v\n", p.GPU.Rapids, p.GPU.ExecutorGPUs, p.GPU.TaskGPU)
	}
	fmt.Fprintf(w, "topology: %d workers, %d cores and %d MiB per executor\n", p.Topology.Workers, p.Topology.ExecutorCores, p.Topology.ExecutorMemoryMB)
	fmt.Fprintf(w, "confs:    %d kept or scaled, %d dropped, %d redacted\n", len(p.Conf), len(p.Dropped), len(p.Redacted))
	for _, k := range p.Redacted {
		fmt.Fprintf(w, "  redacted (never copied): %s\n", k)
	}
	for _, wn := range p.Warnings {
		fmt.Fprintf(w, "warning:  %s\n", wn)
	}
}

func printMirrored(w io.Writer, r mirrorResult) {
	printProfile(w, r.Profile)
	if l := r.Locked; l != nil {
		fmt.Fprintf(w, "\n%s now mirrors %s and is locked to spark %s, scala %s, java %s, rapids %s\n",
			r.Service, r.Source, l.Versions.Spark, l.Versions.ScalaFull, l.Versions.Java, l.Versions.Rapids)
	}
	keys := make([]string, 0, len(r.Profile.Dropped))
	for k := range r.Profile.Dropped {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  dropped %s: %s\n", k, r.Profile.Dropped[k])
	}
}
