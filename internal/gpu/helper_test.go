package gpu

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// helperEnv makes the test binary the NVML helper (TestMain), serving the
// fake machine its value names.
const helperEnv = "DEVENV_TEST_NVML_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(serveFake(mode))
	}
	os.Exit(m.Run())
}

// fakeHost is the machine the helper serves.
var fakeHost = &Host{DriverVersion: "570.133.20", CUDADriverVersion: "12.8", GPUs: []GPU{
	{Index: 0, UUID: "GPU-0b1c", Name: "NVIDIA H200", Brand: "NVIDIA", MemoryTotal: 150754820096},
}}

var fakeSamples = []Sample{{Index: 0, UUID: "GPU-0b1c", MemoryTotal: 150754820096, MemoryUsed: 1 << 30}}

type fakeInventory struct{}

func (fakeInventory) Host(context.Context) (*Host, error)      { return fakeHost, nil }
func (fakeInventory) Sample(context.Context) ([]Sample, error) { return fakeSamples, nil }
func (fakeInventory) Close() error                             { return nil }

// serveFake is the helper over the fake machine, or its failures. It runs
// as the helper process, outside any test: no test's context is there.
func serveFake(mode string) int {
	ctx := context.Background() //nolint:forbidigo // the helper process runs no test
	switch mode {
	case "garbage":
		fmt.Println("not JSON")
		return 0
	case "nonvml":
		return ServeHelper(ctx, os.Args[1:], func() (Inventory, error) {
			return nil, fmt.Errorf("%w: libnvidia-ml.so.1 not found", ErrNoNVML)
		}, os.Stdout, os.Stderr)
	}
	return ServeHelper(ctx, os.Args[1:], func() (Inventory, error) { return fakeInventory{}, nil }, os.Stdout, os.Stderr)
}

// TestHelperInventory: devenv-core, built without cgo, reads the GPUs
// through the helper program: what the helper read arrives as it was
// read, a machine without NVML is ErrNoNVML with the helper's reason, and
// an answer that is not the helper's JSON says so.
func TestHelperInventory(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(helperEnv, "ok")
	inv, err := OpenHelper(self)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the one Open read, then a new read
		h, err := inv.Host(t.Context())
		if err != nil || jsonOf(t, h) != jsonOf(t, fakeHost) {
			t.Fatalf("Host() = %s, %v; want %s", jsonOf(t, h), err, jsonOf(t, fakeHost))
		}
	}
	if s, err := inv.Sample(t.Context()); err != nil || jsonOf(t, s) != jsonOf(t, fakeSamples) {
		t.Errorf("Sample() = %s, %v", jsonOf(t, s), err)
	}

	t.Setenv(helperEnv, "nonvml")
	if _, err := OpenHelper(self); !errors.Is(err, ErrNoNVML) || !strings.Contains(err.Error(), "libnvidia-ml.so.1 not found") {
		t.Errorf("without NVML: %v, want ErrNoNVML with the helper's reason", err)
	}
	t.Setenv(helperEnv, "garbage")
	if _, err := OpenHelper(self); err == nil || !strings.Contains(err.Error(), "not its JSON") {
		t.Errorf("garbage: %v", err)
	}
	if _, err := OpenHelper(filepath.Join(t.TempDir(), HelperName)); err == nil || errors.Is(err, ErrNoNVML) {
		t.Errorf("a missing helper: %v, want the exec error", err)
	}
}

// TestHelperBeside: the helper is found beside the program, never as the
// program itself.
func TestHelperBeside(t *testing.T) {
	dir := t.TempDir()
	core, helper := filepath.Join(dir, "devenv-core"), filepath.Join(dir, HelperName)
	for _, p := range []string{core, helper} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := helperBeside(core); got != helper {
		t.Errorf("beside devenv-core: %q, want %q", got, helper)
	}
	if got := helperBeside(helper); got != "" {
		t.Errorf("beside itself: %q, want none", got)
	}
	if got := helperBeside(filepath.Join(t.TempDir(), "devenv-core")); got != "" {
		t.Errorf("none installed: %q", got)
	}
}

// TestServeHelperUsage: anything but host or sample is a usage error.
func TestServeHelperUsage(t *testing.T) {
	var out, errOut strings.Builder
	if code := ServeHelper(t.Context(), []string{"gpus"}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "usage") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
