package standin

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/jsonmessage"

	"github.com/devenv-dev/devenv/internal/labels"
)

const chainProject = "standin-chain-test"

// TestIntegrationStandinChain proves the stand-ins work together against
// the real engine: the Debian stand-in is imported, pushed to the in-process
// registry, pulled by digest through the engine, and used as the FROM of a
// build that installs a JRE with apt and checks the artifact server's files
// with sha512sum and sha1sum. Each step's time goes to the test log.
func TestIntegrationStandinChain(t *testing.T) {
	cli := Docker(t)
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Minute)
	defer cancel()
	CleanupProject(t, chainProject)

	step := timer(t)
	base := Debian(t)
	step("Debian stand-in ready (cache hit when fast)")

	reg := Registry(t)
	digest := Push(t, base, reg+"/nvidia/cuda:12.9.1-runtime-ubuntu22.04")
	step("push to the in-process registry")
	if !regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(digest) {
		t.Fatalf("Push returned %q, want sha256:<64 hex>", digest)
	}

	pinned := reg + "/nvidia/cuda@" + digest
	pullByDigest(ctx, t, cli, pinned)
	step("engine pull by digest " + pinned)

	arts := Artifacts(t, WithScala("2.12"), WithRapidsClassifiers("cuda12"))
	spark, rapids := SparkPath("3.5.6", "2.12"), RapidsPath("2.12", "25.06.0", "cuda12")
	files := map[string][]byte{"Dockerfile": []byte(chainDockerfile(pinned, filepath.Base(spark), filepath.Base(rapids)))}
	for _, p := range []string{spark, spark + ".sha512", rapids, rapids + ".sha1"} {
		_, body := get(t, arts.URL()+"/"+p)
		files["artifacts/"+filepath.Base(p)] = body
	}
	out := buildImage(ctx, t, cli, files, "devenv-standin/chain-test:latest")
	step("image build (apt-get install openjdk-17-jre-headless, checksum checks)")
	for _, want := range []string{"spark-3.5.6-bin-hadoop3.tgz: OK", "rapids-4-spark_2.12-25.06.0-cuda12.jar: OK", "Welcome to Spark version 3.5.6", `openjdk version "17`} {
		if !strings.Contains(out, want) {
			t.Errorf("build output lacks %q:\n%s", want, out)
		}
	}
	if m := regexp.MustCompile(`apt took \d+s`).FindString(out); m != "" {
		t.Logf("standin: inside the build, %s", m)
	}

	steps := parent(ctx, t, cli, "devenv-standin/chain-test:latest")
	if err := removeProject(cli, chainProject); err != nil {
		t.Fatalf("CleanupProject's removal failed: %v", err)
	}
	if imageExists(ctx, cli, "devenv-standin/chain-test:latest") {
		t.Errorf("the image labelled %s=%s survived the project cleanup", labels.Project, chainProject)
	}
	// The project's cleanup keeps the build's steps (the cache of other
	// builds); this build's are its own (no cache, a Dockerfile of its own).
	if _, err := cli.ImageRemove(ctx, steps, image.RemoveOptions{PruneChildren: true}); err != nil {
		t.Errorf("removing the build's steps: %v", err)
	}
}

// timer logs the time since its last call under a step name.
func timer(t *testing.T) func(string) {
	last := time.Now()
	return func(name string) {
		t.Helper()
		t.Logf("TIMING %-70s %s", name, time.Since(last).Round(time.Millisecond))
		last = time.Now()
	}
}

func chainDockerfile(from, sparkFile, jarFile string) string {
	return fmt.Sprintf(`FROM %[1]s
RUN start=$(date +%%s) && apt-get update && apt-get install -y --no-install-recommends openjdk-17-jre-headless && rm -rf /var/lib/apt/lists/* && echo "apt took $(( $(date +%%s) - start ))s"
COPY artifacts/ /artifacts/
RUN cd /artifacts && sha512sum -c %[2]s.sha512 && echo "$(cat %[3]s.sha1)  %[3]s" | sha1sum -c \
 && tar -xzf %[2]s -C /opt && /opt/spark-3.5.6-bin-hadoop3/bin/spark-submit --version && java -version
LABEL %[4]s=%[5]s
`, from, sparkFile, jarFile, labels.Project, chainProject)
}

// pullByDigest pulls ref through the engine and removes that reference at
// cleanup (the registry's port changes every run).
func pullByDigest(ctx context.Context, t *testing.T, cli *client.Client, ref string) {
	t.Helper()
	rc, err := cli.ImagePull(ctx, ref, image.PullOptions{})
	if err != nil {
		t.Fatalf("engine pull of %s: %v", ref, err)
	}
	defer func() { _ = rc.Close() }()
	if err := jsonmessage.DisplayJSONMessagesStream(rc, io.Discard, 0, false, nil); err != nil {
		t.Fatalf("engine pull of %s: %v", ref, err)
	}
	t.Cleanup(func() { _, _ = cli.ImageRemove(context.WithoutCancel(t.Context()), ref, image.RemoveOptions{}) }) // t.Context() ends before cleanups
	inspect, err := cli.ImageInspect(ctx, ref)
	if err != nil {
		t.Fatalf("the engine has no %s after pulling it: %v", ref, err)
	}
	if !slices.Contains(inspect.RepoDigests, ref) {
		t.Errorf("pulled image's RepoDigests %v lack %s", inspect.RepoDigests, ref)
	}
}

// buildImage builds files (a build context holding a Dockerfile) as tag
// with the engine's classic builder, without cache, and returns the output.
func buildImage(ctx context.Context, t *testing.T, cli *client.Client, files map[string][]byte, tag string) string {
	t.Helper()
	var ctxTar bytes.Buffer
	tw := tar.NewWriter(&ctxTar)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), ModTime: archiveTime}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	resp, err := cli.ImageBuild(ctx, &ctxTar, build.ImageBuildOptions{Tags: []string{tag}, NoCache: true, Remove: true, ForceRemove: true})
	if err != nil {
		t.Fatalf("engine build of %s: %v", tag, err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out bytes.Buffer
	if err := jsonmessage.DisplayJSONMessagesStream(resp.Body, &out, 0, false, nil); err != nil {
		t.Fatalf("engine build of %s failed: %v\n%s", tag, err, out.String())
	}
	return out.String()
}
