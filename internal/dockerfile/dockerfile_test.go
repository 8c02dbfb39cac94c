package dockerfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/goldenfile"
)

func readReal(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// show renders froms one a line: "LINE IMAGE [AS STAGE]".
func show(froms []From) string {
	var b strings.Builder
	for _, f := range froms {
		fmt.Fprintf(&b, "%d %s", f.Line, f.Image)
		if f.Stage != "" {
			fmt.Fprintf(&b, " AS %s", f.Stage)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestFromsOfRealDockerfiles reads public GPU Dockerfiles (testdata/real,
// each naming its source) as the classic builder would: ARGs before the
// first FROM with their defaults or the build args, stages named by later
// FROMs skipped, scratch skipped, stages after build.target left out.
func TestFromsOfRealDockerfiles(t *testing.T) {
	tests := []struct {
		name, file string
		args       map[string]string
		target     string
		want       string
	}{
		{"ARG defaults; later FROMs name stages through an ARG", "tensorrt-llm-multi.Dockerfile", nil, "",
			"7 nvcr.io/nvidia/pytorch:23.12-py3 AS base\n"},
		{"build args replace the defaults; an ARG naming an image makes those stages images", "tensorrt-llm-multi.Dockerfile",
			map[string]string{"BASE_TAG": "24.05-py3", "DEVEL_IMAGE": "nvcr.io/nvidia/tritonserver:24.05-py3"}, "",
			"7 nvcr.io/nvidia/pytorch:24.05-py3 AS base\n54 nvcr.io/nvidia/tritonserver:24.05-py3 AS wheel\n67 nvcr.io/nvidia/tritonserver:24.05-py3 AS release\n"},
		{"build.target stops at its stage", "tensorrt-llm-multi.Dockerfile",
			map[string]string{"DEVEL_IMAGE": "nvcr.io/nvidia/tritonserver:24.05-py3"}, "wheel",
			"7 nvcr.io/nvidia/pytorch:23.12-py3 AS base\n54 nvcr.io/nvidia/tritonserver:24.05-py3 AS wheel\n"},
		{"build args of ARGs declared after the first FROM do not reach FROM", "tensorrt-llm-multi.Dockerfile",
			map[string]string{"TRT_VER": "10.0"}, "devel", "7 nvcr.io/nvidia/pytorch:23.12-py3 AS base\n"},
		{"three image stages, one image twice, the last a stage", "k8s-device-plugin.Dockerfile", nil, "",
			"17 nvcr.io/nvidia/cuda:12.8.1-base-ubi9 AS build\n49 redhat/ubi9-minimal:latest AS minimal\n55 nvcr.io/nvidia/cuda:12.8.1-base-ubi9 AS base\n"},
		{"lower-case as, both images from ARGs", "tritonserverbuild-tensorrt.Dockerfile", nil, "",
			"5 nvcr.io/nvidia/tensorrt:24.04-py3 AS builder\n7 hieupth/mamba AS runtime\n"},
		{"${VAR:-default} with the default", "rapids-compose-notebooks.Dockerfile", nil, "",
			"5 rapidsai/anon/rapids:cuda-11.2.0\n"},
		{"${VAR:-default} with an empty build arg", "rapids-compose-notebooks.Dockerfile", map[string]string{"CUDA_VERSION": ""}, "",
			"5 rapidsai/anon/rapids:cuda-11.2.0\n"},
		{"${VAR:-default} with a build arg", "rapids-compose-notebooks.Dockerfile", map[string]string{"CUDA_VERSION": "12.0.1", "RAPIDS_NAMESPACE": "nv"}, "",
			"5 rapidsai/nv/rapids:cuda-12.0.1\n"},
		{"five ARGs in one FROM", "rapidsai-clx-base.Dockerfile", nil, "",
			"15 rapidsai/rapidsai-core:23.04-cuda11.8-base-ubuntu22.04-py3.10\n"},
		{"five ARGs in one FROM, the image through NGC", "rapidsai-clx-base.Dockerfile", map[string]string{"FROM_IMAGE": "nvcr.io/nvidia/rapidsai/rapidsai-core"}, "",
			"15 nvcr.io/nvidia/rapidsai/rapidsai-core:23.04-cuda11.8-base-ubuntu22.04-py3.10\n"},
		{"--platform kept apart from the image, scratch skipped", "devops-scratch.Dockerfile", nil, "",
			"2 quay.io/projectquay/golang:1.23 AS builder\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Froms(readReal(t, tt.file), tt.args, tt.target)
			if err != nil {
				t.Fatal(err)
			}
			if show(got) != tt.want {
				t.Errorf("Froms(%s) =\n%s\nwant\n%s", tt.file, show(got), tt.want)
			}
		})
	}
}

// TestFromsReadsAsTheBuilderDoes: continuation lines, comments inside
// them, the escape directive, heredocs and CRLF line ends move no line
// number; stage names match whatever their case; meta ARG defaults use
// the ARGs before them.
func TestFromsReadsAsTheBuilderDoes(t *testing.T) {
	tests := []struct {
		name, text string
		args       map[string]string
		want       string
	}{
		{"continuation with a comment inside", "FROM \\\n  # the base\n  nvcr.io/nvidia/cuda:12.9.1 \\\n  AS base\nRUN true\n", nil, "1 nvcr.io/nvidia/cuda:12.9.1 AS base\n"},
		{"escape directive", "# escape=`\nFROM nvcr.io/nvidia/cuda:12.9.1 `\n  AS base\n", nil, "2 nvcr.io/nvidia/cuda:12.9.1 AS base\n"},
		{"heredoc before a FROM", "FROM a:1 AS one\nRUN <<EOF\nFROM not-an-instruction\nEOF\nFROM b:2\n", nil, "1 a:1 AS one\n5 b:2\n"},
		{"CRLF", "ARG T=1\r\nFROM a:${T}\r\n\r\nFROM b:2\r\n", nil, "2 a:1\n4 b:2\n"},
		{"stage names are not case-sensitive", "FROM a:1 AS Build\nFROM build\nFROM BUILD AS again\n", nil, "1 a:1 AS Build\n"},
		{"a default uses an earlier ARG, which a build arg sets", "ARG V=1\nARG IMG=x:${V}\nFROM ${IMG}\n", map[string]string{"V": "2"}, "3 x:2\n"},
		{"an ARG without a default, set by a build arg", "ARG BASE\nFROM ${BASE}\n", map[string]string{"BASE": "nvcr.io/nvidia/cuda:12.9.1"}, "2 nvcr.io/nvidia/cuda:12.9.1\n"},
		{"a digest reference", "FROM nvcr.io/nvidia/cuda@sha256:" + strings.Repeat("a", 64) + "\n", nil, "1 nvcr.io/nvidia/cuda@sha256:" + strings.Repeat("a", 64) + "\n"},
		{"only scratch", "FROM scratch\nCOPY x /\n", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Froms([]byte(tt.text), tt.args, "")
			if err != nil {
				t.Fatal(err)
			}
			if show(got) != tt.want {
				t.Errorf("Froms =\n%s\nwant\n%s", show(got), tt.want)
			}
		})
	}
}

// TestFromsErrorsNameTheLine: each problem is an *Error at its line with
// a hint.
func TestFromsErrorsNameTheLine(t *testing.T) {
	tests := []struct {
		name, text, target string
		line               int
		want               string
	}{
		{"unset ARG", "ARG BASE\nFROM ${BASE}\n", "", 2, "names no image"},
		{"ARG declared after the first FROM", "FROM a:1\nARG TAG=2\nFROM b:${TAG}\n", "", 3, "not an image reference"},
		{"not a reference", "FROM Upper/Case:1\n", "", 1, "not an image reference"},
		{"extra words", "FROM a:1 b\n", "", 1, "want FROM [--platform=...] IMAGE [AS NAME]"},
		{"no FROM", "ARG A=1\n", "", 0, "has no FROM instruction"},
		{"empty", "# nothing\n", "", 1, "file with no instructions"},
		{"unknown target", "FROM a:1 AS one\nFROM b:1 AS two\n", "three", 0, "set build.target to one of its stages: one, two"},
		{"bad expression", "FROM a:${X:?must be set}\n", "", 1, "must be set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Froms([]byte(tt.text), nil, tt.target)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want an *Error", err)
			}
			if e.Line != tt.line || !strings.Contains(e.Msg+" "+e.Hint, tt.want) || e.Hint == "" {
				t.Errorf("error at line %d: %q (hint %q); want line %d saying %q, with a hint", e.Line, e.Msg, e.Hint, tt.line, tt.want)
			}
		})
	}
}

// fakePin is where a test registry mirror serves image, by a digest made
// from its name.
func fakePin(image string) string {
	sum := sha256.Sum256([]byte(image))
	repo := image
	if i := strings.IndexAny(repo, ":@"); i > 0 && !strings.Contains(repo[i:], "/") {
		repo = repo[:i]
	}
	if first, rest, ok := strings.Cut(repo, "/"); ok && strings.ContainsAny(first, ".:") {
		repo = rest
	}
	return "127.0.0.1:5000/" + repo + "@sha256:" + hex.EncodeToString(sum[:])
}

// TestPinRealDockerfiles rewrites every FROM of the real Dockerfiles to a
// pinned reference (golden files) and checks what the builder then reads:
// the pinned images at the same lines, and every other line unchanged.
func TestPinRealDockerfiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "real", "*.Dockerfile"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			data := readReal(t, name)
			froms, err := Froms(data, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			pins := map[string]string{}
			for _, img := range Images(froms) {
				pins[img] = fakePin(img)
			}
			out, err := Pin(data, nil, "", pins)
			if err != nil {
				t.Fatal(err)
			}
			goldenfile.Check(t, filepath.Join("testdata", "pinned", name), out)
			checkPinned(t, data, out, froms, pins)
		})
	}
}

func checkPinned(t *testing.T, data, out []byte, froms []From, pins map[string]string) {
	t.Helper()
	again, err := Froms(out, nil, "")
	if err != nil {
		t.Fatalf("the pinned Dockerfile does not read: %v", err)
	}
	if len(again) != len(froms) {
		t.Fatalf("pinned: %s\nwant one FROM for each of\n%s", show(again), show(froms))
	}
	fromLines := map[int]bool{}
	for i, f := range froms {
		fromLines[f.Line] = true
		if g := again[i]; g.Line != f.Line || g.Image != pins[f.Image] || g.Stage != f.Stage {
			t.Errorf("pinned FROM %d %s AS %q, want %d %s AS %q", g.Line, g.Image, g.Stage, f.Line, pins[f.Image], f.Stage)
		}
	}
	was, now := bytes.Split(data, []byte("\n")), bytes.Split(out, []byte("\n"))
	if len(was) != len(now) {
		t.Fatalf("pinned has %d lines, the Dockerfile %d", len(now), len(was))
	}
	for i := range was {
		if !fromLines[i+1] && !bytes.Equal(was[i], now[i]) {
			t.Errorf("line %d changed: %q -> %q", i+1, was[i], now[i])
		}
	}
}

// TestPinKeepsLinesFlagsAndUnpinned: a FROM over several lines leaves them
// empty (line endings kept), flags stay, images without a pin and stages
// stay as written.
func TestPinKeepsLinesFlagsAndUnpinned(t *testing.T) {
	tests := []struct {
		name, text string
		pins       map[string]string
		want       string
	}{
		{"several lines, CRLF", "FROM \\\r\n  a:1 \\\r\n  AS one\r\nRUN x\r\n", map[string]string{"a:1": "m/a@sha256:1"},
			"FROM m/a@sha256:1 AS one\r\n\r\n\r\nRUN x\r\n"},
		{"flags kept", "FROM --platform=$BUILDPLATFORM a:1 AS b\n", map[string]string{"a:1": "m/a@sha256:1"},
			"FROM --platform=$BUILDPLATFORM m/a@sha256:1 AS b\n"},
		{"ARG-made image", "ARG T=1\nFROM a:${T}\nFROM a:1\n", map[string]string{"a:1": "m/a@sha256:1"},
			"ARG T=1\nFROM m/a@sha256:1\nFROM m/a@sha256:1\n"},
		{"unpinned image and stage untouched", "FROM a:1 AS s\nFROM b:2\nFROM s\n", map[string]string{"a:1": "m/a@sha256:1"},
			"FROM m/a@sha256:1 AS s\nFROM b:2\nFROM s\n"},
		{"no final newline", "FROM a:1", map[string]string{"a:1": "m/a@sha256:1"}, "FROM m/a@sha256:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Pin([]byte(tt.text), nil, "", tt.pins)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Pin =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}
