package images

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hashProject is a spark-rapids input whose artifact, requirements and CA
// certificate files exist under dir.
func hashProject(t *testing.T, dir string) Input {
	t.Helper()
	writeFiles(t, dir, map[string]string{
		"dl/spark.tgz":      "spark bytes",
		"dl/rapids.jar":     "jar bytes",
		"requirements.txt":  "pandas==2.2.2\n",
		"certs/corp.pem":    "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
		".git/HEAD":         "ref: refs/heads/main\n",
		".env":              "TOKEN=secret\n",
		"notebooks/a.ipynb": "{}",
	})
	in := sparkInput(dir)
	in.RequirementsPath = "requirements.txt"
	in.Resolved.CACerts = []string{"certs/corp.pem"}
	in.Resolved.Apt = []string{"curl"}
	in.Resolved.Pip = []string{"polars"}
	in.Resolved.Env = map[string]string{"A": "1", "B": "2", "C": "3"}
	return in
}

func mustHash(t *testing.T, in Input) string {
	t.Helper()
	h, err := Hash(in)
	if err != nil {
		t.Fatalf("Hash: %v", err)
	}
	if len(h) != 64 {
		t.Fatalf("Hash = %q, want 64 hex digits", h)
	}
	return h
}

func TestHashSensitivity(t *testing.T) {
	cases := []struct {
		name   string
		change func(t *testing.T, in *Input)
	}{
		{"base digest", func(t *testing.T, in *Input) {
			in.Base = "127.0.0.1:5055/nvidia/cuda@sha256:dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
		}},
		{"artifact sha256", func(t *testing.T, in *Input) { in.Files[0].SHA256 = shaJar }},
		{"artifact name", func(t *testing.T, in *Input) {
			in.Files[1].Name = "rapids-4-spark_2.12-25.08.0.jar"
			in.Resolved.Artifacts[1].File = in.Files[1].Name
		}},
		{"extra content", func(t *testing.T, in *Input) { in.Extra[DiscoveryScript] = []byte("#!/bin/sh\necho other\n") }},
		{"extra file added", func(t *testing.T, in *Input) { in.Extra["notes.txt"] = []byte("x") }},
		{"requirements content", func(t *testing.T, in *Input) {
			writeFiles(t, in.ProjectDir, map[string]string{"requirements.txt": "pandas==2.2.3\n"})
		}},
		{"apt", func(t *testing.T, in *Input) { in.Resolved.Apt = []string{"curl", "jq"} }},
		{"pip", func(t *testing.T, in *Input) { in.Resolved.Pip = []string{"polars==1.0"} }},
		{"env value", func(t *testing.T, in *Input) { in.Resolved.Env["B"] = "two" }},
		{"CA certificate content", func(t *testing.T, in *Input) {
			writeFiles(t, in.ProjectDir, map[string]string{"certs/corp.pem": "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n"})
		}},
		{"jupyter", func(t *testing.T, in *Input) { in.Jupyter, in.JupyterLab = true, "4.4.9" }},
		{"java", func(t *testing.T, in *Input) { in.Resolved.Java = "11" }},
		{"python", func(t *testing.T, in *Input) { in.Resolved.Python = "3.11" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := hashProject(t, t.TempDir())
			before := mustHash(t, in)
			tc.change(t, &in)
			if after := mustHash(t, in); after == before {
				t.Errorf("changing the %s left the hash at %s", tc.name, before)
			}
		})
	}
}

func TestHashStability(t *testing.T) {
	cases := []struct {
		name   string
		change func(t *testing.T, in *Input)
	}{
		{"nothing", func(t *testing.T, in *Input) {}},
		{"env map built in another order", func(t *testing.T, in *Input) {
			in.Resolved.Env = map[string]string{}
			for _, k := range []string{"C", "A", "B"} {
				in.Resolved.Env[k] = map[string]string{"A": "1", "B": "2", "C": "3"}[k]
			}
		}},
		{"file times", func(t *testing.T, in *Input) {
			old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
			for _, p := range []string{"dl/spark.tgz", "requirements.txt", "certs/corp.pem"} {
				if err := os.Chtimes(filepath.Join(in.ProjectDir, p), old, old); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"project in another directory", func(t *testing.T, in *Input) {
			*in = hashProject(t, t.TempDir())
		}},
		{"base through another mirror", func(t *testing.T, in *Input) {
			in.Base = "nvcr.io/nvidia/cuda:12.9.1-runtime-ubuntu22.04@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		}},
		{"PyPI mirror", func(t *testing.T, in *Input) { in.PipIndexURL = "https://u:p@pypi.corp.example/simple" }},
		{"apt mirror", func(t *testing.T, in *Input) { in.AptMirror = "http://apt.corp.example/debian-remote" }},
		{"unrelated project files", func(t *testing.T, in *Input) {
			writeFiles(t, in.ProjectDir, map[string]string{".env": "TOKEN=other\n", "notebooks/b.ipynb": "{}"})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := hashProject(t, t.TempDir())
			before := mustHash(t, in)
			tc.change(t, &in)
			for i := 0; i < 5; i++ {
				if after := mustHash(t, in); after != before {
					t.Fatalf("hash changed from %s to %s", before, after)
				}
			}
		})
	}
}

// TestHashUserContext checks that a user's Dockerfile is hashed with its
// whole filtered context, and with nothing else.
func TestHashUserContext(t *testing.T) {
	cases := []struct {
		name    string
		change  map[string]string
		chmod   string
		changes bool
	}{
		{"source file edited", map[string]string{"app/main.go": "package main // v2"}, "", true},
		{"file added", map[string]string{"app/util.go": "package main"}, "", true},
		{"Dockerfile edited", map[string]string{"Dockerfile": "FROM scratch\nCOPY app /srv\n"}, "", true},
		{"file made executable", nil, "app/main.go", true},
		{"ignored by .dockerignore", map[string]string{"build/out.bin": "xx"}, "", false},
		{"inside .git", map[string]string{".git/HEAD": "ref: refs/heads/other"}, "", false},
		{"env file", map[string]string{".env.local": "K=v"}, "", false},
		{"key file", map[string]string{"app/id.key": "k", "tls.pem": "p"}, "", false},
		{"devenv state", map[string]string{".devenv/state.json": "{}"}, "", false},
		{"devenv's compose export", map[string]string{"compose.devenv.yaml": "services: {}"}, "", false},
		{"devenv's devcontainer export, written again", map[string]string{".devcontainer/devcontainer.json": `{"name": "again"}`}, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				"Dockerfile": "FROM scratch\nCOPY app /app\n", "app/main.go": "package main",
				".dockerignore": "build\n", "build/old.bin": "x", ".devcontainer/devcontainer.json": "{}",
			})
			in := Input{Project: "p", Service: "s", UserDockerfile: filepath.Join(dir, "Dockerfile")}
			in.Resolved.Profile = "image"
			before := mustHash(t, in)
			writeFiles(t, dir, tc.change)
			if tc.chmod != "" {
				if err := os.Chmod(filepath.Join(dir, tc.chmod), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if after := mustHash(t, in); (after != before) != tc.changes {
				t.Errorf("hash changed = %v, want %v", after != before, tc.changes)
			}
		})
	}
}

func TestTag(t *testing.T) {
	got := Tag("etl", "spark", "0123456789abcdef0123")
	if want := "devenv/etl-spark:0123456789ab"; got != want {
		t.Errorf("Tag = %q, want %q", got, want)
	}
}

func TestJupyterLabVersionIsAnInput(t *testing.T) {
	in := hashProject(t, t.TempDir())
	in.Jupyter, in.JupyterLab = true, "4.4.9"
	before := mustHash(t, in)
	in.JupyterLab = "4.2.5"
	if mustHash(t, in) == before {
		t.Error("a different JupyterLab release left the image hash unchanged")
	}
	in.JupyterLab = ""
	if _, err := Hash(in); err == nil || !strings.Contains(err.Error(), "devenv lock") {
		t.Errorf("Jupyter without a locked JupyterLab release: %v, want an error saying to run devenv lock", err)
	}
}

// TestComposeBuildHashKeptAcrossUpgrade: the image of a compose build:
// service with no build args, target or pinned FROM images (as a lock of
// version 1 leaves it, see lock.Check), whose context is its Dockerfile's
// directory, keeps the tag devenv gave it before it sent compose builds as
// Compose does: an upgrade rebuilds and recreates nothing. The hash is
// what devenv at 9cf5216 computed for the same files.
func TestComposeBuildHashKeptAcrossUpgrade(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"Dockerfile": "FROM nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04\nCOPY app /app\n", "app/main.py": "print('hi')\n"})
	in := Input{Project: "p", Service: "s", ProjectDir: dir, UserContext: dir, UserDockerfile: filepath.Join(dir, "Dockerfile")}
	in.Resolved.Profile = "image"
	if got, want := mustHash(t, in), "824c572fae9f2218d3f539a20efc28abcc2270036364b9ca1d30fc982e046cfc"; got != want {
		t.Errorf("Hash = %s, want %s: an upgrade would rebuild every compose build: service and recreate its container", got, want)
	}
	in.Pins = map[string]string{"nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04": "127.0.0.1:5000/nvidia/cuda@sha256:" + strings.Repeat("a", 64)}
	if mustHash(t, in) == "824c572fae9f2218d3f539a20efc28abcc2270036364b9ca1d30fc982e046cfc" {
		t.Error("a pinned FROM image leaves the hash unchanged")
	}
}
