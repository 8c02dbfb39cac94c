// Command devenv pins and runs GPU-ready Spark, RAPIDS and Triton
// environments per project. See the README.
//
// Installed as docker-devenv in a cli-plugins directory of the docker CLI
// (the packages link it there), it is `docker devenv` (internal/dockerplugin).
//
// This program is small on purpose: it answers a `devenv up` that changes
// nothing from the project's receipt (internal/fastup) in a few
// milliseconds, and runs devenv-core, installed next to it, for every
// other command. devenv-core links the Compose SDK and compose-go, whose
// start-up alone costs 15 to 20 ms.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/devenv-dev/devenv/internal/buildinfo"
	"github.com/devenv-dev/devenv/internal/dockerplugin"
	"github.com/devenv-dev/devenv/internal/fastup"
)

func main() {
	args, env := os.Args, os.Environ()
	if dockerplugin.IsPlugin(args[0]) {
		call, err := dockerplugin.Translate(args)
		if err != nil {
			fmt.Fprintf(os.Stderr, "devenv: %v\n", err)
			os.Exit(2)
		}
		if call.Metadata {
			_, _ = os.Stdout.Write(dockerplugin.Metadata(buildinfo.Version()))
			return
		}
		args, env = call.Args, append(env, call.Env...)
	}
	core, err := corePath()
	if err != nil {
		fmt.Fprintf(os.Stderr, "devenv: %v\n", err)
		os.Exit(1)
	}
	if wd, err := os.Getwd(); err == nil {
		call := fastup.Call{Args: args, Environ: env, WorkDir: wd, Program: core, Stdout: os.Stdout, Stderr: os.Stderr}
		if fastup.Try(context.Background(), call) {
			return
		}
	}
	os.Exit(runCore(core, args, env))
}

// coreName is the full devenv's program file.
func coreName() string {
	if runtime.GOOS == "windows" {
		return "devenv-core.exe"
	}
	return "devenv-core"
}

// corePath is devenv-core next to this program (links resolved, so a
// link to devenv in ~/bin finds the pair where it is installed).
func corePath() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this program's file to find %s next to it: %w", coreName(), err)
	}
	return coreNextTo(self)
}

func coreNextTo(self string) (string, error) {
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	core := filepath.Join(filepath.Dir(self), coreName())
	if resolved, err := filepath.EvalSymlinks(core); err == nil {
		core = resolved
	}
	if fi, err := os.Stat(core); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is missing next to %s: devenv's programs are installed side by side "+
			"(devenv, devenv-core, and on Linux devenv-nvml: `make build` puts them in bin/, a release archive holds them together)", core, self)
	}
	return core, nil
}
