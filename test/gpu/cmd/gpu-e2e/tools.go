package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// result is one command's outcome.
type result struct {
	Stdout, Stderr string
	Code           int
}

// out is stdout and stderr together, trimmed, for evidence.
func (r result) out() string { return strings.TrimSpace(r.Stdout + "\n" + r.Stderr) }

// run runs a program in dir with env added and a time limit.
func run(dir string, env []string, limit time.Duration, name string, args ...string) result {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	r := result{Stdout: so.String(), Stderr: se.String()}
	if err != nil {
		r.Code = -1
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			r.Code = ee.ExitCode()
		} else {
			r.Stderr += err.Error()
		}
	}
	if ctx.Err() != nil {
		r.Stderr += fmt.Sprintf("\n(killed after %s)", limit)
	}
	return r
}

// devenv runs one devenv binary against projects.
type devenv struct {
	bin string
	env []string
}

// with is d with more environment variables.
func (d devenv) with(env ...string) devenv {
	d.env = append(slices.Clone(d.env), env...)
	return d
}

func (d devenv) run(dir string, args ...string) result {
	return run(dir, d.env, 3*time.Minute, d.bin, args...)
}

// jsonOut runs devenv --json and decodes its stdout into v.
func (d devenv) jsonOut(dir string, v any, args ...string) (result, error) {
	r := d.run(dir, append([]string{"--json"}, args...)...)
	if err := json.Unmarshal([]byte(r.Stdout), v); err != nil {
		return r, fmt.Errorf("devenv %s: exit %d, stdout is not JSON (%w): %s", strings.Join(args, " "), r.Code, err, clip(r.out(), 600))
	}
	return r, nil
}

// clip shortens s to n bytes for evidence.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + " ..."
}

// engineAPI talks to the Docker Engine API over its Unix socket.
type engineAPI struct{ c *http.Client }

func newEngineAPI() engineAPI {
	sock := "/var/run/docker.sock"
	if h, ok := strings.CutPrefix(os.Getenv("DOCKER_HOST"), "unix://"); ok {
		sock = h
	}
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}
	return engineAPI{c: &http.Client{Transport: tr, Timeout: 5 * time.Minute}}
}

func (e engineAPI) do(method, path string, body io.Reader, v any) error {
	req, err := http.NewRequest(method, "http://engine"+path, body)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-tar")
	}
	resp, err := e.c.Do(req)
	if err != nil {
		return fmt.Errorf("engine %s %s: %w", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }() // read to the end below
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("engine %s %s: %s: %s", method, path, resp.Status, strings.TrimSpace(string(data)))
	}
	if bytes.Contains(data, []byte(`"error"`)) {
		return fmt.Errorf("engine %s %s: %s", method, path, strings.TrimSpace(string(data)))
	}
	if v != nil {
		return json.Unmarshal(data, v)
	}
	return nil
}

// importImage makes a tar of a root file system into the image ref.
func (e engineAPI) importImage(tarPath, repo, tag string) error {
	f, err := os.Open(tarPath)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // only read
	return e.do("POST", fmt.Sprintf("/images/create?fromSrc=-&repo=%s&tag=%s", repo, tag), f, nil)
}

// deviceRequest is the part of a container's HostConfig.DeviceRequests the
// checks compare with what the container saw.
type deviceRequest struct {
	Driver       string
	Count        int
	DeviceIDs    []string
	Capabilities [][]string
}

func (e engineAPI) deviceRequests(container string) ([]deviceRequest, error) {
	var c struct {
		HostConfig struct{ DeviceRequests []deviceRequest }
	}
	err := e.do("GET", "/containers/"+container+"/json", nil, &c)
	return c.HostConfig.DeviceRequests, err
}

// gpuRuntime says whether the engine answers and has an nvidia runtime:
// "nvidia", "none" or "unreachable: why".
func (e engineAPI) gpuRuntime() string {
	var info struct{ Runtimes map[string]any }
	if err := e.do("GET", "/info", nil, &info); err != nil {
		return "unreachable: " + err.Error()
	}
	if _, ok := info.Runtimes["nvidia"]; ok {
		return "nvidia"
	}
	return "none"
}

// containerID is the full ID of the named container.
func (e engineAPI) containerID(name string) (string, error) {
	var c struct{ ID string }
	err := e.do("GET", "/containers/"+name+"/json", nil, &c)
	return c.ID, err
}

// envInt reads a number from the environment devenv gave a container.
func (e engineAPI) envInt(name, key string) (int64, error) {
	var c struct{ Config struct{ Env []string } }
	if err := e.do("GET", "/containers/"+name+"/json", nil, &c); err != nil {
		return 0, err
	}
	for _, kv := range c.Config.Env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, fmt.Errorf("container %s has no %s", name, key)
}

// describe is what the transcript says about the engine.
func (e engineAPI) describe(kind string) string {
	var v struct{ Version string }
	var info struct {
		DefaultRuntime string
		Runtimes       map[string]any
	}
	if err := e.do("GET", "/version", nil, &v); err != nil {
		return kind + " engine, unreadable: " + err.Error()
	}
	_ = e.do("GET", "/info", nil, &info)
	var rts []string
	for k := range info.Runtimes {
		rts = append(rts, k)
	}
	cdi := ""
	if data, err := os.ReadFile("/etc/nvidia-container-runtime/config.toml"); err == nil && strings.Contains(string(data), `mode = "cdi"`) {
		cdi = ", NVIDIA runtime in CDI mode"
	}
	return fmt.Sprintf("%s dockerd %s, default runtime %s (runtimes: %s)%s", kind, v.Version, info.DefaultRuntime, strings.Join(sortStrings(rts), ","), cdi)
}

// lookPath finds a program on PATH or under the driver's own folder.
func lookPath(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return real
		}
		return p
	}
	for _, d := range []string{"/usr/local/nvidia/bin", "/usr/bin", "/usr/sbin"} {
		if _, err := os.Stat(filepath.Join(d, name)); err == nil {
			return filepath.Join(d, name)
		}
	}
	return ""
}
