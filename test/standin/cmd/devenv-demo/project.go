package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

const (
	blockStart = "# make demo: the mirrors below are local STAND-INS"
	blockEnd   = "# end of make demo's stand-in mirrors"
)

// mirrorsBlock is the devenv.yaml text that points the project's mirrors
// at the stand-ins, between blockStart and blockEnd.
func mirrorsBlock(w *world) string {
	art := w.artifacts.URL()
	return blockStart + ` that make demo runs only
# while it locks and starts this project: a stand-in CUDA base image (` + w.base.ref + `),
# a stand-in Spark, RAPIDS Accelerator jar and JupyterLab. For the real NGC
# stack (network and an NGC key), delete this block down to its end line.
mirrors:
  registries: {nvcr.io: "` + w.registry + `"}
  maven: "` + art + `/maven2"
  apache: "` + art + `/apache"
  pypi: "` + w.pypi.URL() + `"
` + blockEnd + "\n"
}

var (
	registryPort = regexp.MustCompile(`(?m)^  registries: \{nvcr\.io: "127\.0\.0\.1:(\d+)"\}`)
	mavenPort    = regexp.MustCompile(`(?m)^  maven: "http://127\.0\.0\.1:(\d+)/maven2"`)
	pypiPort     = regexp.MustCompile(`(?m)^  pypi: "http://127\.0\.0\.1:(\d+)/simple"`)
)

// previousPorts are the stand-ins' ports the demo project's devenv.yaml
// names from an earlier run (zero when there was none).
func previousPorts(dir string) ports {
	data, err := os.ReadFile(filepath.Join(dir, spec.FileName))
	if err != nil {
		return ports{}
	}
	text := string(data)
	find := func(re *regexp.Regexp) int {
		m := re.FindStringSubmatch(text)
		if m == nil {
			return 0
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return ports{registry: find(registryPort), artifacts: find(mavenPort), pypi: find(pypiPort)}
}

// writeProject makes the demo project: devenv init's starter the first
// time (its host ports moved when taken), then the mirrors block, replaced
// on later runs; the rest of the file is left as it is.
func (d *demo) writeProject(ctx context.Context, w *world) error {
	path := filepath.Join(d.dir, spec.FileName)
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		if err := d.devenvRun(ctx, "init"); err != nil {
			return fmt.Errorf("devenv init in %s: %w", d.dir, err)
		}
		if data, err = os.ReadFile(path); err == nil {
			data = []byte(freeHostPorts(string(data)))
		}
	}
	if err != nil {
		return err
	}
	text, ok := withoutBlock(string(data))
	if !ok {
		return exitcode.Newf(exitcode.Usage, "%s was not written by make demo (it has no %q block): remove it, or set DEVENV_DEMO_DIR to another directory", path, blockStart)
	}
	return os.WriteFile(path, []byte(strings.TrimRight(text, "\n")+"\n\n"+mirrorsBlock(w)), 0o644)
}

// withoutBlock is text without the demo's mirrors block; ok is false when
// text has mirrors: of its own (a file make demo did not write).
func withoutBlock(text string) (string, bool) {
	start := strings.Index(text, blockStart)
	if start < 0 {
		return text, !regexp.MustCompile(`(?m)^mirrors:`).MatchString(text)
	}
	end := strings.Index(text[start:], blockEnd)
	if end < 0 {
		return "", false
	}
	rest := strings.TrimPrefix(text[start+end+len(blockEnd):], "\n")
	return text[:start] + rest, true
}

var hostPort = regexp.MustCompile(`"(\d+):(\d+)"`)

// freeHostPorts moves each of the starter's host ports that something on
// this machine holds to a free one.
func freeHostPorts(text string) string {
	return hostPort.ReplaceAllStringFunc(text, func(m string) string {
		sub := hostPort.FindStringSubmatch(m)
		l, err := net.Listen("tcp", "127.0.0.1:"+sub[1])
		if err == nil {
			_ = l.Close()
			return m
		}
		if l, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return m
		}
		defer func() { _ = l.Close() }()
		return fmt.Sprintf(`"%d:%s"`, port(l.Addr().String()), sub[2])
	})
}

// projectName is the name devenv init gives the project in dir.
func projectName(dir string) string { return spec.DockerName(filepath.Base(dir)) }
