package view

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/app"
)

// Config is `devenv config`: each service as resolved, its GPUs and notes.
func Config(w io.Writer, cfg *app.Config) {
	fmt.Fprintf(w, "project %s (%s)\n", cfg.Name, cfg.Dir)
	if cfg.NameFrom != "" {
		fmt.Fprintf(w, "  name from %s\n", cfg.NameFrom)
	}
	if cfg.LockNote != "" {
		fmt.Fprintf(w, "note: %s\n", cfg.LockNote)
	}
	for _, s := range cfg.Services {
		printService(w, cfg, s)
	}
	for _, s := range cfg.Compose {
		printCompose(w, s)
	}
	for _, wn := range cfg.Warnings {
		fmt.Fprintf(w, "\nwarning: %s\n", wn)
	}
}

func printService(w io.Writer, cfg *app.Config, s app.ServiceConfig) {
	r := s.Resolved
	fmt.Fprintf(w, "\n%s  profile=%s locked=%v\n", s.Name, s.Profile, s.Locked)
	line := func(key, format string, a ...any) {
		fmt.Fprintf(w, "  %-9s "+format+"\n", append([]any{key + ":"}, a...)...)
	}
	if vs := versions(r.Spark, r.ScalaFull, r.Java, r.Python, r.Rapids, r.CUDA, r.Release); vs != "" {
		line("versions", "%s", vs)
	}
	if base := firstOf(s.Base, r.BaseImage); base != "" {
		line("base", "%s", base)
	}
	if r.Requires.MinDriver != "" {
		line("needs", "driver >= %s, compute capability >= %s", r.Requires.MinDriver, r.Requires.MinComputeCapability)
	}
	if s.Image != "" {
		line("image", "%s", s.Image)
	}
	printGPU(line, cfg, s)
	if s.Memory != "" {
		line("memory", "%s", s.Memory)
	}
	for _, pt := range s.Ports {
		line("port", "%s:%d -> %d/%s", pt.HostIP, pt.HostPort, pt.ContainerPort, pt.Protocol)
	}
	for _, v := range s.Volumes {
		line("volume", "%s -> %s%s", v.Source, v.Target, map[bool]string{true: " (read-only)"}[v.ReadOnly])
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		line("env", "%s=%s", k, s.Env[k])
	}
	if s.EnvFile != "" {
		line("env_file", "%s (read at run time)", s.EnvFile)
	}
	for _, j := range s.Jars {
		line("jar", "%s", j)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Conf)) {
		line("conf", "%s=%s", k, s.Conf[k])
	}
	if len(s.Depends) > 0 {
		line("depends", "%s", strings.Join(s.Depends, ", "))
	}
	for _, d := range r.Deviations {
		line("deviates", "from prod: %s", d)
	}
	for _, n := range r.Notes {
		line("note", "%s", n)
	}
}

func printGPU(line func(string, string, ...any), cfg *app.Config, s app.ServiceConfig) {
	if s.CPUFallback {
		line("gpu", "none, runs on the CPU: %s", s.Reason)
		return
	}
	if cfg.Placement == nil {
		return
	}
	a, ok := cfg.Placement.Services[s.Name]
	if !ok {
		return
	}
	shared := ""
	if a.AllocFraction > 0 {
		shared = fmt.Sprintf(" (shared: %.0f%% of its memory)", a.AllocFraction*100)
	}
	line("gpu", "%s%s", strings.Join(a.Devices, ","), shared)
}

func versions(spark, scala, java, python, rapids, cuda, release string) string {
	var vs []string
	for _, kv := range [][2]string{{"spark", spark}, {"scala", scala}, {"java", java}, {"python", python},
		{"rapids", rapids}, {"cuda", cuda}, {"release", release}} {
		if kv[1] != "" {
			vs = append(vs, kv[0]+"="+kv[1])
		}
	}
	return strings.Join(vs, " ")
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// printCompose is a compose file's service as devenv runs it.
func printCompose(w io.Writer, s app.ComposeServiceConfig) {
	fmt.Fprintf(w, "\n%s  compose=%s\n", s.Name, s.File)
	line := func(key, format string, a ...any) {
		fmt.Fprintf(w, "  %-9s "+format+"\n", append([]any{key + ":"}, a...)...)
	}
	image := s.Image
	if s.Build {
		image += " (built by devenv from build:)"
	}
	line("image", "%s", image)
	if len(s.Profiles) > 0 {
		line("profiles", "%s", strings.Join(s.Profiles, ", "))
	}
	for _, pt := range s.Ports {
		note := ""
		if pt.Note != "" {
			note = " (" + pt.Note + ")"
		}
		line("port", "%s:%d -> %d/%s%s", pt.HostIP, pt.HostPort, pt.ContainerPort, pt.Protocol, note)
	}
	for _, v := range s.Volumes {
		line("volume", "%s -> %s%s", v.Source, v.Target, map[bool]string{true: " (read-only)"}[v.ReadOnly])
	}
	line("networks", "%s", strings.Join(s.Networks, ", "))
	for _, f := range s.EnvFiles {
		line("env_file", "%s (read at run time)", f)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Labels)) {
		line("label", "%s=%s", k, s.Labels[k])
	}
	if len(s.Depends) > 0 {
		line("depends", "%s", strings.Join(s.Depends, ", "))
	}
}
