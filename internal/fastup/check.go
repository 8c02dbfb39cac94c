package fastup

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/devenv-dev/devenv/internal/labels"
)

// World is what a check compares a receipt with.
type World struct {
	WorkDir string
	Environ []string
	Program string // ProgramID of the full devenv that would run
}

// Check reports nil when nothing the receipt records has changed: the
// same program, environment, working directory and inputs, and on the
// engine exactly the containers up left, running, attached to the same
// networks, with their images still the same. Otherwise the error says
// the first difference found (for --debug).
func Check(ctx context.Context, r *Receipt, w World) error {
	switch {
	case r.WorkDir != w.WorkDir:
		return fmt.Errorf("the last up ran in %s", r.WorkDir)
	case r.Program != w.Program:
		return fmt.Errorf("devenv changed since the last up")
	case r.Env != EnvDigest(w.Environ):
		return fmt.Errorf("the environment changed since the last up")
	}
	st, err := Fingerprint(r.Files, r.Trees, r.Skip, r.Contexts)
	if err != nil {
		return err
	}
	if st.Digest != r.Inputs {
		return fmt.Errorf("a file devenv plans from changed since the last up")
	}
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	return checkEngine(ctx, newEngineClient(r.Socket), r)
}

// checkEngine asks the engine its three questions side by side.
func checkEngine(ctx context.Context, c *engineClient, r *Receipt) error {
	var wg sync.WaitGroup
	errs := make([]error, 3)
	wg.Go(func() { errs[0] = sameContainers(ctx, c, r) })
	wg.Go(func() { errs[1] = sameImages(ctx, c, r.Images) })
	if r.Machine != nil {
		wg.Go(func() { errs[2] = sameMachine(ctx, c, *r.Machine) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func sameContainers(ctx context.Context, c *engineClient, r *Receipt) error {
	have, err := c.containers(ctx, labels.ProjectFilter(r.Project))
	if err != nil {
		return err
	}
	if len(have) != len(r.Containers) {
		return fmt.Errorf("the project has %d containers, the last up left %d", len(have), len(r.Containers))
	}
	want := map[string]Container{}
	for _, k := range r.Containers {
		want[k.ID] = k
	}
	for _, h := range have {
		if err := sameContainer(h, want[h.ID]); err != nil {
			return err
		}
	}
	return nil
}

func sameContainer(h listed, want Container) error {
	name := ""
	if len(h.Names) > 0 {
		name = strings.TrimPrefix(h.Names[0], "/")
	}
	switch {
	case want.ID == "":
		return fmt.Errorf("container %s is not one the last up left", name)
	case name != want.Name || h.Image != want.Image:
		return fmt.Errorf("container %s was renamed or changed", want.Name)
	case h.State != "running":
		return fmt.Errorf("container %s is %s", want.Name, h.State)
	}
	nets := map[string]string{}
	for n, s := range h.NetworkSettings.Networks {
		nets[n] = s.NetworkID
	}
	if !maps.Equal(nets, want.Networks) {
		return fmt.Errorf("container %s's networks changed", want.Name)
	}
	return nil
}

func sameImages(ctx context.Context, c *engineClient, images map[string]string) error {
	refs := slices.Sorted(maps.Keys(images))
	errs := make([]error, len(refs))
	var wg sync.WaitGroup
	for i, ref := range refs {
		wg.Go(func() {
			id, err := c.imageID(ctx, ref)
			if err == nil && id != images[ref] {
				err = fmt.Errorf("image %s changed", ref)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func sameMachine(ctx context.Context, c *engineClient, want Machine) error {
	m, err := c.machine(ctx)
	if err != nil {
		return err
	}
	if m != want {
		return fmt.Errorf("the engine's CPUs or memory changed")
	}
	return nil
}

// ProgramID identifies a program file: its path, size and modification
// time ("" when it cannot be read).
func ProgramID(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	ctime, ino := sysStat(fi)
	return fmt.Sprintf("%s %d %d %d %d", path, fi.Size(), fi.ModTime().UnixNano(), ctime, ino)
}
