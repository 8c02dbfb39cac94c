package loader

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestLoadStopsWhenContextEnds: an ended context (Ctrl-C) ends Load and
// RawEnvironment with its error, before compose-go reads a file, and a load
// in flight does not hold the command: compose-go does not watch ctx.
func TestLoadStopsWhenContextEnds(t *testing.T) {
	dir := stackDir(t)
	files := []string{filepath.Join(dir, "compose.yaml")}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if svcs, err := Load(ctx, files, dir, "demo", nil); svcs != nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "loading compose files") {
		t.Errorf("Load after cancel = %v, %v; want no services and context.Canceled", svcs, err)
	}
	if raw, err := RawEnvironment(ctx, files, dir, "demo"); raw != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("RawEnvironment after cancel = %v, %v; want nothing and context.Canceled", raw, err)
	}

	block := make(chan struct{})
	defer close(block)
	ctx, cancel = context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	_, err := untilDone(ctx, func() int { <-block; return 1 })
	if !errors.Is(err, context.Canceled) || time.Since(start) > 10*time.Second {
		t.Errorf("a load in flight when ctx ended returned %v after %s; want context.Canceled at once", err, time.Since(start))
	}
}

// allocsEnv makes the test binary print the bytes each of three loads of
// the stack fixture allocates, in a process that has loaded nothing before.
const allocsEnv = "DEVENV_TEST_LOAD_ALLOCS"

// TestSchemaCompiledOncePerProcess: compose-go compiles the compose JSON
// schema on a process's first load and keeps it (about two thirds of that
// load's allocations), so a later load in the process (another Files, a
// package function's) does not pay for it again. A compose-go upgrade
// that compiles it on every load fails this test.
func TestSchemaCompiledOncePerProcess(t *testing.T) {
	if os.Getenv(allocsEnv) == "1" {
		printLoadAllocs(t)
		return
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestSchemaCompiledOncePerProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), allocsEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	var first, second, third uint64
	if _, err := fmt.Sscanf(lineWith(string(out), "loads:"), "loads: %d %d %d", &first, &second, &third); err != nil {
		t.Fatalf("no load figures in the child's output (%v):\n%s", err, out)
	}
	t.Logf("bytes allocated by loads 1, 2, 3: %d, %d, %d", first, second, third)
	for i, later := range []uint64{second, third} {
		if later*2 > first {
			t.Errorf("load %d allocated %d bytes, the first %d: the schema is compiled again on each load", i+2, later, first)
		}
	}
}

func printLoadAllocs(t *testing.T) {
	dir := stackDir(t)
	files := []string{filepath.Join(dir, "compose.yaml")}
	var got [3]uint64
	for i := range got {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := Load(t.Context(), files, dir, "demo", nil); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		got[i] = after.TotalAlloc - before.TotalAlloc
	}
	fmt.Printf("loads: %d %d %d\n", got[0], got[1], got[2])
}

func lineWith(s, prefix string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return ""
}
