package standin

import (
	"encoding/xml"
	"path"
	"sort"
	"strconv"
	"strings"
)

// mavenMetadata is the artifact-level maven-metadata.xml Maven Central
// serves next to an artifact's version directories.
type mavenMetadata struct {
	XMLName    xml.Name `xml:"metadata"`
	GroupID    string   `xml:"groupId"`
	ArtifactID string   `xml:"artifactId"`
	Latest     string   `xml:"versioning>latest"`
	Release    string   `xml:"versioning>release"`
	Versions   []string `xml:"versioning>versions>version"`
	Updated    string   `xml:"versioning>lastUpdated"`
}

// addMavenMetadata serves <group>/<artifact>/maven-metadata.xml (with .sha1)
// for every artifact served under maven2/, listing its versions.
func (s *ArtifactServer) addMavenMetadata() error {
	versions := map[string]map[string]bool{} // artifact dir -> versions
	for _, p := range s.Paths() {
		if !strings.HasPrefix(p, "maven2/") || !strings.HasSuffix(p, ".jar") {
			continue
		}
		versionDir := path.Dir(p)
		artifactDir := path.Dir(versionDir)
		if versions[artifactDir] == nil {
			versions[artifactDir] = map[string]bool{}
		}
		versions[artifactDir][path.Base(versionDir)] = true
	}
	for dir, set := range versions {
		data, err := mavenMetadataXML(dir, set)
		if err != nil {
			return err
		}
		p := dir + "/maven-metadata.xml"
		s.files[p] = data
		s.files[p+".sha1"] = []byte(sha1File(data))
		s.sums[p+".sha1"] = p
	}
	return nil
}

func mavenMetadataXML(artifactDir string, set map[string]bool) ([]byte, error) {
	vs := make([]string, 0, len(set))
	for v := range set {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return versionLess(vs[i], vs[j]) })
	rel := strings.TrimPrefix(artifactDir, "maven2/")
	md := mavenMetadata{
		GroupID:    strings.ReplaceAll(path.Dir(rel), "/", "."),
		ArtifactID: path.Base(rel),
		Latest:     vs[len(vs)-1],
		Release:    vs[len(vs)-1],
		Versions:   vs,
		Updated:    archiveTime.Format("20060102150405"),
	}
	out, err := xml.MarshalIndent(md, "", "  ")
	if err != nil {
		return nil, errorf("maven-metadata.xml for %s: %v", rel, err)
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}

// versionLess orders dotted versions numerically part by part ("3.5.6" <
// "3.5.10"), falling back to text for non-numeric parts.
func versionLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, errA := strconv.Atoi(pa[i])
		nb, errB := strconv.Atoi(pb[i])
		switch {
		case errA == nil && errB == nil && na != nb:
			return na < nb
		case (errA != nil || errB != nil) && pa[i] != pb[i]:
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}
