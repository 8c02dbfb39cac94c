// Package upstream reads the publishers' own release listings (Maven's
// maven-metadata.xml for the RAPIDS Accelerator, the registry's tag list
// for NGC images, Apache's release index for Spark), through devenv's
// mirrors, and names the releases devenv's catalog does not know yet. It
// never feeds them to resolution: a release is used only once the catalog
// has its facts (supported Spark, CUDA, driver floor).
package upstream

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/devenv-dev/devenv/internal/sources"
	"github.com/devenv-dev/devenv/profiles"
)

// NotInCatalog is what every finding says.
const NotInCatalog = "not in devenv's catalog yet"

// maxListing bounds what devenv reads of one listing.
const maxListing = 8 << 20

// Finding is one published release the catalog does not know.
type Finding struct {
	Product string `json:"product"`
	Version string `json:"version"`
	Source  string `json:"source"` // the listing it was read from (through the mirror)
	Note    string `json:"note"`   // NotInCatalog
}

// Problem is a listing that could not be read.
type Problem struct {
	Source string `json:"source"`
	Error  string `json:"error"`
}

// Report is what --outdated shows.
type Report struct {
	Newer       []Finding `json:"newer"`
	Unreachable []Problem `json:"unreachable,omitempty"`
	// Offline: no listing could be read at all (no network, or no mirror
	// reachable); nothing was compared.
	Offline bool `json:"offline"`
}

// Tagger lists a registry repository's tags (registry.Pinner).
type Tagger interface {
	Tags(ctx context.Context, repo string) ([]string, error)
}

// Sources are where the listings are read from.
type Sources struct {
	Mirrors sources.Mirrors
	HTTP    *http.Client
	Tags    Tagger
}

// listing is one publisher listing and how to read versions from it.
type listing struct {
	product string
	source  string // canonical location, shown when no mirror is set
	read    func(ctx context.Context) ([]string, error)
	known   []string
}

// Check reads every listing concurrently and reports the releases newer
// than what the catalog knows of each line.
func Check(ctx context.Context, known profiles.Known, src Sources) Report {
	ls := src.listings(known)
	results := make([]struct {
		vs  []string
		err error
	}, len(ls))
	var wg sync.WaitGroup
	for i, l := range ls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i].vs, results[i].err = l.read(ctx)
		}()
	}
	wg.Wait()
	rep := Report{Newer: []Finding{}}
	for i, l := range ls {
		if err := results[i].err; err != nil {
			rep.Unreachable = append(rep.Unreachable, Problem{Source: l.source, Error: err.Error()})
			continue
		}
		for _, v := range newer(results[i].vs, l.known) {
			rep.Newer = append(rep.Newer, Finding{Product: l.product, Version: v, Source: l.source, Note: NotInCatalog})
		}
	}
	rep.Offline = len(rep.Unreachable) == len(ls)
	return rep
}

func (s Sources) listings(k profiles.Known) []listing {
	var out []listing
	for _, scala := range []string{"2.12", "2.13"} {
		u := s.Mirrors.URL(sources.MavenCentral + "/com/nvidia/rapids-4-spark_" + scala + "/maven-metadata.xml")
		out = append(out, listing{product: "RAPIDS Accelerator (NVIDIA cuDF plugin for Apache Spark), Scala " + scala,
			source: u, known: k.Accelerator, read: func(ctx context.Context) ([]string, error) { return s.mavenVersions(ctx, u) }})
	}
	spark := s.Mirrors.URL(sources.ApacheArchive + "/spark/")
	out = append(out, listing{product: "Apache Spark", source: spark, known: k.Spark,
		read: func(ctx context.Context) ([]string, error) { return s.apacheReleases(ctx, spark) }})
	for _, img := range []struct{ product, repo string }{
		{"Triton Inference Server", "nvcr.io/nvidia/tritonserver"},
		{"RAPIDS container", "nvcr.io/nvidia/rapidsai/base"},
	} {
		repo := s.Mirrors.Image(img.repo)
		kn := k.Triton
		if img.repo == "nvcr.io/nvidia/rapidsai/base" {
			kn = k.Rapids
		}
		out = append(out, listing{product: img.product, source: repo, known: kn,
			read: func(ctx context.Context) ([]string, error) { return s.imageReleases(ctx, repo) }})
	}
	return out
}

var (
	releaseRE  = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)
	sparkDirRE = regexp.MustCompile(`href="spark-([0-9]+\.[0-9]+\.[0-9]+)/"`)
	ngcMonthRE = regexp.MustCompile(`^([0-9]{2}\.[0-9]{2})-`)
)

func (s Sources) get(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxListing+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxListing {
		return nil, fmt.Errorf("GET %s: the listing is larger than %d MiB", url, maxListing>>20)
	}
	return data, nil
}

// mavenVersions reads an artifact-level maven-metadata.xml's release versions.
func (s Sources) mavenVersions(ctx context.Context, url string) ([]string, error) {
	data, err := s.get(ctx, url)
	if err != nil {
		return nil, err
	}
	var md struct {
		Versions []string `xml:"versioning>versions>version"`
	}
	if err := xml.Unmarshal(data, &md); err != nil {
		return nil, fmt.Errorf("%s is not maven-metadata.xml: %w", url, err)
	}
	var out []string
	for _, v := range md.Versions {
		if v = strings.TrimSpace(v); releaseRE.MatchString(v) { // SNAPSHOTs are no releases
			out = append(out, v)
		}
	}
	return out, nil
}

// apacheReleases reads the spark-X.Y.Z/ directories of Apache's index page.
func (s Sources) apacheReleases(ctx context.Context, url string) ([]string, error) {
	data, err := s.get(ctx, url)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range sparkDirRE.FindAllSubmatch(data, -1) {
		out = append(out, string(m[1]))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s lists no spark-X.Y.Z/ directory", url)
	}
	return out, nil
}

// imageReleases reads the YY.MM releases an NGC repository's tags name.
func (s Sources) imageReleases(ctx context.Context, repo string) ([]string, error) {
	if s.Tags == nil {
		return nil, errors.New("no registry client")
	}
	tags, err := s.Tags.Tags(ctx, repo)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range tags {
		if m := ngcMonthRE.FindStringSubmatch(t); m != nil && !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out, nil
}

// newer are the published versions the catalog lacks that are newer than
// what it knows of their line: a patch release after the newest known one of
// its major.minor, or anything after the newest known release when the
// catalog knows none of its line (a new month, a new Spark line).
func newer(published, known []string) []string {
	newest := ""
	byLine := map[string]string{}
	for _, v := range known {
		if newest == "" || profiles.CompareVersions(v, newest) > 0 {
			newest = v
		}
		l := line(v)
		if byLine[l] == "" || profiles.CompareVersions(v, byLine[l]) > 0 {
			byLine[l] = v
		}
	}
	var out []string
	for _, v := range published {
		if slices.Contains(known, v) || slices.Contains(out, v) {
			continue
		}
		top, ok := byLine[line(v)]
		if ok && profiles.CompareVersions(v, top) > 0 || !ok && profiles.CompareVersions(v, newest) > 0 {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return profiles.CompareVersions(out[i], out[j]) < 0 })
	return out
}

func line(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 3 {
		return "" // YY.MM releases: one line
	}
	return parts[0] + "." + parts[1]
}

// Text renders the report for people.
func (r Report) Text() string {
	var b strings.Builder
	if r.Offline {
		b.WriteString("could not read any publisher's listing (no network, or the mirrors are unreachable): nothing compared; devenv's catalog is unchanged and still used as is\n")
	} else if len(r.Newer) == 0 {
		b.WriteString("the publishers list no release newer than devenv's catalog\n")
	}
	for _, f := range r.Newer {
		fmt.Fprintf(&b, "%s %s: %s (listed at %s)\n", f.Product, f.Version, f.Note, f.Source)
	}
	if len(r.Newer) > 0 {
		b.WriteString("devenv pins a release only once its catalog has that release's facts (Spark shims, CUDA, driver floor); until then it keeps choosing from the catalog\n")
	}
	for _, p := range r.Unreachable {
		fmt.Fprintf(&b, "could not read %s: %s\n", p.Source, p.Error)
	}
	return b.String()
}

// Notes are the report's findings as one line each, for `lock --upgrade`.
func (r Report) Notes() []string {
	var out []string
	for _, f := range r.Newer {
		out = append(out, fmt.Sprintf("%s %s is out, %s: the lock keeps to releases the catalog knows", f.Product, f.Version, f.Note))
	}
	return out
}
