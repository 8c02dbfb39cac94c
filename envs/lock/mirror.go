package lock

import (
	"context"
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/profiles"
)

// mirroredRequest gives the request prod's versions as the ones it prefers
// (profiles.Prefer) for the service mirroring prod (`mirror:`): resolution
// takes them exactly where devenv.yaml leaves them open and the catalog
// builds them together, else the nearest, listing each deviation.
func mirroredRequest(ctx context.Context, s *spec.Service, req profiles.Request) (profiles.Request, error) {
	if s.Mirror == "" {
		return req, nil
	}
	prof, err := mirror.ImportContext(ctx, s.Mirror, mirror.Options{Format: s.MirrorFormat})
	if err != nil && ctx.Err() != nil {
		return req, fmt.Errorf("reading its mirror %s: %w", s.Mirror, ctx.Err()) // Ctrl-C: no hint about the file
	}
	if err != nil {
		return req, &profiles.ResolveError{Field: "mirror", Msg: err.Error(), Hint: "check the file, or force its format with devenv mirror --format"}
	}
	req.Prefer = PreferOf(prof)
	return req, nil
}

// PreferOf is what a mirrored profile says of the versions to run.
func PreferOf(p *mirror.Profile) *profiles.Prefer {
	return &profiles.Prefer{Spark: p.Runtime.Spark, Scala: p.Runtime.Scala, Java: p.Runtime.Java,
		Python: p.Runtime.Python, Rapids: p.GPU.Rapids}
}

// mirrorNotes say, for the lock's notes, whether the service runs prod's
// versions exactly or where it deviates and why.
func mirrorNotes(service string, req profiles.Request, res profiles.Resolved) []string {
	if req.Prefer == nil || res.Profile != profiles.SparkRapids {
		return nil
	}
	if len(res.Deviations) == 0 {
		p := req.Prefer
		return []string{fmt.Sprintf("service %q: runs prod's versions (spark %s, scala %s, java %s, python %s, rapids %s)",
			service, orUnknown(p.Spark), orUnknown(p.Scala), orUnknown(p.Java), orUnknown(p.Python), orNone(p.Rapids))}
	}
	out := make([]string, 0, len(res.Deviations))
	for _, d := range res.Deviations {
		out = append(out, fmt.Sprintf("service %q: deviates from prod: %s", service, d))
	}
	return out
}

// MajorDeviations names the fields whose deviation changes Spark's
// major.minor or Scala ("spark", "scala").
func MajorDeviations(ds []profiles.Deviation) []string {
	var out []string
	for _, d := range ds {
		if d.Major {
			out = append(out, d.Field)
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "not stated"
	}
	return strings.TrimSpace(s)
}
