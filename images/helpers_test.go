package images

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"

	"github.com/devenv-dev/devenv/profiles"
)

// checkGolden compares got with testdata/golden/name, or rewrites it under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", "golden", name), got)
}

const (
	shaSpark  = "1111111111111111111111111111111111111111111111111111111111111111"
	shaRapids = "2222222222222222222222222222222222222222222222222222222222222222"
	shaJar    = "3333333333333333333333333333333333333333333333333333333333333333"
	cudaBase  = "127.0.0.1:5055/nvidia/cuda@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
)

// sparkInput is a minimal valid spark-rapids input whose files live in dir.
func sparkInput(dir string) Input {
	return Input{
		Project: "etl", Service: "spark",
		Resolved: profiles.Resolved{
			Profile: profiles.SparkRapids, Spark: "3.5.1", Scala: "2.12", Java: "17", Rapids: "25.06.0",
			CUDA: "12.9.1", BaseImage: "nvcr.io/nvidia/cuda:12.9.1-runtime-ubuntu22.04",
			Artifacts: []profiles.Artifact{
				{Name: ArtifactSpark, File: "spark-3.5.1-bin-hadoop3.tgz"},
				{Name: ArtifactRapidsJar, File: "rapids-4-spark_2.12-25.06.0.jar"},
			},
		},
		Base:       cudaBase,
		ProjectDir: dir,
		Files: []File{
			{Name: "spark-3.5.1-bin-hadoop3.tgz", Path: filepath.Join(dir, "dl", "spark.tgz"), SHA256: shaSpark},
			{Name: "rapids-4-spark_2.12-25.06.0.jar", Path: filepath.Join(dir, "dl", "rapids.jar"), SHA256: shaRapids},
		},
		Extra: map[string][]byte{DiscoveryScript: []byte("#!/usr/bin/env bash\necho '{\"name\": \"gpu\", \"addresses\":[\"0\"]}'\n")},
	}
}

// writeFiles creates files (path relative to dir -> content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
