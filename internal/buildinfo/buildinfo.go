// Package buildinfo says what was built: the version, commit, build date
// and dirtiness the build linked in, merged with the Go build information
// (module version, VCS facts, the Compose SDK's and compose-go's versions).
// It imports nothing heavy: the small devenv front links it too.
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Set at link time by `make build` and the release build, for example
// -ldflags "-X github.com/devenv-dev/devenv/internal/buildinfo.version=v0.1.0".
// GOFLAGS=-buildvcs=false (or a build outside a checkout) leaves the
// module's build info without VCS facts, so the build passes them itself.
var (
	version   = ""
	commit    = ""
	buildDate = ""
	dirty     = "" // "true" when the tree had uncommitted changes
)

// Module paths whose versions `devenv version` reports.
const (
	composeSDKModule = "github.com/docker/compose/v5"
	composeGoModule  = "github.com/compose-spec/compose-go/v2"
)

// linked is what the build passed with -X.
type linked struct{ version, commit, date, dirty string }

// Build is what `devenv version --json` says about the program itself.
type Build struct {
	Version    string `json:"version"`
	Commit     string `json:"commit,omitempty"`
	Dirty      bool   `json:"dirty"`
	Date       string `json:"build_date,omitempty"`
	Go         string `json:"go"`
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	ComposeSDK string `json:"compose_sdk,omitempty"`
	ComposeGo  string `json:"compose_go,omitempty"`
}

// Version is devenv's version: the linked one, else the module's, else the
// VCS revision; a build from a tree with uncommitted changes ends in "-dirty".
func Version() string { return Read().Version }

// Read is this program's Build.
func Read() Build { return buildOf(readBuildInfo(), linkedVars()) }

func linkedVars() linked { return linked{version, commit, buildDate, dirty} }

func readBuildInfo() *debug.BuildInfo {
	bi, _ := debug.ReadBuildInfo()
	return bi
}

// buildOf merges the linked facts with the build info (nil: none).
func buildOf(bi *debug.BuildInfo, l linked) Build {
	b := Build{Version: l.version, Commit: l.commit, Date: l.date, Dirty: l.dirty == "true",
		Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if bi == nil {
		if b.Version == "" {
			b.Version = "dev"
		}
		return b
	}
	b.Go = bi.GoVersion
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	if b.Commit == "" {
		b.Commit = vcs["vcs.revision"]
	}
	if b.Date == "" {
		b.Date = vcs["vcs.time"]
	}
	if l.dirty == "" {
		b.Dirty = vcs["vcs.modified"] == "true"
	}
	for _, d := range bi.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		switch d.Path {
		case composeSDKModule:
			b.ComposeSDK = d.Version
		case composeGoModule:
			b.ComposeGo = d.Version
		}
	}
	if b.Version == "" {
		b.Version = moduleVersion(bi.Main.Version, b.Commit)
	}
	if b.Dirty && !strings.HasSuffix(b.Version, "-dirty") && !strings.HasSuffix(b.Version, "+dirty") {
		b.Version += "-dirty"
	}
	return b
}

// moduleVersion is go install's module version, else dev-COMMIT, else dev.
func moduleVersion(mod, commit string) string {
	switch {
	case mod != "" && mod != "(devel)":
		return mod
	case len(commit) >= 12:
		return "dev-" + commit[:12]
	}
	return "dev"
}
