package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/devenv-dev/devenv/profiles"
	"github.com/devenv-dev/devenv/test/standin"
)

// resolve is what devenv lock will ask for the default starter on this
// machine: for the driver `devenv gpus` reads, else the catalog's fallback,
// so the stand-ins serve exactly the base image, Spark and RAPIDS it pins.
func (d *demo) resolve(ctx context.Context) (profiles.Resolved, error) {
	out, err := exec.CommandContext(ctx, d.devenv, "gpus", "--json").Output()
	var host struct {
		Driver string `json:"driver_version"`
	}
	if err == nil {
		err = json.Unmarshal(out, &host)
	}
	if err != nil {
		return profiles.Resolved{}, fmt.Errorf("`%s gpus --json` gave no answer to read: %w: %s", d.devenv, err, out)
	}
	cat := profiles.Builtin()
	driver, rule := cat.ResolutionDriver(host.Driver)
	return cat.Resolve(profiles.Request{Profile: profiles.SparkRapids, Driver: driver, DriverRule: rule}, nil)
}

// base is the image the stand-in registry serves as the CUDA base.
type base struct {
	ref   string // the engine's image
	real  bool   // the very image devenv pins (the engine had it)
	built bool   // made with debootstrap by this run
}

// heldBases are images the engine may already hold that can stand in for
// the CUDA base: devenv's build needs apt-get, bash and useradd in it.
var heldBases = []string{standin.DebianRef, "debian:bookworm", "debian:12", "ubuntu:22.04", "ubuntu:24.04"}

// chooseBase takes the real base image when the engine holds it, else an
// apt-based image the engine holds, else the Debian base standin makes
// with debootstrap (cached, as for the e2e tests).
func (d *demo) chooseBase(ctx context.Context, want string) (base, error) {
	if _, err := d.cli.ImageInspect(ctx, want); err == nil {
		return base{ref: want, real: true}, nil
	}
	for _, ref := range heldBases {
		if _, err := d.cli.ImageInspect(ctx, ref); err == nil {
			return base{ref: ref}, nil
		}
	}
	ref, err := standin.DebianImage(ctx, d.cli, d.cache, func(f string, a ...any) { fmt.Fprintf(d.out, "devenv-demo: "+f+"\n", a...) })
	if err != nil {
		return base{}, fmt.Errorf("the engine holds none of %s (nor %s) to stand in for the CUDA base, and making one failed: %w", strings.Join(heldBases, ", "), want, err)
	}
	return base{ref: ref, built: true}, nil
}

// ports are the stand-ins' ports on 127.0.0.1.
type ports struct{ registry, artifacts, pypi int }

// world is the running stand-ins.
type world struct {
	res       profiles.Resolved
	base      base
	registry  string // 127.0.0.1:PORT
	artifacts *standin.ArtifactServer
	pypi      *standin.PyPIServer
	jupyter   []string
	stops     []func()
	once      sync.Once
}

// stop stops every stand-in; later calls do nothing.
func (w *world) stop() {
	w.once.Do(func() {
		for _, s := range w.stops {
			s()
		}
	})
}

func (w *world) ports() ports {
	return ports{registry: port(w.registry), artifacts: port(w.artifacts.URL()), pypi: port(w.pypi.URL())}
}

// startWorld starts the registry (holding the base as the name devenv
// pins), the artifact server (Spark and the RAPIDS jar of res) and the
// PyPI index (JupyterLab), on the previous run's ports when they are free,
// so that devenv.yaml stays as it was.
func (d *demo) startWorld(ctx context.Context, res profiles.Resolved, b base, prev ports) (*world, error) {
	w := &world{res: res, base: b, jupyter: profiles.JupyterLabReleases()}
	ok := false
	defer func() {
		if !ok {
			w.stop()
		}
	}()
	l, err := listen(prev.registry)
	if err != nil {
		return nil, err
	}
	w.stops = append(w.stops, standin.ServeRegistry(l))
	w.registry = l.Addr().String()
	dest := w.registry + "/" + strings.TrimPrefix(res.BaseImage, "nvcr.io/")
	fmt.Fprintf(d.out, "devenv-demo: pushing %s to the stand-in registry as %s\n", b.ref, dest)
	if _, err := standin.PushImage(ctx, d.cli, b.ref, dest, d.cache); err != nil {
		return nil, err
	}
	if w.artifacts, err = standin.NewArtifacts(standin.WithSpark(res.Spark), standin.WithScala(res.Scala), standin.WithRapids(res.Rapids)); err != nil {
		return nil, err
	}
	if l, err = listen(prev.artifacts); err != nil {
		return nil, err
	}
	w.stops = append(w.stops, w.artifacts.Serve(l))
	pins := make([]string, len(w.jupyter))
	for i, v := range w.jupyter {
		pins[i] = "jupyterlab==" + v
	}
	if w.pypi, err = standin.NewPyPI(pins...); err != nil {
		return nil, err
	}
	if l, err = listen(prev.pypi); err != nil {
		return nil, err
	}
	w.stops = append(w.stops, w.pypi.Serve(l))
	ok = true
	return w, nil
}

// listen listens on 127.0.0.1:want when want is free, else on a free port.
func listen(want int) (net.Listener, error) {
	if want > 0 {
		if l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(want))); err == nil {
			return l, nil
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("cannot listen on 127.0.0.1 for a stand-in: %w", err)
	}
	return l, nil
}

// port is the port of "127.0.0.1:P" or "http://127.0.0.1:P/...", 0 if none.
func port(addr string) int {
	addr = strings.TrimPrefix(addr, "http://")
	if i := strings.IndexByte(addr, '/'); i >= 0 {
		addr = addr[:i]
	}
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(p)
	return n
}
