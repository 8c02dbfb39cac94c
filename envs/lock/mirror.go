package lock

import (
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/profiles"
)

// mirroredRequest fills what devenv.yaml leaves open with the production
// versions the service mirrors (`mirror:`), relaxing them step by step to
// the nearest combination the catalog has, and says what it changed.
func mirroredRequest(s *spec.Service, req profiles.Request, r Resolver, custom map[string]*profiles.Custom) (profiles.Request, []string, error) {
	if s.Mirror == "" {
		return req, nil, nil
	}
	prof, err := mirror.Import(s.Mirror, mirror.Options{Format: s.MirrorFormat})
	if err != nil {
		return req, nil, &profiles.ResolveError{Field: "mirror", Msg: err.Error(), Hint: "check the file, or force its format with devenv mirror --format"}
	}
	want := req
	fill(&want.Spark, prof.Runtime.Spark)
	fill(&want.Scala, prof.Runtime.Scala)
	fill(&want.Java, prof.Runtime.Java)
	fill(&want.Rapids, prof.GPU.Rapids)
	for _, try := range relaxations(req, want) {
		if _, err := r.Resolve(try.req, custom); err == nil {
			return try.req, notesFor(s.Name, try.dropped, want), nil
		}
	}
	return req, []string{fmt.Sprintf("%s: prod's versions (spark %s, rapids %s) are not in the catalog; resolved as devenv.yaml says",
		s.Name, want.Spark, want.Rapids)}, nil
}

type relaxed struct {
	req     profiles.Request
	dropped []string
}

// relaxations lists requests from prod's exact versions to looser ones;
// what devenv.yaml pins itself is never relaxed.
func relaxations(user, prod profiles.Request) []relaxed {
	out := []relaxed{{req: prod}}
	step := prod
	var dropped []string
	relax := func(field string, dst *string, userVal string, loose string) {
		if userVal != "" || *dst == loose {
			return
		}
		*dst = loose
		dropped = append(dropped, field)
		out = append(out, relaxed{req: step, dropped: append([]string(nil), dropped...)})
	}
	relax("rapids", &step.Rapids, user.Rapids, minor(prod.Rapids))
	relax("spark", &step.Spark, user.Spark, minor(prod.Spark))
	relax("java", &step.Java, user.Java, "")
	relax("rapids", &step.Rapids, user.Rapids, "")
	relax("scala", &step.Scala, user.Scala, "")
	relax("spark", &step.Spark, user.Spark, "")
	return out
}

func minor(v string) string {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

func notesFor(service string, dropped []string, prod profiles.Request) []string {
	if len(dropped) == 0 {
		return []string{fmt.Sprintf("%s: mirrors prod exactly (spark %s, scala %s, java %s, rapids %s)",
			service, prod.Spark, prod.Scala, prod.Java, orNone(prod.Rapids))}
	}
	return []string{fmt.Sprintf("%s: prod's exact %s is not available with the rest of prod's stack; using the nearest the catalog has (see devenv config %s, devenv diff)",
		service, strings.Join(unique(dropped), ", "), service)}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func unique(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
