package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/buildinfo"
)

func TestWriteVersionSaysDirtyAndEngine(t *testing.T) {
	var b bytes.Buffer
	writeVersion(&b, app.VersionReport{
		Build:  buildinfo.Build{Version: "v1.0.0-dirty", Commit: "abc", Dirty: true, Go: "go1.26.8", OS: "linux", Arch: "amd64", ComposeSDK: "v5.6.0", ComposeGo: "v2.16.2"},
		NVML:   app.NVMLFacts{Reason: "no driver"},
		Engine: app.EngineFacts{Context: "gpu", Host: "ssh://me@gpubox", Source: "--context"},
	})
	for _, want := range []string{"v1.0.0-dirty", "abc (built from a tree with uncommitted changes)", "compose SDK: v5.6.0",
		"compose-go:  v2.16.2", "nvml:        not found: no driver", `engine:      context "gpu" (ssh://me@gpubox) (from --context)`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("version output lacks %q:\n%s", want, b.String())
		}
	}
}
