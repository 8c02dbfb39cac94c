package release

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// Installed paths of the packages.
const (
	pluginDir = "/usr/libexec/docker/cli-plugins" // where Debian's and Fedora's docker-compose plugin packages put theirs
)

type nfpmFile struct {
	Src      string         `json:"src,omitempty"`
	Dst      string         `json:"dst"`
	Type     string         `json:"type,omitempty"`
	Packager string         `json:"packager,omitempty"`
	FileInfo map[string]any `json:"file_info,omitempty"`
}

// PackageFiles are where the .deb and .rpm install what an archive holds
// (dir): programs in /usr/bin, the Docker CLI plugin link, completions
// where bash-completion, zsh (Debian's vendor-completions, Fedora's
// site-functions) and fish look, the man page, the README.
func PackageFiles(dir string) []nfpmFile {
	f := func(src, dst string) nfpmFile { return nfpmFile{Src: filepath.Join(dir, src), Dst: dst} }
	files := []nfpmFile{
		f("devenv", "/usr/bin/devenv"),
		f("devenv-core", "/usr/bin/devenv-core"),
		f("devenv-nvml", "/usr/bin/devenv-nvml"),
		{Src: "/usr/bin/devenv", Dst: pluginDir + "/docker-devenv", Type: "symlink"},
		f("completions/devenv.bash", "/usr/share/bash-completion/completions/devenv"),
		{Src: filepath.Join(dir, "completions/_devenv"), Dst: "/usr/share/zsh/vendor-completions/_devenv", Packager: "deb"},
		{Src: filepath.Join(dir, "completions/_devenv"), Dst: "/usr/share/zsh/site-functions/_devenv", Packager: "rpm"},
		f("completions/devenv.fish", "/usr/share/fish/vendor_completions.d/devenv.fish"),
		f("man/devenv.1.gz", "/usr/share/man/man1/devenv.1.gz"),
		{Src: filepath.Join(dir, "README.md"), Dst: "/usr/share/doc/devenv/README.md", Type: "doc"},
	}
	for i := range files {
		if files[i].Type != "symlink" {
			mode := 0o644 // nfpm reads the mode as a number
			if strings.HasPrefix(files[i].Dst, "/usr/bin/") {
				mode = 0o755
			}
			files[i].FileInfo = map[string]any{"mode": mode, "owner": "root", "group": "root"}
		}
	}
	return files
}

// NfpmConfig is nfpm's configuration (JSON is YAML) for one architecture.
func NfpmConfig(arch, version, dir string) ([]byte, error) {
	cfg := map[string]any{
		"name": "devenv", "arch": arch, "platform": "linux", "version": version, "version_schema": "semver",
		"section": "devel", "priority": "optional", "maintainer": "devenv developers <devenv@users.noreply.github.com>",
		"description": Description + ".\nIncludes the Docker CLI plugin (docker devenv), shell completions and the man page.",
		"vendor":      "devenv-dev", "homepage": Homepage, "license": "NOASSERTION",
		"contents":  PackageFiles(dir),
		"overrides": map[string]any{"deb": map[string]any{"depends": []string{"libc6 (>= " + GlibcFloor + ")"}}, "rpm": map[string]any{"depends": []string{"glibc >= " + GlibcFloor}}},
		"deb":       map[string]any{"fields": map[string]string{"Enhances": "docker.io, docker-ce-cli"}},
		"rpm":       map[string]any{"compression": "gzip"},
	}
	return json.MarshalIndent(cfg, "", "  ")
}
