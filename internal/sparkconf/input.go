package sparkconf

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/go-multierror"
)

// Sources a key's value can come from, lowest precedence first.
const (
	SourceProfile  = "profile"
	SourceHardware = "hardware"
	SourceMirror   = "mirror"
	SourceUser     = "user"
)

// Hardware is the share of the host that one service may use.
type Hardware struct {
	CPUs           int     // cores the service may use
	MemoryBytes    int64   // memory the service may use
	GPUs           int     // GPUs given to this service; 0 = CPU fallback
	GPUMemoryBytes int64   // memory of each GPU
	AllocFraction  float64 // from GPU placement when a GPU is shared; 0 = not set
}

// Layer is a set of Spark confs from one place.
type Layer struct {
	Source string            // a file path, or "devenv.yaml"
	Conf   map[string]string // Spark conf key -> value
	// Rules says, per key, how the value was made from the source
	// ("prod's value", "scaled from prod's 64g: ..."); explain shows it
	// after the source.
	Rules map[string]string
	// Prod marks a layer read from prod: keys devenv sizes for this
	// machine that it does not set say so, so no computed value reads as
	// prod's.
	Prod bool
}

// Input is everything Generate needs for one spark-rapids service.
type Input struct {
	Spark  string // Apache Spark version, "3.5.1"
	Scala  string // Scala binary version, "2.12"
	Rapids string // RAPIDS Accelerator version, "25.06.0"; may be empty when Hardware.GPUs is 0

	// Name is the service name; it names the standalone master's host and
	// its workers' hosts (Name-worker-1, ...). Default "spark".
	Name     string
	Hardware Hardware
	// Workers is 0 for local[*], or N for a standalone cluster of a master
	// and N worker containers, each with its share of the GPUs.
	Workers         int
	RapidsShuffle   bool   // use the RAPIDS shuffle manager
	DiscoveryScript string // path of the GPU discovery script inside the containers

	Mirrored []Layer // prod confs, in the order they were imported
	User     Layer   // the service's conf: in devenv.yaml
}

// gpuMode reports whether the service has a GPU to run the plugin on.
func (in Input) gpuMode() bool { return in.Hardware.GPUs > 0 }

func (in Input) name() string {
	if in.Name == "" {
		return "spark"
	}
	return in.Name
}

// validate reports every problem with in at once.
func (in Input) validate() error {
	var errs *multierror.Error
	add := func(format string, a ...any) { errs = multierror.Append(errs, fmt.Errorf(format, a...)) }
	if _, err := parseVersion(in.Spark, 3); err != nil {
		add("spark version: %v; give major.minor.patch, e.g. 3.5.1", err)
	}
	if in.gpuMode() {
		if _, err := parseVersion(in.Rapids, 3); err != nil {
			add("rapids version: %v; give the RAPIDS Accelerator release, e.g. 25.06.0", err)
		}
		if in.DiscoveryScript == "" {
			add("no GPU discovery script path: Spark needs one to find the GPUs; pass where DiscoveryScript() is written inside the container")
		}
	}
	hw := in.Hardware
	if hw.CPUs < 1 {
		add("hardware: %d CPUs; the service needs at least 1", hw.CPUs)
	}
	if hw.MemoryBytes < minServiceMemory {
		add("hardware: %s of memory; the service needs at least %s", humanBytes(hw.MemoryBytes), humanBytes(minServiceMemory))
	}
	if hw.GPUs < 0 {
		add("hardware: %d GPUs; use 0 for CPU mode", hw.GPUs)
	}
	if hw.GPUs > 0 && hw.GPUMemoryBytes <= 0 {
		add("hardware: GPU memory is %d bytes; give each GPU's memory (nvidia-smi --query-gpu=memory.total)", hw.GPUMemoryBytes)
	}
	if hw.AllocFraction < 0 || hw.AllocFraction > 1 {
		add("hardware: GPU alloc fraction %g is outside 0..1", hw.AllocFraction)
	}
	if in.Workers < 0 {
		add("workers: %d; use 0 for local mode or N for N standalone workers", in.Workers)
	}
	if hw.GPUs > 0 && in.Workers > hw.GPUs {
		add("workers: %d workers but only %d GPUs: each standalone worker needs its own GPU; set workers to at most %d or give the service more GPUs", in.Workers, hw.GPUs, hw.GPUs)
	}
	if in.Workers > 0 && hw.CPUs >= 1 && hw.CPUs < in.Workers+1 {
		add("workers: %d workers need at least %d CPUs (one for the master and driver, one per worker), the service has %d", in.Workers, in.Workers+1, hw.CPUs)
	}
	for i, l := range in.Mirrored {
		errs = multierror.Append(errs, l.validate(fmt.Sprintf("mirrored layer %d", i+1)))
	}
	if len(in.User.Conf) > 0 {
		errs = multierror.Append(errs, in.User.validate("user conf"))
	}
	return errs.ErrorOrNil()
}

// validate checks that every key and value can be written to
// spark-defaults.conf and read back by Spark as written: keys and values
// are escaped (escapeProp), but Spark trims values, so a user's value that
// starts or ends with whitespace is refused (spec refuses it at load, with
// its line; this is the check for callers that skip spec). Prod's values
// are written as they are: Spark trimmed them there too.
func (l Layer) validate(what string) error {
	var errs *multierror.Error
	src := l.Source
	if src == "" {
		errs = multierror.Append(errs, fmt.Errorf("%s has no source: name the file it came from", what))
		src = what
	}
	for _, k := range slices.Sorted(maps.Keys(l.Conf)) {
		v := l.Conf[k]
		switch {
		case k == "":
			errs = multierror.Append(errs, fmt.Errorf("%s: an empty conf key (value %q); remove it", src, v))
		case what == "user conf":
			if p := ValueProblem(v); p != "" {
				errs = multierror.Append(errs, fmt.Errorf("%s: the value of %s: %s", src, k, p))
			}
		}
	}
	return errs.ErrorOrNil()
}
