package standin

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/jsonmessage"

	"github.com/devenv-dev/devenv/internal/labels"
)

// testLabel marks every image this file builds, so that its own cleanup
// finds the build cache too.
const testLabel = "dev.devenv.test.cleanup"

// TestIntegrationCleanupProjectRemovesItsImagesOnly: the project's cleanup
// leaves none of its images (two tags on one, one built on another with
// the step between them, one left dangling by a rebuild, one a stopped
// container ran) and none of its containers, but keeps the build cache
// below them: the parent without the project's label is still there, and
// another project's build that follows reuses it.
func TestIntegrationCleanupProjectRemovesItsImagesOnly(t *testing.T) {
	cli := Docker(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	id := randomID(t)
	name, other := "standin-cleanup-"+id, "standin-cleanup-other-"+id
	repo := "devenv-standin/cleanup-" + id
	t.Cleanup(func() { // what this test built, the cache included
		cctx := context.WithoutCancel(t.Context())
		_ = removeProject(cli, name)
		_ = removeProject(cli, other)
		if err := removeImages(cctx, cli, filters.NewArgs(filters.Arg("label", testLabel+"="+id))); err != nil {
			t.Errorf("removing the test's build cache: %v", err)
		}
	})
	own := map[string]string{labels.Project: name}
	shared := fmt.Sprintf("FROM %s\nLABEL %s=%s\nRUN echo %s > /shared\n", Debian(t), testLabel, id, id)

	a := buildTagged(ctx, t, cli, shared, repo+":a", own)
	if err := cli.ImageTag(ctx, repo+":a", repo+":a2"); err != nil {
		t.Fatal(err)
	}
	cache := parent(ctx, t, cli, a) // the RUN step: no project label
	buildTagged(ctx, t, cli, "FROM "+repo+":a\nRUN echo b > /b\n", repo+":b", own)
	buildTagged(ctx, t, cli, shared+"RUN echo c1 > /c\n", repo+":c", own)
	buildTagged(ctx, t, cli, shared+"RUN echo c2 > /c\n", repo+":c", own) // the first :c is left dangling
	if _, err := cli.ContainerCreate(ctx, &container.Config{Image: repo + ":a", Cmd: []string{"true"}, Labels: own}, nil, nil, nil, name+"-app"); err != nil {
		t.Fatal(err)
	}
	before := projectImages(ctx, t, cli, name)
	if len(before) < 5 { // a, b and the step under it, c and the dangling c
		t.Fatalf("the project has %d labelled images before the cleanup, want at least 5: %v", len(before), before)
	}

	if err := removeProject(cli, name); err != nil {
		t.Fatalf("removeProject: %v", err)
	}
	if left := projectImages(ctx, t, cli, name); len(left) > 0 {
		t.Errorf("images labelled %s=%s left after the cleanup: %v (of %v)", labels.Project, name, left, before)
	}
	for _, ref := range []string{repo + ":a", repo + ":a2", repo + ":b", repo + ":c"} {
		if imageExists(ctx, cli, ref) {
			t.Errorf("%s survived the cleanup", ref)
		}
	}
	if cs, _ := cli.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", labels.ProjectFilter(name)))}); len(cs) > 0 {
		t.Errorf("containers left after the cleanup: %v", cs[0].Names)
	}
	if !imageExists(ctx, cli, cache) {
		t.Fatalf("the cleanup removed the build cache %s under the project's images: another test's build using it as a parent would fail", cache)
	}
	o := buildTagged(ctx, t, cli, shared+"RUN echo other > /o\n", repo+":other", map[string]string{labels.Project: other})
	if !hasAncestor(ctx, t, cli, o, cache) {
		t.Errorf("another project's build did not reuse the cached step %s", cache)
	}
}

func randomID(t *testing.T) string {
	t.Helper()
	b := make([]byte, 5)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// buildTagged builds dockerfile as tag with the classic builder and its
// cache, labels set as devenv sets them (build options), and returns the
// image's ID.
func buildTagged(ctx context.Context, t *testing.T, cli *client.Client, dockerfile, tag string, lbl map[string]string) string {
	t.Helper()
	bctx, err := tgz([]entry{{Name: "Dockerfile", Mode: 0o644, Body: dockerfile}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := cli.ImageBuild(ctx, bytes.NewReader(bctx), build.ImageBuildOptions{Tags: []string{tag}, Labels: lbl, Remove: true, ForceRemove: true})
	if err != nil {
		t.Fatalf("build %s: %v", tag, err)
	}
	defer func() { _ = resp.Body.Close() }()
	if err := jsonmessage.DisplayJSONMessagesStream(resp.Body, io.Discard, 0, false, nil); err != nil {
		t.Fatalf("build %s: %v", tag, err)
	}
	in, err := cli.ImageInspect(ctx, tag)
	if err != nil {
		t.Fatal(err)
	}
	return in.ID
}

func parent(ctx context.Context, t *testing.T, cli *client.Client, id string) string {
	t.Helper()
	in, err := cli.ImageInspect(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if in.Parent == "" {
		t.Fatalf("image %s has no parent: not built by the classic builder?", id)
	}
	return in.Parent
}

func hasAncestor(ctx context.Context, t *testing.T, cli *client.Client, id, ancestor string) bool {
	t.Helper()
	for id != "" {
		if id == ancestor {
			return true
		}
		in, err := cli.ImageInspect(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		id = in.Parent
	}
	return false
}

// projectImages are the IDs and tags of every image labelled for project,
// the untagged intermediates included.
func projectImages(ctx context.Context, t *testing.T, cli *client.Client, project string) []string {
	t.Helper()
	ims, err := cli.ImageList(ctx, image.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", labels.ProjectFilter(project)))})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, im := range ims {
		out = append(out, fmt.Sprintf("%.19s %v", im.ID, im.RepoTags))
	}
	return out
}
