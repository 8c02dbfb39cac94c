package standin

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func get(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

// TestArtifactsDefaultListing pins what the default server holds and the
// sha256 of each file: the generated artifacts must be byte-stable so that
// lock files in end-to-end tests stay valid.
func TestArtifactsDefaultListing(t *testing.T) {
	s := Artifacts(t)
	var b strings.Builder
	for _, p := range s.Paths() {
		fmt.Fprintf(&b, "%s %s\n", s.SHA256(p), p)
	}
	golden(t, "artifacts-default.golden", b.String())
}

func TestArtifactsServe(t *testing.T) {
	s := Artifacts(t, WithSpark("3.5.6", "4.0.1"), WithRapids("25.06.0", "25.10.0"),
		WithMaven("org.example:extra-lib:1.2.3", "org.example:extra-lib:1.2.3:tests"))
	tests := []struct {
		path string
		want int
	}{
		{SparkPath("3.5.6", "2.12"), 200},
		{SparkPath("3.5.6", "2.13"), 200},
		{SparkPath("3.5.6", "2.12") + ".sha512", 200},
		{SparkPath("4.0.1", "2.13"), 200},
		{"apache/spark/spark-4.0.1/spark-4.0.1-bin-hadoop3-scala2.13.tgz", 404}, // Spark 4 has no suffix
		{RapidsPath("2.12", "25.06.0", ""), 200},
		{RapidsPath("2.13", "25.10.0", "cuda12"), 200},
		{RapidsPath("2.13", "25.10.0", "cuda12") + ".sha1", 200},
		{RapidsPath("2.12", "25.08.0", ""), 404},
		{"maven2/com/nvidia/rapids-4-spark_2.12/maven-metadata.xml", 200},
		{"maven2/org/example/extra-lib/1.2.3/extra-lib-1.2.3.jar", 200},
		{"maven2/org/example/extra-lib/1.2.3/extra-lib-1.2.3-tests.jar.sha1", 200},
		{"maven2/", 404},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			code, body := get(t, s.URL()+"/"+tt.path)
			if code != tt.want {
				t.Fatalf("GET %s = %d, want %d", tt.path, code, tt.want)
			}
			if code == 200 && !strings.HasSuffix(tt.path, ".sha1") && !strings.HasSuffix(tt.path, ".sha512") {
				if got, want := sha256Hex(body), s.SHA256(tt.path); got != want {
					t.Errorf("served sha256 %s, SHA256() says %s", got, want)
				}
			}
		})
	}
	if got := s.Requests(); len(got) != len(tests) || got[0] != "/"+tests[0].path {
		t.Errorf("Requests() = %q, want the %d paths requested, in order", got, len(tests))
	}
	if !strings.HasPrefix(s.MavenURL(), "http://127.0.0.1:") || s.MavenURL() != s.URL()+"/maven2" || s.ApacheURL() != s.URL()+"/apache" {
		t.Errorf("URL %s, MavenURL %s, ApacheURL %s", s.URL(), s.MavenURL(), s.ApacheURL())
	}
}

// TestChecksumsVerifyWithTools downloads each artifact with its checksum
// file and checks it with sha512sum / sha1sum, as an image build would; then
// Corrupt must make exactly that check fail.
func TestChecksumsVerifyWithTools(t *testing.T) {
	s := Artifacts(t, WithScala("2.12"), WithRapidsClassifiers("cuda12"))
	spark, rapids := SparkPath("3.5.6", "2.12"), RapidsPath("2.12", "25.06.0", "cuda12")
	dir := t.TempDir()
	fetch := func(p string) string {
		_, body := get(t, s.URL()+"/"+p)
		out := filepath.Join(dir, filepath.Base(p))
		if err := os.WriteFile(out, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return out
	}
	check := func() error {
		fetch(spark)
		fetch(rapids)
		sparkSum, jarSum := fetch(spark+".sha512"), fetch(rapids+".sha1")
		script := fmt.Sprintf("cd %s && sha512sum -c %s && echo \"$(cat %s)  %s\" | sha1sum -c",
			dir, filepath.Base(sparkSum), filepath.Base(jarSum), filepath.Base(rapids))
		out, err := exec.Command("sh", "-c", script).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%w: %s", err, out)
		}
		return nil
	}
	if err := check(); err != nil {
		t.Fatalf("checksums of fresh artifacts do not verify: %v", err)
	}
	s.Corrupt(rapids)
	if err := check(); err == nil || !strings.Contains(err.Error(), "FAILED") {
		t.Fatalf("after Corrupt(%s) the sha1 check should fail, got %v", rapids, err)
	}
	if _, body := get(t, s.URL()+"/"+spark+".sha512"); !bytes.Contains(body, []byte(s.sha512Hex(spark))) {
		t.Errorf("Corrupt(%s) changed the checksum of %s too", rapids, spark)
	}
}

func (s *ArtifactServer) sha512Hex(p string) string {
	return strings.Fields(sha512File(SHA512Coreutils, "x", s.Content(p)))[0]
}

func TestCorruptKeepsGPGLayout(t *testing.T) {
	s := Artifacts(t, WithScala("2.12"), WithSHA512Format(SHA512GPG))
	p := SparkPath("3.5.6", "2.12")
	_, before := get(t, s.URL()+"/"+p+".sha512")
	s.Corrupt(p)
	_, after := get(t, s.URL()+"/"+p+".sha512")
	name := filepath.Base(p) + ": "
	if !bytes.HasPrefix(before, []byte(name)) || !bytes.HasPrefix(after, []byte(name)) || bytes.Equal(before, after) {
		t.Errorf("want two different gpg-layout checksums starting %q\nbefore: %s\nafter: %s", name, before, after)
	}
}

// TestSparkDistribution pins the layout of the Spark stand-in and runs its
// spark-submit with and without DEVENV_STANDIN_PLAN.
func TestSparkDistribution(t *testing.T) {
	for _, d := range []sparkDist{{"3.5.6", "2.12"}, {"3.5.6", "2.13"}, {"4.0.1", "2.13"}} {
		t.Run(d.Base(), func(t *testing.T) {
			data, err := d.tgz()
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			golden(t, d.Base()+".golden", listAndExtract(t, data, dir))
			submit := filepath.Join(dir, d.Base(), "bin", "spark-submit")
			plan := filepath.Join(dir, "plan.txt")
			if err := os.WriteFile(plan, []byte("plan line\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			tests := []struct {
				name, env, want string
				code            int
			}{
				{"args", "", "spark-submit stand-in " + d.Version + " scala " + d.Scala + "\narg: --class\narg: a b\n", 0},
				{"plan", "DEVENV_STANDIN_PLAN=" + plan, "spark-submit stand-in " + d.Version + " scala " + d.Scala + "\narg: --class\narg: a b\nplan line\n", 0},
				{"missing plan", "DEVENV_STANDIN_PLAN=" + plan + ".missing", "spark-submit stand-in " + d.Version + " scala " + d.Scala + "\narg: --class\narg: a b\n", 1},
			}
			for _, tt := range tests {
				cmd := exec.Command(submit, "--class", "a b")
				cmd.Env = append(os.Environ(), "DEVENV_STANDIN_PLAN=", tt.env)
				out, err := cmd.Output()
				if code := cmd.ProcessState.ExitCode(); string(out) != tt.want || code != tt.code {
					t.Errorf("%s: spark-submit printed %q and exited %d (%v), want %q and %d", tt.name, out, code, err, tt.want, tt.code)
				}
			}
		})
	}
}

// listAndExtract lists a tgz's entries (type, mode, size, name) and
// extracts it into dir.
func listAndExtract(t *testing.T, data []byte, dir string) string {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var b strings.Builder
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%c %04o %6d %s\n", h.Typeflag, h.Mode, h.Size, h.Name)
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if h.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, os.FileMode(h.Mode)); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func TestArtifactOptionErrors(t *testing.T) {
	cfg := defaultArtifactConfig()
	cfg.scala = []string{"2.12", "3"}
	cfg.spark = []string{"3.5.6", "2.4", "4.0.0"}
	cfg.rapids = []string{"25.06.0", "latest"}
	cfg.classifiers = []string{"CUDA12"}
	cfg.maven = []string{"a:b", "a:b:1:c:d"}
	cfg.scala = []string{"2.12", "3"}
	s := &ArtifactServer{t: t, files: map[string][]byte{}, sums: map[string]string{}}
	err := s.populate(cfg)
	if err == nil {
		t.Fatal("populate accepted invalid options")
	}
	for _, want := range []string{`Scala "3"`, `Spark version "2.4"`, "Spark 4.0.0: Apache builds it for none of Scala", `RAPIDS version "latest"`, `classifier "CUDA12"`, `coordinate "a:b"`, `coordinate "a:b:1:c:d"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %s:\n%v", want, err)
		}
	}
}

func TestMavenMetadata(t *testing.T) {
	s := Artifacts(t, WithScala("2.12"), WithRapids("25.10.0", "25.06.0", "25.08.1"), WithRapidsClassifiers(""))
	_, body := get(t, s.MavenURL()+"/com/nvidia/rapids-4-spark_2.12/maven-metadata.xml")
	golden(t, "maven-metadata.golden", string(body))
}

func TestVersionLess(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"3.5.6", "3.5.10", true},
		{"3.5.10", "3.5.6", false},
		{"25.06.0", "25.10.0", true},
		{"1.0", "1.0.1", true},
		{"1.0-rc1", "1.0-rc2", true},
		{"2.0", "2.0", false},
	}
	for _, tt := range tests {
		if got := versionLess(tt.a, tt.b); got != tt.want {
			t.Errorf("versionLess(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
