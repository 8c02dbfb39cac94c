package e2e

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
)

const (
	jarA = "org.example:extra-a:1.0"
	jarB = "org.example:extra-b:1.0"
)

// TestJarChangeRebuildsOnlyTheLayersAfterIt: adding a jar to jars: leaves
// every layer before the jar layers as it was (the build cache, not a
// rebuild), and sends the engine that jar alone: no build context, seen
// through a proxy in front of the engine, holds the Spark distribution, the
// RAPIDS jar or the jar that was there before.
//
// It runs side by side with the other e2e tests on a base of its own
// (standin.PrivateDebian): they build the same spark-rapids steps, and the
// classic builder takes the newest equal image as a step's cache, so on a
// shared base a build of theirs between this test's two builds could
// become the parent of the second and make its later layers anew (equal
// files, new directory times). A user's builds of one project are
// serialised by the project lock and do not meet this.
func TestJarChangeRebuildsOnlyTheLayersAfterIt(t *testing.T) {
	t.Parallel()
	w := newWorld(t, standin.WithMaven(jarA, jarB))
	// The CUDA base's tag, so that the recipe is the one of the shared base
	// (the Python of its OS) on an image of its own.
	ref := "devenv-e2e/jar-layers:" + cudaBase[strings.LastIndex(cudaBase, ":")+1:]
	digest := standin.Push(t, standin.PrivateDebian(t, "jar-layers"), w.registry+"/"+ref)
	t.Cleanup(func() { _ = exec.Command("docker", "rmi", w.registry+"/"+ref+"@"+digest).Run() })
	spark := `profiles:
  jarlayers:
    extends: spark-rapids
    base_image: "nvcr.io/` + ref + `"
` + strings.Replace(oneSpark, "profile: spark-rapids", "profile: jarlayers", 1) + `    jars: ["` + jarA + `"]` + "\n"
	dir, name := w.project(t, spark, nil)
	w.must(t, dir, "lock")
	w.must(t, dir, "build")
	before := serviceImage(t, name)

	writeFile(t, dir, "devenv.yaml", strings.Replace(readFile(t, dir+"/devenv.yaml"), `["`+jarA+`"]`, `["`+jarA+`", "`+jarB+`"]`, 1))
	w.must(t, dir, "lock")
	removeArtifactImage(t, w.art.SHA256(jarPath(jarB)))
	proxy := standin.NewEngineProxy(t)
	w.env = append(w.env, "DOCKER_HOST="+proxy.Host())
	w.must(t, dir, "build")
	after := serviceImage(t, name)

	builds := proxy.Builds()
	var sentJarB bool
	for _, b := range builds {
		for _, held := range []string{"spark-" + sparkVersion + "-bin-hadoop3.tgz", "rapids-4-spark_2.12-" + rapidsVersion + ".jar", "extra-a-1.0.jar"} {
			if b.Holds(held) {
				t.Errorf("the build of %v sent the unchanged artifact %s again (%d bytes)", b.Tags, held, b.Bytes)
			}
		}
		sentJarB = sentJarB || b.Holds("extra-b-1.0.jar")
	}
	if !sentJarB || len(builds) != 2 {
		t.Errorf("want two builds (the new jar's artifact image, the service image), the first sending extra-b-1.0.jar; sent %+v", builds)
	}

	// Every layer of the image before is kept (a layer made again, such as
	// a RUN apt-get, would have new contents); the new jar adds one.
	if at := insertedAt(before.RootFS.Layers, after.RootFS.Layers); at < 0 {
		t.Errorf("the image after adding a jar is not the image before plus one layer:\nbefore %v\nafter  %v", before.RootFS.Layers, after.RootFS.Layers)
	}

	// Its weight is reported layer by layer, and no layer keeps what a later
	// one deletes.
	t.Logf("devenv images:\n%s", w.must(t, dir, "images").Stdout)
	imgs := decode[[]app.ImageReport](t, w.must(t, dir, "images", "--json").Stdout)
	if len(imgs) == 0 || imgs[0].ID != after.ID || imgs[0].Size != after.Size || !holdsLayerCopying(imgs[0], "/opt/spark/jars/") {
		t.Errorf("devenv images reports %+v, want the image %s of %d bytes first, with its jar layers", imgs, after.ID, after.Size)
	}
	base, err := standin.Docker(t).ImageInspect(t.Context(), standin.DebianRef)
	if err != nil {
		t.Fatal(err)
	}
	if wasted := deletedLater(t, after.ID, len(base.RootFS.Layers)); len(wasted) > 0 {
		t.Errorf("layers of the image keep files a later layer deletes: %v", wasted)
	}
}

func holdsLayerCopying(im app.ImageReport, dest string) bool {
	for _, l := range im.Layers {
		if strings.Contains(l.CreatedBy, "COPY") && strings.Contains(l.CreatedBy, dest) && l.Size > 0 {
			return true
		}
	}
	return false
}

// insertedAt is where after is before with one layer inserted, or -1.
func insertedAt(before, after []string) int {
	if len(after) != len(before)+1 {
		return -1
	}
	for i := range after {
		if slices.Equal(after[:i], before[:i]) && slices.Equal(after[i+1:], before[i:]) {
			return i
		}
	}
	return -1
}

// jarPath is the artifact server's path of a Maven coordinate's jar.
func jarPath(coord string) string {
	p := strings.Split(coord, ":")
	return "maven2/" + strings.ReplaceAll(p[0], ".", "/") + "/" + p[1] + "/" + p[2] + "/" + p[1] + "-" + p[2] + ".jar"
}

// removeArtifactImage removes the artifact images of the file with this
// sha256 (left by an earlier run), so that the test sees it built.
func removeArtifactImage(t testing.TB, sha string) {
	t.Helper()
	cli := standin.Docker(t)
	list, err := cli.ImageList(t.Context(), image.ListOptions{Filters: filters.NewArgs(filters.Arg("label", labels.Artifact+"="+sha))})
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range list {
		if _, err := cli.ImageRemove(t.Context(), im.ID, image.RemoveOptions{Force: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// serviceImage is the newest image devenv built for the project's spark service.
func serviceImage(t testing.TB, project string) image.InspectResponse {
	t.Helper()
	cli := standin.Docker(t)
	list, err := cli.ImageList(t.Context(), image.ListOptions{Filters: filters.NewArgs(
		filters.Arg("label", labels.ProjectFilter(project)), filters.Arg("label", labels.Service+"=spark"))})
	if err != nil || len(list) == 0 {
		t.Fatalf("no image of %s's spark service (%v)", project, err)
	}
	slices.SortFunc(list, func(a, b image.Summary) int { return int(b.Created - a.Created) })
	img, err := cli.ImageInspect(t.Context(), list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// deletedLater lists the files one of the image's own layers (those above
// its base's) adds and a later layer deletes (a whiteout): bytes the image
// carries for nothing.
func deletedLater(t testing.TB, id string, baseLayers int) []string {
	t.Helper()
	rc, err := standin.Docker(t).ImageSave(t.Context(), []string{id})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rc.Close() }()
	layers := map[string][]string{} // layer tar path in the save -> its entries
	var manifest []struct{ Layers []string }
	tr := tar.NewReader(rc)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case hdr.Name == "manifest.json":
			if err := json.NewDecoder(tr).Decode(&manifest); err != nil {
				t.Fatal(err)
			}
		case strings.HasSuffix(hdr.Name, "/layer.tar"):
			layers[hdr.Name] = tarEntries(t, tr)
		}
	}
	if len(manifest) != 1 {
		t.Fatalf("docker save wrote %d manifests", len(manifest))
	}
	added := map[string]bool{}
	var wasted []string
	for i, l := range manifest[0].Layers {
		for _, name := range layers[l] {
			dir, base := path.Split(name)
			if deleted, ok := strings.CutPrefix(base, ".wh."); ok && added[dir+deleted] {
				wasted = append(wasted, dir+deleted)
			}
			if i >= baseLayers {
				added[name] = true
			}
		}
	}
	return wasted
}

func tarEntries(t testing.TB, r io.Reader) []string {
	t.Helper()
	var names []string
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, strings.TrimSuffix(hdr.Name, "/"))
	}
}

// TestDeletedLaterFindsWaste: the check above finds a file one layer adds
// and a later one deletes.
func TestDeletedLaterFindsWaste(t *testing.T) {
	t.Parallel()
	name := uniqueName("waste")
	standin.CleanupProject(t, name)
	df := "FROM " + standin.DebianRef + "\nRUN head -c 1000 /dev/zero > /opt/waste\nRUN rm /opt/waste\nLABEL " + labels.Project + "=" + name + "\n"
	var ctx bytes.Buffer
	tw := tar.NewWriter(&ctx)
	_ = tw.WriteHeader(&tar.Header{Name: "Dockerfile", Mode: 0o644, Size: int64(len(df))})
	_, _ = tw.Write([]byte(df))
	_ = tw.Close()
	cli := standin.Docker(t)
	resp, err := cli.ImageBuild(t.Context(), &ctx, build.ImageBuildOptions{Tags: []string{"devenv-test/" + name + ":waste"}, Remove: true, Version: build.BuilderV1})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	base, err := cli.ImageInspect(t.Context(), standin.DebianRef)
	if err != nil {
		t.Fatal(err)
	}
	if got := deletedLater(t, "devenv-test/"+name+":waste", len(base.RootFS.Layers)); !slices.Equal(got, []string{"opt/waste"}) {
		t.Errorf("deletedLater = %v, want [opt/waste]", got)
	}
}
