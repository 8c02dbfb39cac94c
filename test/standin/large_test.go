package standin

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"crypto/sha512"
	"encoding/hex"
	"io"
	"strings"
	"testing"
)

// TestWithSizesServesLargeArtifacts: WithSizes serves a Spark distribution
// and a RAPIDS jar of the asked size, whose bytes do not compress, whose
// checksum files match them, and which still hold what the small ones hold.
func TestWithSizesServesLargeArtifacts(t *testing.T) {
	t.Setenv("DEVENV_TEST_CACHE", t.TempDir())
	const n = 3 << 20
	s := Artifacts(t, WithSpark("3.5.6"), WithScala("2.12"), WithRapids("25.06.0"), WithRapidsClassifiers(""), WithSizes(n, n))
	spark, rapids := SparkPath("3.5.6", "2.12"), RapidsPath("2.12", "25.06.0", "")
	_, tgzBytes := get(t, s.URL()+"/"+spark)
	_, sum := get(t, s.URL()+"/"+spark+".sha512")
	want := sha512.Sum512(tgzBytes)
	if len(tgzBytes) < n || sha256Hex(tgzBytes) != s.SHA256(spark) || !strings.HasPrefix(string(sum), hex.EncodeToString(want[:])) {
		t.Fatalf("Spark: %d bytes, sha256 %s (server says %s), .sha512 %q", len(tgzBytes), sha256Hex(tgzBytes), s.SHA256(spark), sum)
	}
	var squeezed bytes.Buffer
	fw, _ := flate.NewWriter(&squeezed, flate.BestSpeed)
	_, _ = fw.Write(tgzBytes)
	_ = fw.Close()
	if squeezed.Len() < len(tgzBytes)*9/10 {
		t.Errorf("the distribution compresses from %d to %d bytes; want incompressible padding", len(tgzBytes), squeezed.Len())
	}
	gz, err := gzip.NewReader(bytes.NewReader(tgzBytes))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for tr := tar.NewReader(gz); ; {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, hdr.Name)
	}
	if !strings.Contains(strings.Join(names, " "), "bin/spark-submit") || !strings.Contains(strings.Join(names, " "), "padding") {
		t.Errorf("the large distribution holds %v", names)
	}

	_, jarBytes := get(t, s.URL()+"/"+rapids)
	_, sha1 := get(t, s.URL()+"/"+rapids+".sha1")
	if len(jarBytes) < n || string(sha1) != sha1Hex(jarBytes) {
		t.Fatalf("RAPIDS jar: %d bytes, .sha1 %q, want %s", len(jarBytes), sha1, sha1Hex(jarBytes))
	}
	zr, err := zip.NewReader(bytes.NewReader(jarBytes), int64(len(jarBytes)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zr.Open("rapids4spark-version-info.properties"); err != nil {
		t.Errorf("the large jar lacks its version info: %v", err)
	}

	again := Artifacts(t, WithSpark("3.5.6"), WithScala("2.12"), WithRapids("25.06.0"), WithRapidsClassifiers(""), WithSizes(n, n))
	if again.SHA256(spark) != s.SHA256(spark) || again.LocalFile(spark) != s.LocalFile(spark) {
		t.Errorf("a second server generated the distribution again, or other bytes")
	}
}
