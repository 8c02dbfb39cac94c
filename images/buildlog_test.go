package images

import (
	"context"
	"errors"
	"fmt"
	"io"
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
