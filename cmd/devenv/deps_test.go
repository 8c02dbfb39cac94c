package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// notLinked are packages devenv must not link: compose-go's loader and what
// it brings (the JSON-schema compiler compiles five meta-schemas in init,
// milliseconds before main for every command). They run in the
// devenv-compose helper (compose/loader); tests import compose/loader to
// load compose files in process, devenv never does.
var notLinked = regexp.MustCompile(`^(github\.com/santhosh-tekuri/jsonschema|github\.com/compose-spec/compose-go/v2/(cli|loader|schema)$|github\.com/devenv-dev/devenv/compose/loader$)`)

func TestDevenvLinksNoComposeLoader(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if p, err := exec.LookPath("go"); err == nil {
		goTool = p
	}
	cmd := exec.Command(goTool, "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "CGO_CFLAGS="+strings.TrimSpace(os.Getenv("CGO_CFLAGS")+" -Wno-deprecated-declarations"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/devenv: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if notLinked.MatchString(pkg) {
			t.Errorf("devenv links %s: load compose files through compose.Load (the devenv-compose helper) and import compose/loader only from tests and cmd/devenv-compose", pkg)
		}
	}
	// this test binary links what devenv links: no JSON-schema init in it
	for _, c := range traceInit(t) {
		if notLinked.MatchString(c.pkg) {
			t.Errorf("package %s initialises in devenv (%.2f ms)", c.pkg, c.ms)
		}
	}
}
