package e2e

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/labels"
	"github.com/devenv-dev/devenv/test/standin"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/jsonmessage"
)

// BenchmarkRebuildRealSizes times devenv's builds of a spark-rapids service
// with artifacts of real size (a Spark distribution of
// DEVENV_BENCH_SPARK_MB, default 400, and a RAPIDS jar of
// DEVENV_BENCH_RAPIDS_MB, default 500): `up --no-cache` from nothing, then
// `build` after adding a jar, after adding a pip package (from a PyPI
// stand-in) and after a Spark patch bump. Each rebuild is set against its
// floor, measured in the same run: the Docker client alone building only the
// steps that change (the changed artifact's image, then the changed layers
// on top of the image before), with no devenv process. A proxy in front of
// the engine counts the build context bytes devenv sends. Run it once:
// -benchtime 1x.
func BenchmarkRebuildRealSizes(b *testing.B) {
	sparkMB, rapidsMB := envInt("DEVENV_BENCH_SPARK_MB", 400), envInt("DEVENV_BENCH_RAPIDS_MB", 500)
	start := time.Now()
	w := newWorld(b, standin.WithSpark(sparkVersion, "3.5.2"), standin.WithRapidsClassifiers(""),
		standin.WithSizes(sparkMB<<20, rapidsMB<<20), standin.WithMaven(jarA, jarB))
	b.Logf("stand-ins ready (%d MB Spark, %d MB RAPIDS jar) in %s; %s", sparkMB, rapidsMB, time.Since(start).Round(time.Second), load())
	index := standin.PyPI(b, "devenv-probe==1.0.0", "devenv-extra==1.0.0")
	w.pypi = index.URL()
	proxy := standin.NewEngineProxy(b)
	w.env = append(w.env, "DOCKER_HOST="+proxy.Host())
	dir, name := w.project(b, oneSpark+`    jars: ["`+jarA+`"]`+"\n    requirements: requirements.txt\n",
		map[string]string{"requirements.txt": "devenv-probe==1.0.0\n"})
	cli := standin.Docker(b)
	// The floors' builds go through the same proxy as devenv's, so that
	// both pay for it.
	floorCli, err := client.NewClientWithOpts(client.WithHost(proxy.Host()), client.WithAPIVersionNegotiation())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = floorCli.Close() })
	bench := rebuildBench{b: b, w: w, dir: dir, name: name, cli: cli, floorCli: floorCli, proxy: proxy}

	sparkTgz := standin.SparkPath(sparkVersion, "2.12")
	rapidsJar := standin.RapidsPath("2.12", rapidsVersion, "")
	bench.forget(sparkTgz, rapidsJar, jarPath(jarA))
	cold := bench.step("cold up --no-cache", "up", "--no-cache")
	b.ReportMetric(cold.Seconds(), "cold-up-s")
	b.ReportMetric(bench.sentMB, "cold-sent-MB")

	bench.edit(`["`+jarA+`"]`, `["`+jarA+`", "`+jarB+`"]`)
	bench.forget(jarPath(jarB))
	before := serviceImage(b, name).ID
	jar := bench.step("build after adding a jar", "build")
	jarFloor := bench.floor(standin.DebianRef, artifactDockerfile(fileName(jarPath(jarB)), w.art.SHA256(jarPath(jarB)), false),
		map[string]contextFile{fileName(jarPath(jarB)): {data: w.art.Content(jarPath(jarB))}}, func(art string) string {
			return "FROM " + before + "\nCOPY --from=" + art + " /devenv/artifact/" + fileName(jarPath(jarB)) + " /opt/spark/jars/\n"
		})
	bench.report("jar", jar, jarFloor)

	writeFile(b, dir, "requirements.txt", "devenv-probe==1.0.0\ndevenv-extra==1.0.0\n")
	before = serviceImage(b, name).ID
	pip := bench.step("build after adding a pip package", "build")
	pipFloor := bench.floor("", "", nil, func(string) string {
		return "FROM " + before + "\nCOPY requirements.txt /tmp/devenv/requirements.txt\nRUN pip install --no-cache-dir -r /tmp/devenv/requirements.txt\n"
	})
	bench.report("pip", pip, pipFloor)

	bench.edit(`spark: "`+sparkVersion+`"`, `spark: "3.5.2"`)
	bumped := standin.SparkPath("3.5.2", "2.12")
	bench.forget(bumped)
	before = serviceImage(b, name).ID
	spark := bench.step("build after a Spark patch bump", "build")
	rest := fmt.Sprintf("COPY --from=%s /devenv/artifact/%s /opt/sparkRapidsPlugin/\n", bench.artifactImage(rapidsJar), fileName(rapidsJar))
	for _, j := range []string{jarA, jarB} {
		rest += fmt.Sprintf("COPY --from=%s /devenv/artifact/%s /opt/spark/jars/\n", bench.artifactImage(jarPath(j)), fileName(jarPath(j)))
	}
	rest += "COPY requirements.txt /tmp/devenv/requirements.txt\nRUN pip install --no-cache-dir -r /tmp/devenv/requirements.txt\n"
	sparkFloor := bench.floor(standin.DebianRef, artifactDockerfile(fileName(bumped), w.art.SHA256(bumped), true),
		map[string]contextFile{fileName(bumped): {path: w.art.LocalFile(bumped)}}, func(art string) string {
			return "FROM " + before + "\nCOPY --from=" + art + " /devenv/artifact/ /opt/spark/\n" + rest
		})
	bench.report("spark", spark, sparkFloor)
}

type rebuildBench struct {
	b        *testing.B
	w        *world
	dir      string
	name     string
	cli      *client.Client
	floorCli *client.Client // through the proxy
	proxy    *standin.EngineProxy
	sentMB   float64 // by the last step
}

// step runs devenv and returns its wall time, logging it with the bytes of
// build context it sent and the machine's load.
func (r *rebuildBench) step(what string, args ...string) time.Duration {
	sent := len(r.proxy.Builds())
	t0 := time.Now()
	r.w.mustB(r.b, r.dir, args...)
	d := time.Since(t0)
	var bytes int64
	for _, bld := range r.proxy.Builds()[sent:] {
		bytes += bld.Bytes
	}
	r.sentMB = float64(bytes) / 1e6
	r.b.Logf("%s: %s, %d builds, %.1f MB of context sent; %s", what, d.Round(10*time.Millisecond), len(r.proxy.Builds())-sent, r.sentMB, load())
	return d
}

// edit replaces old by new in devenv.yaml and locks again (outside the timings).
func (r *rebuildBench) edit(old, new string) {
	yaml := readFile(r.b, r.dir+"/devenv.yaml")
	if !strings.Contains(yaml, old) {
		r.b.Fatalf("devenv.yaml has no %q:\n%s", old, yaml)
	}
	writeFile(r.b, r.dir, "devenv.yaml", strings.Replace(yaml, old, new, 1))
	r.w.mustB(r.b, r.dir, "lock")
}

// forget removes the artifact images of these served files, so that their
// step pays for sending them as a first build does.
func (r *rebuildBench) forget(paths ...string) {
	for _, p := range paths {
		list, err := r.cli.ImageList(r.b.Context(), image.ListOptions{Filters: filters.NewArgs(filters.Arg("label", labels.Artifact+"="+r.w.art.SHA256(p)))})
		if err != nil {
			r.b.Fatal(err)
		}
		for _, im := range list {
			if _, err := r.cli.ImageRemove(r.b.Context(), im.ID, image.RemoveOptions{Force: true}); err != nil {
				r.b.Fatal(err)
			}
		}
	}
}

// artifactImage is the tag of the artifact image holding a served file.
func (r *rebuildBench) artifactImage(path string) string {
	list, err := r.cli.ImageList(r.b.Context(), image.ListOptions{Filters: filters.NewArgs(filters.Arg("label", labels.Artifact+"="+r.w.art.SHA256(path)))})
	if err != nil || len(list) == 0 || len(list[0].RepoTags) == 0 {
		r.b.Fatalf("no artifact image of %s (%v)", path, err)
	}
	return list[0].RepoTags[0]
}

func (r *rebuildBench) report(what string, d, floor time.Duration) {
	r.b.ReportMetric(d.Seconds(), what+"-s")
	r.b.ReportMetric(floor.Seconds(), what+"-floor-s")
	r.b.ReportMetric(d.Seconds()/floor.Seconds(), what+"-x-floor")
	r.b.ReportMetric(r.sentMB, what+"-sent-MB")
}

// contextFile is a file of a floor build's context: in memory or on disk.
type contextFile struct {
	data []byte
	path string
}

// floor times the changed steps alone with the Docker client: an artifact
// image built from artifactDF on base with files (skipped when base is ""),
// then service(artifact image) on top of the image before, both without the
// build cache and each ending in one LABEL, as devenv's do.
func (r *rebuildBench) floor(base, artifactDF string, files map[string]contextFile, service func(art string) string) time.Duration {
	var total time.Duration
	art := ""
	if base != "" {
		art = "devenv-bench-floor/artifact:" + r.name
		total += r.floorBuild(art, "FROM "+base+"\n"+artifactDF, files)
	}
	req := map[string]contextFile{"requirements.txt": {data: []byte(readFile(r.b, r.dir+"/requirements.txt"))}}
	total += r.floorBuild("devenv-bench-floor/service:"+r.name, service(art), req)
	r.b.Logf("  floor: %s", total.Round(10*time.Millisecond))
	return total
}

func (r *rebuildBench) floorBuild(tag, dockerfile string, files map[string]contextFile) time.Duration {
	dockerfile += fmt.Sprintf("LABEL %q=%q\n", labels.Project, r.name)
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeContext(pw, dockerfile, files)) }()
	t0 := time.Now()
	resp, err := r.floorCli.ImageBuild(r.b.Context(), pr, build.ImageBuildOptions{Tags: []string{tag}, NoCache: true,
		Remove: true, ForceRemove: true, NetworkMode: "host", Version: build.BuilderV1})
	if err != nil {
		r.b.Fatalf("floor build %s: %v", tag, err)
	}
	var out bytes.Buffer
	err = jsonmessage.DisplayJSONMessagesStream(resp.Body, &out, 0, false, nil)
	_ = resp.Body.Close()
	d := time.Since(t0)
	if err != nil {
		r.b.Fatalf("floor build %s: %v\n%s\n%s", tag, err, dockerfile, out.String())
	}
	return d
}

func writeContext(w io.Writer, dockerfile string, files map[string]contextFile) error {
	tw := tar.NewWriter(w)
	add := func(name string, size int64, body io.Reader) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: size, Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err := io.Copy(tw, body)
		return err
	}
	if err := add("Dockerfile", int64(len(dockerfile)), strings.NewReader(dockerfile)); err != nil {
		return err
	}
	for name, f := range files {
		if f.path == "" {
			if err := add(name, int64(len(f.data)), bytes.NewReader(f.data)); err != nil {
				return err
			}
			continue
		}
		fh, err := os.Open(f.path)
		if err != nil {
			return err
		}
		st, _ := fh.Stat()
		err = add(name, st.Size(), fh)
		_ = fh.Close()
		if err != nil {
			return err
		}
	}
	return tw.Close()
}

// artifactDockerfile is the body (after FROM) of an artifact image as
// images/templates/artifact.tmpl makes it.
func artifactDockerfile(name, sha string, unpack bool) string {
	if !unpack {
		dst := "/devenv/artifact/" + name
		return "COPY " + name + " " + dst + "\nRUN printf '%s\\n' '" + sha + "  " + dst + "' | sha256sum --check --strict -\n"
	}
	staged := "/devenv/staged/" + name
	return "COPY " + name + " " + staged + "\nRUN printf '%s\\n' '" + sha + "  " + staged + "' | sha256sum --check --strict - " +
		"&& mkdir -p /devenv/artifact && tar -xf " + staged + " -C /devenv/artifact --strip-components=1 --no-same-owner " +
		`&& py4j="$(ls /devenv/artifact/python/lib/py4j-*-src.zip)" && ln -s "$(basename "$py4j")" /devenv/artifact/python/lib/py4j-src.zip` + "\n"
}

func fileName(p string) string { return p[strings.LastIndex(p, "/")+1:] }

func envInt(name string, def int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv(name), 10, 64); err == nil && v > 0 {
		return v
	}
	return def
}

// load is the machine's load average, as uptime prints it.
func load() string {
	out, err := exec.Command("uptime").Output()
	if err != nil {
		return "load unknown"
	}
	s := strings.TrimSpace(string(out))
	if i := strings.Index(s, "load average"); i >= 0 {
		return s[i:]
	}
	return s
}
