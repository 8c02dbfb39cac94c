// Package enginetest provides an in-memory engine.Engine for unit tests of
// the packages that drive the Docker Engine.
package enginetest

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
)

// Call is one recorded method call.
type Call struct {
	Method string // e.g. "Create"
	Arg    any    // the main argument: a ref, an id, a ContainerSpec, a BuildRequest, ...
}

// Fake is an in-memory engine.Engine. It keeps images, containers, networks
// and volumes in maps, records every call, and behaves like the Docker
// adapter in the ways callers depend on: names are unique (ErrConflict),
// unknown ids are ErrNotFound, and, unless GPUs is true, starting a container
// with a GPU request fails with ErrNoGPURuntime. Set the exported fields
// before use; they are read under the Fake's lock.
type Fake struct {
	InfoValue     engine.Info                            // returned by Info
	GPUs          bool                                   // the engine can provide GPUs
	Fail          map[string]error                       // method name -> error it returns
	PullProgress  []engine.Progress                      // reported by every Pull
	BuildProgress []engine.Progress                      // reported by every Build
	LogOutput     map[string]string                      // container name -> its stdout
	ExecFunc      func(engine.ExecOptions) (int, string) // exit code and stdout of Exec; default 0, ""
	// WatchFunc is what WatchProject does after recording the call; nil:
	// wait until ctx ends.
	WatchFunc func(context.Context, engine.ProjectWatch) error
	// EndpointValue is what Endpoint returns; nil: a local socket.
	EndpointValue *endpoint.Endpoint

	mu      sync.Mutex
	calls   []Call
	nextID  int
	objects map[engine.Kind]map[string]*object // kind -> id -> object
}

type object struct {
	obj         engine.Object
	tags        []string // an image's other names (TagImage)
	state       engine.ContainerState
	healthcheck bool
}

var _ engine.Engine = (*Fake)(nil)

// Endpoint is EndpointValue (engine.EndpointOf's answer for the fake).
func (f *Fake) Endpoint() *endpoint.Endpoint { return f.EndpointValue }

// New returns an empty Fake describing a Linux engine with API 1.41.
func New() *Fake {
	return &Fake{
		InfoValue: engine.Info{ServerVersion: "20.10.24", APIVersion: "1.41", OSType: "linux",
			NCPU: 8, MemTotal: 32 << 30, Runtimes: []string{"runc"}, DefaultRuntime: "runc"},
		objects: map[engine.Kind]map[string]*object{},
	}
}

// Calls returns the calls made so far, in order.
func (f *Fake) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// CallsTo returns the calls made to method, in order.
func (f *Fake) CallsTo(method string) []Call {
	var out []Call
	for _, c := range f.Calls() {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// AddImage puts an image in the store as if it had been built or pulled, and
// returns its id.
func (f *Fake) AddImage(ref string, labels map[string]string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.add(engine.Images, ref, labels).obj.ID
}

// record notes a call and returns the error configured for it.
func (f *Fake) record(method string, arg any) error {
	f.calls = append(f.calls, Call{Method: method, Arg: arg})
	return f.Fail[method]
}

func (f *Fake) add(kind engine.Kind, name string, labels map[string]string) *object {
	f.nextID++
	id := fmt.Sprintf("%s%063d", kind[:1], f.nextID)
	o := &object{obj: engine.Object{Kind: kind, ID: id, Name: name, Labels: maps.Clone(labels), Created: time.Unix(int64(f.nextID), 0)}}
	if f.objects[kind] == nil {
		f.objects[kind] = map[string]*object{}
	}
	f.objects[kind][id] = o
	return o
}

// find looks an object up by id, unique id prefix or name.
func (f *Fake) find(kind engine.Kind, ref string) (*object, error) {
	for id, o := range f.objects[kind] {
		if id == ref || o.obj.Name == ref || slices.Contains(o.tags, ref) || (len(ref) >= 12 && strings.HasPrefix(id, ref)) {
			return o, nil
		}
	}
	return nil, fmt.Errorf("no %s %q: %w", kind, ref, engine.ErrNotFound)
}

// Info returns InfoValue.
func (f *Fake) Info(ctx context.Context) (engine.Info, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.InfoValue, f.record("Info", nil)
}

// ImageExists reports whether AddImage, Pull or Build made ref.
func (f *Fake) ImageExists(ctx context.Context, ref string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("ImageExists", ref); err != nil {
		return false, err
	}
	_, err := f.find(engine.Images, ref)
	return err == nil, nil
}

// TagImage gives the image source the name target too (an error when
// source does not exist); a name another image had moves to it.
func (f *Fake) TagImage(ctx context.Context, source, target string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("TagImage", [2]string{source, target}); err != nil {
		return err
	}
	o, err := f.find(engine.Images, source)
	if err != nil {
		return err
	}
	if old, err := f.find(engine.Images, target); err == nil {
		if old == o {
			return nil
		}
		old.untag(target)
	}
	o.tags = append(o.tags, target)
	return nil
}

// names are an image's names, its Name first.
func (o *object) names() []string {
	if o.obj.Name == "" {
		return slices.Clone(o.tags)
	}
	return append([]string{o.obj.Name}, o.tags...)
}

// untag takes the name away from the image, as docker rmi of a name the
// image shares with others does.
func (o *object) untag(name string) {
	names := slices.DeleteFunc(o.names(), func(n string) bool { return n == name })
	o.obj.Name, o.tags = "", nil
	if len(names) > 0 {
		o.obj.Name, o.tags = names[0], names[1:]
	}
}

// ImageID is the id of a fake image ("" when there is none).
func (f *Fake) ImageID(ctx context.Context, ref string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("ImageID", ref); err != nil {
		return "", err
	}
	o, err := f.find(engine.Images, ref)
	if err != nil {
		return "", nil
	}
	return o.obj.ID, nil
}

// Pull reports PullProgress and adds ref to the images.
func (f *Fake) Pull(ctx context.Context, ref string, progress func(engine.Progress)) error {
	f.mu.Lock()
	err := f.record("Pull", ref)
	if err == nil {
		if _, ferr := f.find(engine.Images, ref); ferr != nil {
			f.add(engine.Images, ref, nil)
		}
	}
	events := slices.Clone(f.PullProgress)
	f.mu.Unlock()
	report(events, progress)
	return err
}

// Build reports BuildProgress, reads the context to its end, and adds an
// image named by the first tag.
func (f *Fake) Build(ctx context.Context, req engine.BuildRequest, progress func(engine.Progress)) (string, error) {
	if req.Context != nil {
		if _, err := io.Copy(io.Discard, req.Context); err != nil {
			return "", fmt.Errorf("reading the build context: %w", err)
		}
	}
	f.mu.Lock()
	if err := f.record("Build", req); err != nil {
		f.mu.Unlock()
		return "", err
	}
	name := ""
	if len(req.Tags) > 0 {
		name = req.Tags[0]
	}
	id := f.add(engine.Images, name, req.Labels).obj.ID
	events := slices.Clone(f.BuildProgress)
	f.mu.Unlock()
	report(events, progress)
	return id, nil
}

func report(events []engine.Progress, progress func(engine.Progress)) {
	if progress == nil {
		return
	}
	for _, e := range events {
		progress(e)
	}
}

// RemoveImage removes an image by reference or id.
func (f *Fake) RemoveImage(ctx context.Context, ref string) error {
	return f.Remove(ctx, engine.Images, ref, false)
}

// EnsureNetwork returns the network's id, creating it when missing.
func (f *Fake) EnsureNetwork(ctx context.Context, name string, labels map[string]string) (engine.Object, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("EnsureNetwork", name); err != nil {
		return engine.Object{}, err
	}
	if n := f.named(engine.Networks, name); n > 1 {
		return engine.Object{}, fmt.Errorf("network %s is ambiguous (%d matches found based on name): %w", name, n, engine.ErrAmbiguous)
	}
	if o, err := f.find(engine.Networks, name); err == nil {
		return o.obj, nil
	}
	return f.add(engine.Networks, name, labels).obj, nil
}

// AddNetwork adds a network even when one of that name exists, as an
// engine before API 1.44 does when two creators race.
func (f *Fake) AddNetwork(name string, labels map[string]string) engine.Object {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.add(engine.Networks, name, labels).obj
}

// named counts the objects of kind called name.
func (f *Fake) named(kind engine.Kind, name string) int {
	n := 0
	for _, o := range f.objects[kind] {
		if o.obj.Name == name {
			n++
		}
	}
	return n
}

// EnsureVolume returns the volume, creating it when missing.
func (f *Fake) EnsureVolume(ctx context.Context, name string, labels map[string]string) (engine.Object, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("EnsureVolume", name); err != nil {
		return engine.Object{}, err
	}
	if o, err := f.find(engine.Volumes, name); err == nil {
		return o.obj, nil
	}
	o := f.add(engine.Volumes, name, labels)
	delete(f.objects[engine.Volumes], o.obj.ID)
	o.obj.ID = name
	f.objects[engine.Volumes][name] = o
	return o.obj, nil
}

// List returns the objects of kind carrying all labels, oldest first.
func (f *Fake) List(ctx context.Context, kind engine.Kind, labels map[string]string) ([]engine.Object, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.record("List", kind); err != nil {
		return nil, err
	}
	var out []engine.Object
	for _, o := range f.objects[kind] {
		if hasLabels(o.obj.Labels, labels) {
			out = append(out, o.listed())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out, nil
}

// listed is the object as a listing reports it: a container with the
// ports it publishes while running and its networks' ids.
func (o *object) listed() engine.Object {
	obj := o.obj
	if obj.Kind == engine.Images {
		obj.Tags = o.names()
	}
	if obj.Kind != engine.Containers {
		return obj
	}
	obj.NetworkIDs = maps.Clone(o.state.NetworkIDs)
	if o.state.Running {
		for _, p := range o.state.Ports {
			if p.HostPort != 0 {
				obj.Ports = append(obj.Ports, p)
			}
		}
	}
	return obj
}

func hasLabels(have, want map[string]string) bool {
	for k, v := range want {
		got, ok := have[k]
		if !ok || (v != "" && got != v) {
			return false
		}
	}
	return true
}
