package maven

import (
	"context"
	"errors"
	"fmt"
	"strings"

	pm "deps.dev/util/maven"
)

// Root is one requested artifact and the exclusions it was requested with.
type Root struct {
	Coord
	// Exclusions are "group:artifact" patterns ("*" matches any part)
	// kept out of this root's dependency tree.
	Exclusions []string
	// From says where it was requested ("devenv.yaml jars", "prod's
	// spark.jars.packages"), for notes.
	From string
}

// Options steer Resolve.
type Options struct {
	// Repo is the canonical repository base the jars' URLs name (Maven
	// Central); Fetch is where POMs are read from, a mirror of it ("":
	// Repo).
	Repo, Fetch string
	// JDK activates POM profiles by JDK ("17"); "" activates only those
	// active by default.
	JDK string
	// Exclude are "group:artifact" patterns left out everywhere:
	// spark.jars.excludes, and what Spark itself provides (SparkProvided).
	Exclude []string
}

// SparkProvided is what spark-submit's own dependency resolution leaves
// out of --packages because Spark's jars already hold it: the Scala
// library and Spark's own modules.
var SparkProvided = []string{
	"*:scala-library",
	"org.apache.spark:spark-catalyst_*", "org.apache.spark:spark-core_*", "org.apache.spark:spark-graphx_*",
	"org.apache.spark:spark-kvstore_*", "org.apache.spark:spark-launcher_*", "org.apache.spark:spark-mllib_*",
	"org.apache.spark:spark-mllib-local_*", "org.apache.spark:spark-network-common_*", "org.apache.spark:spark-network-shuffle_*",
	"org.apache.spark:spark-repl_*", "org.apache.spark:spark-sketch_*", "org.apache.spark:spark-sql_*",
	"org.apache.spark:spark-streaming_*", "org.apache.spark:spark-tags_*", "org.apache.spark:spark-unsafe_*",
	"org.apache.spark:spark-common-utils_*", "org.apache.spark:spark-sql-api_*",
}

// Jar is one resolved artifact file.
type Jar struct {
	Coord
	URL   string   `json:"url"`   // in Options.Repo
	Scope string   `json:"scope"` // compile or runtime
	Via   []string `json:"via"`   // the path from the root that brought it, root first
}

// Result is the resolved classpath and what resolution decided.
type Result struct {
	Jars  []Jar
	Notes []string // conflicts mediated, POMs missing, relocations
}

// Limits of one resolution, so a hostile or broken repository cannot make
// it run forever.
const (
	maxNodes = 20000
	maxDepth = 64
)

type node struct {
	c     Coord
	scope string
	excl  []string
	via   []string
}

// Resolve resolves roots with their transitive dependencies as Maven 3
// does: breadth first, the nearest declaration of an artifact wins (the
// first one at equal depth), compile and runtime scopes kept, test,
// provided and system scopes and optional dependencies of dependencies
// dropped, exclusions applied to the subtree they are declared on.
func Resolve(ctx context.Context, src Source, roots []Root, o Options) (*Result, error) {
	fetch := o.Fetch
	if fetch == "" {
		fetch = o.Repo
	}
	r := &resolution{poms: newPOMs(src, fetch, o.JDK), o: o, selected: map[string]string{}, res: &Result{}}
	ctx, cancel := context.WithCancel(ctx)
	defer r.poms.wait()
	defer cancel()
	queue := make([]node, 0, len(roots))
	for _, root := range roots {
		if matchAny(o.Exclude, root.Coord) {
			r.note(fmt.Sprintf("%s (%s) is left out: Spark provides it, or spark.jars.excludes names it", root.Coord, root.From))
			continue
		}
		queue = append(queue, node{c: root.Coord, scope: "compile", excl: root.Exclusions, via: []string{root.Coord.String()}})
	}
	r.prefetch(ctx, queue)
	var errs []error
	for n := 0; len(queue) > 0; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if n > maxNodes {
			return nil, fmt.Errorf("the dependency graph has more than %d nodes; check the coordinates", maxNodes)
		}
		cur := queue[0]
		queue = queue[1:]
		kids, err := r.visit(ctx, cur)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		r.prefetch(ctx, kids)
		queue = append(queue, kids...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return r.res, nil
}

type resolution struct {
	poms     *poms
	o        Options
	selected map[string]string // key -> the version that won
	res      *Result
}

// prefetch starts reading the POMs of the nodes to visit that may win.
func (r *resolution) prefetch(ctx context.Context, kids []node) {
	var cs []Coord
	for _, k := range kids {
		if _, won := r.selected[k.c.key()]; !won && !isRange(k.c.Version) {
			cs = append(cs, k.c)
		}
	}
	r.poms.prefetch(ctx, cs)
}

func (r *resolution) note(s string) { r.res.Notes = append(r.res.Notes, s) }

// visit selects cur when it is the nearest declaration of its artifact
// and returns the dependencies to visit next.
func (r *resolution) visit(ctx context.Context, cur node) ([]node, error) {
	if isRange(cur.c.Version) {
		v, err := r.poms.pickRange(ctx, cur.c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", strings.Join(cur.via, " -> "), err)
		}
		cur.c.Version = v
	}
	if strings.HasSuffix(cur.c.Version, "-SNAPSHOT") {
		return nil, fmt.Errorf("%s: %s is a SNAPSHOT, which changes under the same name and cannot be pinned; use a release", strings.Join(cur.via, " -> "), cur.c)
	}
	k := cur.c.key()
	if won, ok := r.selected[k]; ok {
		if won != cur.c.Version {
			r.note(fmt.Sprintf("%s:%s %s (via %s) lost to %s, declared nearer (Maven's nearest-wins)",
				cur.c.Group, cur.c.Artifact, cur.c.Version, strings.Join(cur.via[:len(cur.via)-1], " -> "), won))
		}
		return nil, nil
	}
	r.selected[k] = cur.c.Version
	eff, err := r.poms.effective(ctx, cur.c)
	switch {
	case errors.Is(err, ErrNotFound):
		r.note(fmt.Sprintf("%s has no POM in the repository: its dependencies are unknown, as Maven would say", cur.c))
		eff = &effective{}
	case err != nil:
		return nil, fmt.Errorf("%s: %w", strings.Join(cur.via, " -> "), err)
	}
	if eff.relocation != nil {
		r.note(fmt.Sprintf("%s was relocated to %s", cur.c, *eff.relocation))
		moved := cur
		moved.c.Group, moved.c.Artifact, moved.c.Version = eff.relocation.Group, eff.relocation.Artifact, eff.relocation.Version
		moved.via = append(append([]string(nil), cur.via...), moved.c.String())
		return []node{moved}, nil
	}
	if cur.c.ext() == "jar" {
		r.res.Jars = append(r.res.Jars, Jar{Coord: cur.c, URL: cur.c.URL(r.o.Repo), Scope: cur.scope, Via: cur.via})
	}
	if len(cur.via) > maxDepth {
		return nil, fmt.Errorf("%s: the dependency chain is deeper than %d", strings.Join(cur.via, " -> "), maxDepth)
	}
	return r.children(cur, eff.deps), nil
}

// children are the dependencies of cur that reach the runtime classpath.
func (r *resolution) children(cur node, deps []pm.Dependency) []node {
	var out []node
	for _, d := range deps {
		scope := strings.TrimSpace(string(d.Scope))
		if scope == "" {
			scope = "compile"
		}
		if scope != "compile" && scope != "runtime" || d.Optional.Boolean() {
			continue
		}
		c := Coord{Group: string(d.GroupID), Artifact: string(d.ArtifactID), Version: strings.TrimSpace(string(d.Version)),
			Classifier: string(d.Classifier), Type: string(d.Type)}
		if matchAny(cur.excl, c) || matchAny(r.o.Exclude, c) {
			continue
		}
		if c.Version == "" {
			r.note(fmt.Sprintf("%s declares %s:%s without a version, and no dependencyManagement gives one; left out", cur.c, c.Group, c.Artifact))
			continue
		}
		if cur.scope == "runtime" {
			scope = "runtime"
		}
		excl := append([]string(nil), cur.excl...)
		for _, e := range d.Exclusions {
			excl = append(excl, string(e.GroupID)+":"+string(e.ArtifactID))
		}
		out = append(out, node{c: c, scope: scope, excl: excl, via: append(append([]string(nil), cur.via...), c.String())})
	}
	return out
}

// Excluded reports whether a "group:artifact" pattern of patterns matches c.
func Excluded(patterns []string, c Coord) bool { return matchAny(patterns, c) }

// matchAny reports whether a "group:artifact" pattern (parts may be "*",
// or end in "*") matches c.
func matchAny(patterns []string, c Coord) bool {
	for _, p := range patterns {
		g, a, _ := strings.Cut(p, ":")
		if a == "" {
			a = "*"
		}
		if globMatch(g, c.Group) && globMatch(a, c.Artifact) {
			return true
		}
	}
	return false
}

func globMatch(pattern, s string) bool {
	if pattern == "*" {
		return true
	}
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(s, prefix)
	}
	return pattern == s
}
