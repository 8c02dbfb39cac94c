package buildinfo

import (
	"fmt"
	"runtime/debug"
	"testing"
)

func buildInfo(mod string, settings map[string]string) *debug.BuildInfo {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/devenv-dev/devenv", Version: mod},
		Deps: []*debug.Module{
			{Path: composeSDKModule, Version: "v5.6.0"},
			{Path: composeGoModule, Version: "v2.1.0", Replace: &debug.Module{Path: composeGoModule, Version: "v2.16.2"}},
			{Path: "github.com/urfave/cli/v2", Version: "v2.27.7"},
		}}
	for k, v := range settings {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: k, Value: v})
	}
	return bi
}

func TestBuildOf(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name        string
		bi          *debug.BuildInfo
		l           linked
		version     string
		commit      string
		date        string
		dirty       bool
		sdk, goComp string
	}{
		{"release build: linked facts win", buildInfo("(devel)", nil),
			linked{"v0.4.0", rev, "2026-12-01T00:00:00Z", "false"}, "v0.4.0", rev, "2026-12-01T00:00:00Z", false, "v5.6.0", "v2.16.2"},
		{"linked dirty tree says so", buildInfo("(devel)", nil),
			linked{"v0.4.0-3-g0123456", rev, "", "true"}, "v0.4.0-3-g0123456-dirty", rev, "", true, "v5.6.0", "v2.16.2"},
		{"go install of a tag: the module version", buildInfo("v0.3.1", nil),
			linked{}, "v0.3.1", "", "", false, "v5.6.0", "v2.16.2"},
		{"go build in a checkout: VCS facts", buildInfo("(devel)", map[string]string{"vcs.revision": rev, "vcs.time": "2026-11-30T10:00:00Z", "vcs.modified": "true"}),
			linked{}, "dev-0123456789ab-dirty", rev, "2026-11-30T10:00:00Z", true, "v5.6.0", "v2.16.2"},
		{"clean checkout", buildInfo("(devel)", map[string]string{"vcs.revision": rev, "vcs.modified": "false"}),
			linked{}, "dev-0123456789ab", rev, "", false, "v5.6.0", "v2.16.2"},
		{"linked dirty=false beats vcs.modified", buildInfo("(devel)", map[string]string{"vcs.modified": "true"}),
			linked{commit: rev, dirty: "false"}, "dev-0123456789ab", rev, "", false, "v5.6.0", "v2.16.2"},
		{"no build info", nil, linked{}, "dev", "", "", false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := buildOf(tt.bi, tt.l)
			got := fmt.Sprint(b.Version, "|", b.Commit, "|", b.Date, "|", b.Dirty, "|", b.ComposeSDK, "|", b.ComposeGo)
			want := fmt.Sprint(tt.version, "|", tt.commit, "|", tt.date, "|", tt.dirty, "|", tt.sdk, "|", tt.goComp)
			if got != want {
				t.Errorf("buildOf = %s, want %s", got, want)
			}
		})
	}
}
