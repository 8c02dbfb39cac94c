package images

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-multierror"
)

// tarNamesNoCheck lists the entry names of a tar stream.
func tarNamesNoCheck(r io.Reader) []string {
	var names []string
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err != nil {
			return names
		}
		names = append(names, hdr.Name)
	}
}

// tarNames lists the entries of a tar stream with their modes.
func tarNames(t *testing.T, r io.Reader) []string {
	t.Helper()
	var names []string
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatalf("reading the context tar: %v", err)
		}
		if !hdr.ModTime.Equal(time.Unix(0, 0)) || hdr.Uid != 0 || hdr.Gid != 0 {
			t.Errorf("%s: mtime %v uid %d gid %d, want fixed values", hdr.Name, hdr.ModTime, hdr.Uid, hdr.Gid)
		}
		names = append(names, fmt.Sprintf("%s %04o", hdr.Name, hdr.Mode))
	}
}

func TestWriteContextGenerated(t *testing.T) {
	dir := t.TempDir()
	in := hashProject(t, dir) // the project also holds .git, .env and notebooks
	writeFiles(t, dir, map[string]string{"id_rsa.key": "k", ".devenv/state": "{}"})
	in.Extra["notes.txt"] = []byte("plain")
	var buf bytes.Buffer
	if err := WriteContext(in, &buf); err != nil {
		t.Fatalf("WriteContext: %v", err)
	}
	got := tarNames(t, bytes.NewReader(buf.Bytes()))
	want := []string{
		"Dockerfile 0644",
		"certs/00-corp.crt 0644",
		"extra/getGpusResources.sh 0755",
		"extra/notes.txt 0644",
		"requirements.txt 0644",
	}
	if !slices.Equal(got, want) {
		t.Errorf("context holds\n%s\nwant exactly\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var again bytes.Buffer
	if err := WriteContext(in, &again); err != nil || !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Errorf("a second WriteContext gave different bytes (err %v)", err)
	}
}

func TestWriteContextUserDockerfile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"docker/Dockerfile":           "FROM scratch\n",
		"docker/.dockerignore":        "# build outputs\nbuild\n*.log\n!keep.log\nDockerfile\n",
		"docker/app/main.go":          "package main",
		"docker/app/run.log":          "x",
		"docker/keep.log":             "kept by an exception",
		"docker/build/out.bin":        "x",
		"docker/.git/config":          "[core]",
		"docker/.env":                 "TOKEN=1",
		"docker/.env.production":      "TOKEN=2",
		"docker/server.pem":           "pem",
		"docker/app/tls.key":          "key",
		"docker/.devenv/state.json":   "{}",
		"docker/sub/.git/HEAD":        "ref",
		"outside-the-context/a.txt":   "not in the context",
		"docker/.dockerignore.backup": "plain file, kept",
	})
	in := Input{Project: "p", Service: "s", UserDockerfile: filepath.Join(dir, "docker", "Dockerfile")}
	in.Resolved.Profile = "image"
	var buf bytes.Buffer
	if err := WriteContext(in, &buf); err != nil {
		t.Fatalf("WriteContext: %v", err)
	}
	got := tarNames(t, &buf)
	want := []string{
		".dockerignore 0644",
		".dockerignore.backup 0644",
		"Dockerfile 0644",
		"app/ 0755",
		"app/main.go 0644",
		"app/run.log 0644", // like Docker, *.log matches at the top only
		"keep.log 0644",
		"sub/ 0755",
	}
	if !slices.Equal(got, want) {
		t.Errorf("context holds\n%s\nwant exactly\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestWriteContextPlainImage(t *testing.T) {
	in := Input{Service: "db", Base: "postgres:16@sha256:" + shaJar}
	in.Resolved.Profile = "image"
	if err := WriteContext(in, io.Discard); err == nil {
		t.Error("WriteContext of a plain image: want an error, got nil")
	}
}

// TestInputErrors checks that every problem is reported at once, naming the
// service and saying what to do.
func TestInputErrors(t *testing.T) {
	in := sparkInput(t.TempDir())
	in.Base = ""
	in.Resolved.Java = "seventeen"
	in.Files[0].SHA256 = "abc"
	in.Files = in.Files[:1] // no RAPIDS jar
	delete(in.Extra, DiscoveryScript)
	in.Resolved.Apt = []string{"curl; rm -rf /"}
	in.Resolved.Env = map[string]string{"1BAD": "x"}
	in.PipIndexURL = "ftp://mirror"
	_, err := Render(in)
	var merr *multierror.Error
	if !errors.As(err, &merr) {
		t.Fatalf("Render error = %v, want a multierror", err)
	}
	wantParts := []string{"base image reference", `Java "seventeen"`, `sha256 "abc"`, "no RAPIDS Accelerator jar",
		"discovery script", `apt package "curl; rm -rf /"`, `env name "1BAD"`, "PyPI mirror"}
	if len(merr.Errors) != len(wantParts) {
		t.Errorf("got %d problems, want %d:\n%v", len(merr.Errors), len(wantParts), err)
	}
	for _, part := range wantParts {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error does not mention %q:\n%v", part, err)
		}
	}
}

func TestContextMissingFiles(t *testing.T) {
	in := sparkInput(t.TempDir()) // its artifact files were never written
	in.RequirementsPath = "requirements.txt"
	in.Resolved.CACerts = []string{"corp.pem"}
	err := WriteContext(in, io.Discard)
	var merr *multierror.Error
	if !errors.As(err, &merr) || len(merr.Errors) != 4 {
		t.Fatalf("WriteContext error = %v, want 4 problems (2 artifacts, requirements, certificate)", err)
	}
	if !strings.Contains(err.Error(), "devenv lock") {
		t.Errorf("error does not say to run devenv lock: %v", err)
	}
}
