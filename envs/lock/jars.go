package lock

import (
	"context"
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/httpx"
	"github.com/devenv-dev/devenv/internal/maven"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/profiles"
)

// lockJars resolves the service's jars with their transitive dependencies
// (internal/maven, POMs read through mirrors.maven) and pins each by its
// publisher's checksum: devenv.yaml jars:, a custom profile's jars:, and
// the Maven packages prod fetched at run time (the mirror's
// --packages / spark.jars.packages). A jar built for another Scala or
// Spark line than the locked one is noted.
func lockJars(ctx context.Context, s *spec.Service, res profiles.Resolved, in Inputs, old *Service, fetch Fetcher, opts Options, notes *[]string) ([]Artifact, error) {
	roots, excludes, err := jarRoots(ctx, s, res, notes)
	if err != nil || len(roots) == 0 {
		return nil, err
	}
	if kept := keptJars(old, in); kept != nil {
		lineNotes(s.Name, res, kept, notes)
		return kept, nil
	}
	src := opts.POMs
	if src == nil {
		src = maven.HTTP{Client: httpx.Client(httpx.DefaultLimits())}
	}
	out, err := maven.Resolve(ctx, src, roots, maven.Options{
		Repo: sources.MavenCentral, Fetch: opts.Mirrors.MavenBase(),
		JDK: res.Java, Exclude: append(append([]string(nil), maven.SparkProvided...), excludes...),
	})
	if err != nil {
		return nil, &profiles.ResolveError{Field: "jars", Msg: "resolving jars: " + err.Error(),
			Hint: "check the coordinates exist in the Maven repository (mirrors.maven), or pin another version in devenv.yaml jars:"}
	}
	for _, n := range out.Notes {
		*notes = append(*notes, fmt.Sprintf("service %q: jars: %s", s.Name, n))
	}
	var arts []Artifact
	for _, j := range out.Jars {
		a := profiles.Artifact{Name: "jar:" + j.Coord.String(), URL: j.URL, ChecksumURL: j.URL + ".sha1", ChecksumAlgo: "sha1", File: j.File()}
		la, _, err := lockArtifact(ctx, a, old, fetch, opts.Mirrors)
		if err != nil {
			return nil, fmt.Errorf("%w (needed by %s)", err, strings.Join(j.Via, " -> "))
		}
		arts = append(arts, la)
	}
	lineNotes(s.Name, res, arts, notes)
	return arts, nil
}

// jarRoots are the coordinates to resolve and the exclusions prod used.
func jarRoots(ctx context.Context, s *spec.Service, res profiles.Resolved, notes *[]string) ([]maven.Root, []string, error) {
	var roots []maven.Root
	for _, j := range s.Jars {
		c, err := maven.ParseCoord(j)
		if err != nil {
			return nil, nil, &profiles.ResolveError{Field: "jars", Msg: err.Error(), Hint: "write Maven coordinates as group:artifact:version"}
		}
		roots = append(roots, maven.Root{Coord: c, From: "devenv.yaml jars"})
	}
	for _, a := range res.Artifacts {
		if coords, ok := strings.CutPrefix(a.Name, "jar:"); ok {
			if c, err := maven.ParseCoord(coords); err == nil {
				roots = append(roots, maven.Root{Coord: c, From: "custom profile " + res.Custom + " jars"})
			}
		}
	}
	if s.Mirror == "" {
		return roots, nil, nil
	}
	prof, err := mirror.ImportContext(ctx, s.Mirror, mirror.Options{Format: s.MirrorFormat})
	if err != nil && ctx.Err() != nil {
		return nil, nil, fmt.Errorf("reading its mirror %s: %w", s.Mirror, ctx.Err())
	}
	if err != nil {
		return nil, nil, &profiles.ResolveError{Field: "mirror", Msg: err.Error(), Hint: "check the file, or force its format with devenv mirror --format"}
	}
	for _, pk := range prof.Packages {
		c, err := maven.ParseCoord(pk.Coords)
		switch {
		case err != nil:
			continue
		case strings.HasSuffix(c.Version, "-SNAPSHOT"):
			*notes = append(*notes, fmt.Sprintf("service %q: prod's package %s (%s) is a SNAPSHOT, which cannot be pinned; not installed: add a release to devenv.yaml jars:", s.Name, pk.Coords, pk.From))
		case c.Group == "com.nvidia" && strings.HasPrefix(c.Artifact, "rapids-4-spark_"):
			*notes = append(*notes, fmt.Sprintf("service %q: prod's package %s (%s) is the RAPIDS Accelerator, which the profile pins itself (rapids: %s)", s.Name, pk.Coords, pk.From, orNone(res.Rapids)))
		default:
			roots = append(roots, maven.Root{Coord: c, From: "prod's " + pk.From})
		}
	}
	return roots, prof.PackageExcludes, nil
}

// keptJars are the previously locked jars when nothing that decides them
// changed (the same inputs: jars, custom profile, mirror, versions), so a
// relock reads no POMs.
func keptJars(old *Service, in Inputs) []Artifact {
	if old == nil || old.InputHash == "" || old.InputHash != in.hash() {
		return nil
	}
	var out []Artifact
	for _, a := range old.Artifacts {
		if strings.HasPrefix(a.Name, "jar:") {
			out = append(out, a)
		}
	}
	return out
}

// lineNotes reports jars built for another Scala or Spark line than the
// service locks.
func lineNotes(service string, res profiles.Resolved, arts []Artifact, notes *[]string) {
	for _, a := range arts {
		c, err := maven.ParseCoord(strings.TrimPrefix(a.Name, "jar:"))
		if err != nil {
			continue
		}
		if l := c.ScalaLine(); l != "" && res.Scala != "" && l != res.Scala {
			*notes = append(*notes, fmt.Sprintf("service %q: jar %s is built for Scala %s, but the service runs Scala %s: it will not load (NoSuchMethodError, ClassNotFoundException); use its _%s build",
				service, c, l, res.Scala, res.Scala))
		}
		if l := c.SparkLine(); l != "" && res.Spark != "" && l != sparkLine(res.Spark) {
			*notes = append(*notes, fmt.Sprintf("service %q: jar %s is built for Spark %s, but the service runs Spark %s; use its build for Spark %s",
				service, c, l, res.Spark, sparkLine(res.Spark)))
		}
	}
}

// sparkLine is a Spark version's major.minor.
func sparkLine(v string) string {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

func withoutJars(arts []Artifact) []Artifact {
	var out []Artifact
	for _, a := range arts {
		if !strings.HasPrefix(a.Name, "jar:") {
			out = append(out, a)
		}
	}
	return out
}

func withoutJarArtifacts(arts []profiles.Artifact) []profiles.Artifact {
	var out []profiles.Artifact
	for _, a := range arts {
		if !strings.HasPrefix(a.Name, "jar:") {
			out = append(out, a)
		}
	}
	return out
}

// jarProblems checks a locked service's jars without the network: every
// jar devenv.yaml or its custom profile asks for is there (unless Spark
// provides it), and every jar entry, asked for or a dependency, names its
// canonical Maven Central file for its coordinates.
func jarProblems(s *spec.Service, res profiles.Resolved, locked []Artifact) []string {
	var out []string
	have := map[string]bool{}
	for i, a := range locked {
		coords, ok := strings.CutPrefix(a.Name, "jar:")
		if !ok {
			continue
		}
		c, err := maven.ParseCoord(coords)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("service %s: artifacts[%d] %q: %v", s.Name, i, a.Name, err))
		case a.URL != c.URL(sources.MavenCentral) || a.File != c.File():
			out = append(out, fmt.Sprintf("service %s: artifacts[%d] (%s) is %s as %s, but its coordinates name %s as %s",
				s.Name, i, a.Name, a.URL, a.File, c.URL(sources.MavenCentral), c.File()))
		default:
			have[c.String()] = true
			have[c.Group+":"+c.Artifact+":*"] = true // for a root given as a range
		}
	}
	roots, _, err := jarRoots(context.Background(), &spec.Service{Name: s.Name, Jars: s.Jars}, res, new([]string))
	if err != nil {
		return append(out, fmt.Sprintf("service %s: %v", s.Name, err))
	}
	for _, r := range roots {
		key := r.Coord.String()
		if strings.ContainsAny(r.Coord.Version, "[(") {
			key = r.Coord.Group + ":" + r.Coord.Artifact + ":*"
		}
		if !have[key] && !maven.Excluded(maven.SparkProvided, r.Coord) {
			out = append(out, fmt.Sprintf("service %s: jar %s (%s) is missing from the lock", s.Name, r.Coord, r.From))
		}
	}
	return out
}
