package lock

import (
	"context"
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/profiles"
)

// shimAdvisor is what the jar check asks of the catalog beyond Resolve
// (profiles.Catalog has it; a Resolver without it gets no release hint).
type shimAdvisor interface {
	NearestAcceleratorFor(spark, scala, version string) string
}

// checkAcceleratorJar proves from the RAPIDS Accelerator jar itself that it
// runs the resolved Spark: the catalog's Spark lists are only the default
// choice (NVIDIA edited download pages after release to name versions the
// jar had no shim for), the shims inside the jar are the authority. path is
// the downloaded jar, "" when the lock kept the previous entry; a kept jar
// is read again (from the cache) only when the Spark it must run changed.
func checkAcceleratorJar(ctx context.Context, res profiles.Resolved, la Artifact, a profiles.Artifact, path string, old *Service, r Resolver, fetch Fetcher, m sources.Mirrors) error {
	if path == "" {
		if old != nil && old.Versions.Spark == res.Spark && old.Versions.Rapids == res.Rapids {
			return nil // proved when it was locked
		}
		var err error
		if _, path, err = fetch.Verified(ctx, m.URL(a.URL), m.URL(a.ChecksumURL), a.ChecksumAlgo); err != nil {
			return fmt.Errorf("artifact %s: %w", a.Name, err)
		}
	}
	if path == "" {
		return fmt.Errorf("artifact %s: the download left no file to read its Spark shims from", a.Name)
	}
	shims, err := profiles.ReadJarShims(path)
	if err != nil {
		return &profiles.ResolveError{Field: "rapids", Msg: fmt.Sprintf("RAPIDS Accelerator %s: %s: %v", res.Rapids, la.File, err),
			Hint: "check mirrors.maven serves the real jar, or pin another rapids: release"}
	}
	for _, v := range shims.Spark {
		if v == res.Spark {
			return nil
		}
	}
	return noShimError(res, la.File, shims, r)
}

func noShimError(res profiles.Resolved, file string, shims profiles.JarShims, r Resolver) error {
	found := "none"
	if len(shims.Spark) > 0 {
		found = "Spark " + strings.Join(shims.Spark, ", ")
	}
	if len(shims.Vendor) > 0 {
		found += " and the vendor builds " + strings.Join(shims.Vendor, ", ")
	}
	msg := fmt.Sprintf("RAPIDS Accelerator %s (%s) has no %s shim, so it cannot run Spark %s (the plugin fails at start: \"does not support Spark build %s\"); the jar carries shims for %s",
		res.Rapids, file, profiles.ShimID(res.Spark), res.Spark, res.Spark, found)
	var hints []string
	if adv, ok := r.(shimAdvisor); ok {
		if rel := adv.NearestAcceleratorFor(res.Spark, res.Scala, res.Rapids); rel != "" {
			hints = append(hints, fmt.Sprintf("rapids: %s, the nearest release devenv's catalog lists for Spark %s with Scala %s", rel, res.Spark, res.Scala))
		}
	}
	if s := nearestSpark(shims.Spark, res.Spark); s != "" {
		hints = append(hints, fmt.Sprintf("spark: %s, the nearest Spark this jar has a shim for", s))
	}
	hint := "pin another rapids: release"
	if len(hints) > 0 {
		hint = "use " + strings.Join(hints, ", or ")
	}
	return &profiles.ResolveError{Field: "spark", Msg: msg, Hint: hint}
}

// nearestSpark is the newest shim of want's line at or below it, else the
// newest shim of its line, else the newest shim.
func nearestSpark(have []string, want string) string {
	line := func(v string) string {
		parts := strings.SplitN(v, ".", 3)
		if len(parts) < 2 {
			return v
		}
		return parts[0] + "." + parts[1]
	}
	best := ""
	for _, v := range have {
		if line(v) == line(want) && (best == "" || profilesLess(best, v)) && !profilesLess(want, v) {
			best = v
		}
	}
	if best != "" {
		return best
	}
	for _, v := range have {
		if line(v) == line(want) {
			best = v
		}
	}
	if best == "" && len(have) > 0 {
		best = have[len(have)-1]
	}
	return best
}

// profilesLess orders dotted numeric versions.
func profilesLess(a, b string) bool { return profiles.CompareVersions(a, b) < 0 }

// acceleratorFetchError explains a jar that could not be fetched from where
// NVIDIA published it instead of Maven Central (25.08.0: only NVIDIA's
// Artifactory, edge.urm.nvidia.com).
func acceleratorFetchError(res profiles.Resolved, a profiles.Artifact, m sources.Mirrors, err error) error {
	if a.Name != profiles.AcceleratorArtifact || strings.HasPrefix(a.URL, sources.MavenCentral+"/") {
		return err
	}
	where := "NVIDIA's Artifactory (" + sources.NVIDIAMaven + ")"
	via := "devenv fetches it from there directly"
	if m.Maven != "" {
		via = "devenv fetches it through mirrors.maven (" + m.Maven + "), which must proxy that repository"
	}
	return fmt.Errorf("%w (RAPIDS Accelerator %s jars are not on Maven Central: NVIDIA published them only to %s, and %s; pin rapids: 25.10.0 or later, which are on Maven Central, if neither is reachable)",
		err, res.Rapids, where, via)
}
