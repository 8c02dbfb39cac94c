package gpu

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// devenv-core is built without cgo: a cgo program starts slower (the
// dynamic loader, the C runtime's threads) and maps more memory, on every
// command, while only the commands that read this machine's GPUs need
// NVML. Those run HelperName, the small cgo program installed beside
// devenv-core, which reads NVML and prints what it read as JSON
// (ServeHelper); OpenHelper is the Inventory over it.

// HelperName is the program that reads NVML for a build without cgo.
const HelperName = "devenv-nvml"

// helperNoNVML is the helper's exit code when NVML cannot be read here
// (ErrNoNVML); its standard error says why.
const helperNoNVML = 3

// helperMaxOutput bounds what a helper's answer may be.
const helperMaxOutput = 16 << 20

// helperTimeout bounds Open's first read (NVML's init on a machine of many
// GPUs takes seconds, never minutes).
const helperTimeout = time.Minute

// ServeHelper is the helper program: `host` prints Host, `sample` the
// Samples, read with open (Open in a cgo build). It returns the exit code.
func ServeHelper(ctx context.Context, args []string, open func() (Inventory, error), stdout, stderr io.Writer) int {
	if len(args) != 1 || (args[0] != "host" && args[0] != "sample") {
		fmt.Fprintf(stderr, "usage: %s host|sample (devenv-core runs it to read this machine's GPUs through NVML)\n", HelperName)
		return 2
	}
	inv, err := open()
	if err != nil {
		fmt.Fprintln(stderr, err)
		if errors.Is(err, ErrNoNVML) {
			return helperNoNVML
		}
		return 1
	}
	defer func() { _ = inv.Close() }()
	var v any
	if args[0] == "host" {
		v, err = inv.Host(ctx)
	} else {
		v, err = inv.Sample(ctx)
	}
	if err == nil {
		err = json.NewEncoder(stdout).Encode(v)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// helperInventory reads the GPUs by running the helper at path, once per
// read; the first Host is the one Open read.
type helperInventory struct {
	path  string
	mu    sync.Mutex
	first *Host
}

// OpenHelper reads the GPUs through the helper program at path. Like Open
// it fails, wrapping ErrNoNVML, where NVML cannot be read.
func OpenHelper(path string) (Inventory, error) {
	ctx, cancel := context.WithTimeout(context.Background(), helperTimeout)
	defer cancel()
	inv := &helperInventory{path: path}
	h, err := inv.read(ctx)
	if err != nil {
		return nil, err
	}
	inv.first = h
	return inv, nil
}

func (h *helperInventory) Host(ctx context.Context) (*Host, error) {
	h.mu.Lock()
	f := h.first
	h.first = nil
	h.mu.Unlock()
	if f != nil {
		return f, nil
	}
	return h.read(ctx)
}

func (h *helperInventory) read(ctx context.Context) (*Host, error) {
	out := &Host{}
	return out, h.run(ctx, "host", out)
}

func (h *helperInventory) Sample(ctx context.Context) ([]Sample, error) {
	var out []Sample
	return out, h.run(ctx, "sample", &out)
}

func (h *helperInventory) Close() error { return nil }

// run runs the helper's cmd and decodes its answer into v.
func (h *helperInventory) run(ctx context.Context, cmd string, v any) error {
	c := exec.CommandContext(ctx, h.path, cmd)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &limitedBuffer{b: &stdout}, &limitedBuffer{b: &stderr}
	err := c.Run()
	msg := strings.TrimSpace(stderr.String())
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == helperNoNVML:
		return fmt.Errorf("%w: %s", ErrNoNVML, strings.TrimPrefix(msg, ErrNoNVML.Error()+": "))
	case err != nil && msg != "":
		return fmt.Errorf("%s %s: %s", h.path, cmd, msg)
	case err != nil:
		return fmt.Errorf("%s %s: %w", h.path, cmd, err)
	case stdout.Len() >= helperMaxOutput:
		return fmt.Errorf("%s %s: its answer is over %d MiB; not read", h.path, cmd, helperMaxOutput>>20)
	}
	if err := json.Unmarshal(stdout.Bytes(), v); err != nil {
		return fmt.Errorf("%s %s printed what is not its JSON (%w): reinstall devenv, whose programs come together", h.path, cmd, err)
	}
	return nil
}

// limitedBuffer keeps the first helperMaxOutput bytes written to it.
type limitedBuffer struct{ b *bytes.Buffer }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := helperMaxOutput - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// helperPath is HelperName beside the running program, or "" when it is
// not there, or is the running program (a helper built without cgo must
// not run itself).
func helperPath() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return helperBeside(exe)
}

// helperBeside is HelperName in exe's directory, or "" (see helperPath).
func helperBeside(exe string) string {
	p := filepath.Join(filepath.Dir(exe), HelperName)
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() {
		return ""
	}
	if self, err := os.Stat(exe); err == nil && os.SameFile(fi, self) {
		return ""
	}
	return p
}
