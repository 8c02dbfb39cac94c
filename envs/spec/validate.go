package spec

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/internal/projpath"
	"github.com/devenv-dev/devenv/profiles"
)

// validate runs the checks that need more than one key or the disk.
func (l *loader) validate() {
	ports := map[string]portUse{}
	for _, t := range l.services {
		l.checkProfile(t)
		l.checkFiles(t)
		l.checkRequirements(t)
		l.checkBinds(t)
		l.checkHostPorts(t, ports)
		if file, ok := l.compose[t.s.Name]; ok {
			l.d.errPos(t.s.Pos[""], "rename one of them; containers of both would be called "+t.s.Name, "service %q is also defined in %s", t.s.Name, file)
		}
	}
	l.checkDependsOn()
	l.checkCycles()
}

func (l *loader) profileHint() string {
	hint := "built-in profiles: " + strings.Join(BuiltinProfiles, ", ")
	if customs := slices.Sorted(maps.Keys(l.p.Profiles)); len(customs) > 0 {
		hint += "; custom profiles: " + strings.Join(customs, ", ")
	} else {
		hint += "; no custom profiles are defined"
	}
	return hint
}

func (l *loader) checkProfile(t *svcNodes) {
	s := t.s
	switch {
	case t.profile == nil && s.Profile == "":
		if _, written := s.Pos["profile"]; !written {
			l.d.errPos(s.Pos[""], l.profileHint(), "%s has no profile", t.what)
		}
		return
	case t.profile == nil:
		return
	case !isBuiltin(s.Profile) && l.p.Profiles[s.Profile] == nil:
		if _, defined := l.customAt[s.Profile]; defined {
			return // the profile itself is invalid and was reported
		}
		all := append(slices.Clone(BuiltinProfiles), slices.Sorted(maps.Keys(l.p.Profiles))...)
		l.d.errAt(t.profile, l.profileHint(), "unknown profile %q in %s%s", s.Profile, t.what, didYouMean(s.Profile, all))
		return
	}
	base := l.p.BaseProfile(s)
	if base == "" {
		return
	}
	l.checkImageKeys(t, base)
	if _, written := s.Pos["workers"]; written && base != profiles.SparkRapids {
		l.d.errPos(s.Pos["workers"], "remove workers:, or use profile: spark-rapids", "workers is only for spark-rapids services; %s uses %s", t.what, s.Profile)
	}
}

func (l *loader) checkImageKeys(t *svcNodes, base string) {
	s := t.s
	_, hasImage := s.Pos["image"]
	_, hasBuild := s.Pos["build"]
	if base != profiles.Image {
		for _, k := range []string{"image", "build"} {
			if _, written := s.Pos[k]; written {
				l.d.errPos(s.Pos[k], "use profile: image for a plain image, or remove "+k+":", "%s is only for profile image; %s uses %s", k, t.what, s.Profile)
			}
		}
		return
	}
	switch {
	case hasImage && hasBuild:
		l.d.errPos(s.Pos["build"], "keep one of them", "%s has both image and build", t.what)
	case !hasImage && !hasBuild:
		l.d.errPos(s.Pos[""], `add image: "postgres:16" or build: path/to/Dockerfile`, "%s uses profile image but gives neither image nor build", t.what)
	}
}

// checkFiles makes the files a service names absolute, checking each.
func (l *loader) checkFiles(t *svcNodes) {
	dst := map[string]*string{"build": &t.s.Build, "env_file": &t.s.EnvFile,
		"requirements": &t.s.Requirements, "mirror": &t.s.Mirror}
	for _, key := range slices.Sorted(maps.Keys(t.fileKeys)) {
		// env_file is usually a git-ignored secrets file: only starting a
		// container needs it (envs/plan), so its absence is no error here.
		if abs, ok := l.d.projectPath(t.fileKeys[key], key, *dst[key], key == "env_file"); ok {
			*dst[key] = abs
		} else {
			*dst[key] = ""
		}
	}
}

// checkBinds makes relative bind sources absolute; they must stay inside
// the project. Absolute bind sources are the user's choice.
func (l *loader) checkBinds(t *svcNodes) {
	for i := range t.s.Volumes {
		v := &t.s.Volumes[i]
		if v.Named || filepath.IsAbs(v.Source) {
			continue
		}
		abs := filepath.Join(l.p.Dir, v.Source)
		l.reads.File(abs)
		if _, ok := projpath.Within(l.p.Dir, abs); !ok {
			l.d.errAt(t.volumes[i], "bind a path inside the project, or write an absolute path if you mean to share a host directory", "volume source %q of %s is outside the project directory", v.Source, t.what)
			continue
		}
		if err := bindInside(l.p.Dir, abs); err != nil {
			l.d.errAt(t.volumes[i], "bind the directory itself, or write its absolute path if you mean to share a host directory", "volume source %q of %s %v", v.Source, t.what, err)
			continue
		}
		v.Source = abs
	}
}

type portUse struct {
	service string
	pos     Pos
}

// checkHostPorts reports a host port that two ports: entries publish.
func (l *loader) checkHostPorts(t *svcNodes, used map[string]portUse) {
	for i, p := range t.s.Ports {
		host := p.Host
		if host == 0 {
			host = p.Container
		}
		key := fmt.Sprintf("%d/%s", host, p.Protocol)
		if u, dup := used[key]; dup {
			l.d.errAt(t.ports[i], "publish it on another host port, e.g. \""+fmt.Sprint(host+1)+":"+fmt.Sprint(p.Container)+"\"",
				"host port %s of %s is already published by service %q at line %d", key, t.what, u.service, u.pos.Line)
			continue
		}
		used[key] = portUse{service: t.s.Name, pos: posOf(t.ports[i])}
	}
}

func (l *loader) checkDependsOn() {
	names := map[string]bool{}
	for _, t := range l.services {
		names[t.s.Name] = true
	}
	for _, t := range l.services {
		for i, dep := range t.s.DependsOn {
			if names[dep] || l.compose[dep] != "" {
				continue
			}
			all := append(slices.Sorted(maps.Keys(names)), slices.Sorted(maps.Keys(l.compose))...)
			sort.Strings(all)
			all = slices.Compact(all)
			l.d.errAt(t.deps[i], "depends_on names a service of this file or of its compose files: "+strings.Join(all, ", "),
				"%s depends on %q, which is not a service%s", t.what, dep, didYouMean(dep, all))
		}
	}
}

// checkCycles reports each depends_on loop once, at the edge closing it.
func (l *loader) checkCycles() {
	byName := map[string]*svcNodes{}
	for _, t := range l.services {
		byName[t.s.Name] = t
	}
	const (
		unseen = iota
		active
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(t *svcNodes)
	visit = func(t *svcNodes) {
		state[t.s.Name] = active
		stack = append(stack, t.s.Name)
		for i, dep := range t.s.DependsOn {
			next := byName[dep]
			switch {
			case next == nil:
			case state[dep] == active:
				from := slices.Index(stack, dep)
				loop := append(slices.Clone(stack[from:]), dep)
				l.d.errAt(t.deps[i], "remove one depends_on entry of the loop", "depends_on cycle: %s", strings.Join(loop, " -> "))
			case state[dep] == unseen:
				visit(next)
			}
		}
		stack = stack[:len(stack)-1]
		state[t.s.Name] = done
	}
	for _, t := range l.services {
		if state[t.s.Name] == unseen {
			visit(t)
		}
	}
}
