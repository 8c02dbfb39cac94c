package images

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/engine/enginetest"
)

func TestOutputTail(t *testing.T) {
	many := ""
	for i := 1; i <= 30; i++ {
		many += fmt.Sprintf("line %d\n", i)
	}
	tests := []struct {
		name   string
		chunks []string
		want   string
	}{
		{"nothing", nil, ""},
		{"colour codes removed", []string{"\x1b[31mERROR: No matching distribution\x1b[0m\n"}, "  ERROR: No matching distribution"},
		{"lines split over messages", []string{"Step 3/9 : RUN pip", " install x\n", "done"}, "  Step 3/9 : RUN pip install x\n  done"},
		{"progress redraws keep the last state", []string{"  10%\r  50%\r 100%\n"}, "   100%"},
		{"blank lines dropped", []string{"\n\n a \n\n"}, "   a"},
		{"only the last lines", []string{many}, "  line 11\n  line 12\n  line 13\n  line 14\n  line 15\n  line 16\n  line 17\n  line 18\n  line 19\n  line 20\n  line 21\n  line 22\n  line 23\n  line 24\n  line 25\n  line 26\n  line 27\n  line 28\n  line 29\n  line 30"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tail outputTail
			for _, c := range tt.chunks {
				tail.add(engine.Progress{Stream: c})
			}
			tail.add(engine.Progress{Status: "ignored: not build output"})
			if got := tail.String(); got != tt.want {
				t.Errorf("tail = %q, want %q", got, tt.want)
			}
		})
	}
}

// failingBuild streams output and then fails, as the classic builder does
// when a RUN step exits non-zero.
type failingBuild struct {
	engine.Engine
	stream []string
}

func (f failingBuild) Build(ctx context.Context, req engine.BuildRequest, progress func(engine.Progress)) (string, error) {
	_, _ = io.Copy(io.Discard, req.Context)
	for _, s := range f.stream {
		progress(engine.Progress{Stream: s})
	}
	return "", errors.New("The command '/bin/sh -c pip install -r requirements.txt' returned a non-zero code: 1")
}

func TestFailedBuildSaysWhy(t *testing.T) {
	eng := failingBuild{Engine: enginetest.New(), stream: []string{
		"Step 12/14 : RUN pip install -r requirements.txt\n",
		"\x1b[33mWARNING: Retrying after connection broken by 'NewConnectionError: Failed to establish a new connection: [Errno -2] Name or service not known'\x1b[0m\n",
		"\x1b[31mERROR: Could not find a version that satisfies the requirement nosuchpkg\x1b[0m\n",
	}}
	_, err := Build(t.Context(), eng, buildProject(t), Options{}, nil)
	if err == nil {
		t.Fatal("a failed build returned no error")
	}
	msg := err.Error()
	for _, want := range []string{"returned a non-zero code", "Name or service not known", "ERROR: Could not find a version", "--verbose"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "\x1b[") {
		t.Errorf("error keeps colour codes: %q", msg)
	}
	var be *BuildError
	if !errors.As(err, &be) {
		t.Errorf("error is not a *BuildError: %T", err)
	}
}

// failingStep fails as the classic builder does, with its own command.
type failingStep struct {
	engine.Engine
	cmd    string
	stream []string
}

func (f failingStep) Build(ctx context.Context, req engine.BuildRequest, progress func(engine.Progress)) (string, error) {
	if len(req.Tags) > 0 && strings.HasPrefix(req.Tags[0], "devenv/artifact:") {
		return f.Engine.Build(ctx, req, progress) // the service's own build fails
	}
	_, _ = io.Copy(io.Discard, req.Context)
	progress(engine.Progress{Stream: "Step 9/14 : RUN " + f.cmd + "\n"})
	for _, s := range f.stream {
		progress(engine.Progress{Stream: s})
	}
	return "", fmt.Errorf("The command '/bin/sh -c %s' returned a non-zero code: 1", f.cmd)
}

// TestFailedPackageStepSaysWhichMirror: a pip or apt step that could not
// reach its index ends on a hint naming the mirror to set, not on the
// bare Dockerfile step; a failure of another kind gets no such hint.
func TestFailedPackageStepSaysWhichMirror(t *testing.T) {
	offlinePip := []string{
		"WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/jupyterlab/\n",
		"ERROR: Could not find a version that satisfies the requirement jupyterlab==4.4.9 (from versions: none)\n",
		"ERROR: No matching distribution found for jupyterlab==4.4.9\n",
	}
	offlineApt := []string{
		"Err:1 http://archive.ubuntu.com/ubuntu jammy InRelease\n",
		"  Temporary failure resolving 'archive.ubuntu.com'\n",
		"W: Failed to fetch http://archive.ubuntu.com/ubuntu/dists/jammy/InRelease  Temporary failure resolving 'archive.ubuntu.com'\n",
		"E: Unable to locate package openjdk-17-jre-headless\n",
	}
	cases := []struct {
		name   string
		modify func(*Input)
		cmd    string
		stream []string
		want   []string // in the hint; nil: no hint
		not    []string // nowhere in the message
	}{
		{"jupyter without PyPI", func(in *Input) {}, "pip install --no-cache-dir 'jupyterlab==4.4.9'", offlinePip,
			[]string{"JupyterLab (jupyter: true)", "https://pypi.org/simple", "mirrors.pypi", "DEVENV_MIRROR_PYPI", "jupyter: false"}, nil},
		{"requirements behind an unreachable mirror", func(in *Input) { in.PipIndexURL = "https://u:s3cret@pypi.corp.example/simple" },
			"pip install --no-cache-dir -r /tmp/devenv/requirements.txt", offlinePip[:1],
			[]string{"the PyPI mirror https://u:xxxxx@pypi.corp.example/simple", "mirrors.pypi"}, []string{"s3cret", "jupyter: false"}},
		{"apt without the base's archives", func(in *Input) {}, "apt-get update && apt-get install -y openjdk-17-jre-headless", offlineApt,
			[]string{"mirrors.apt", "DEVENV_MIRROR_APT", "~/.docker/config.json"}, nil},
		{"apt behind an unreachable apt mirror", func(in *Input) { in.AptMirror = "http://apt.corp.example" },
			"apt-get -o Dir::Etc::SourceList=/dev/null update", offlineApt, []string{"apt mirror http://apt.corp.example"}, nil},
		{"a requirement that does not exist", func(in *Input) {}, "pip install --no-cache-dir 'nosuchpkg'",
			[]string{"ERROR: No matching distribution found for nosuchpkg\n"}, nil, []string{"hint:"}},
		{"a failing command of another kind", func(in *Input) {}, "update-ca-certificates",
			[]string{"Temporary failure in name resolution\n"}, nil, []string{"hint:"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := buildProject(t)
			tc.modify(&in)
			_, err := Build(t.Context(), failingStep{Engine: enginetest.New(), cmd: tc.cmd, stream: tc.stream}, in, Options{}, nil)
			var be *BuildError
			if !errors.As(err, &be) {
				t.Fatalf("Build = %v, want a *BuildError", err)
			}
			msg := err.Error()
			if tc.want != nil && !strings.HasSuffix(msg, "\n\thint: "+be.Hint) || (tc.want != nil) == (be.Hint == "") {
				t.Errorf("hint %q, want one ending the message:\n%s", be.Hint, msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(be.Hint, w) {
					t.Errorf("hint lacks %q: %s", w, be.Hint)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(msg, n) {
					t.Errorf("message holds %q:\n%s", n, msg)
				}
			}
		})
	}
}

// TestFailureHintOnCapturedOutput: the captured failures of
// testdata/buildhint, classified as Build does: pip that reached no index
// names mirrors.pypi, apt that reached no archive mirrors.apt, and a
// version or build problem gets no hint.
func TestFailureHintOnCapturedOutput(t *testing.T) {
	cases := map[string]string{ // fixture -> the mirror its hint names, "" for none
		"pip-dns.txt": "mirrors.pypi", "pip-dns-bookworm.txt": "mirrors.pypi", "pip-refused.txt": "mirrors.pypi",
		"pip-no-release.txt": "", "pip-build-error.txt": "", "apt-dns.txt": "mirrors.apt",
		"apt-no-package-bookworm.txt": "found no python3.10-venv there",
	}
	for fixture, want := range cases {
		t.Run(fixture, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "buildhint", fixture))
			if err != nil {
				t.Fatal(err)
			}
			first, tail, _ := strings.Cut(strings.TrimRight(string(data), "\n"), "\n")
			var out stepOutput
			for _, l := range strings.Split(tail, "\n") {
				out.line(strings.TrimSpace(l))
			}
			hint := failureHint(Input{}, strings.TrimPrefix(first, "# "), &out)
			switch {
			case want == "" && hint != "":
				t.Errorf("hint %q, want none", hint)
			case want != "" && !strings.Contains(hint, want):
				t.Errorf("hint %q, want one naming %s", hint, want)
			}
		})
	}
}
