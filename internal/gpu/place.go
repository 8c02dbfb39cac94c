package gpu

import (
	"errors"
	"fmt"

	"github.com/hashicorp/go-multierror"
)

// Service kinds Place knows how to size.
const (
	KindSpark  = "spark"
	KindTriton = "triton"
	KindRAPIDS = "rapids"
	KindOther  = "other"
)

// ErrNoGPU is wrapped by Place's error when a service that requires a GPU
// cannot have one on this host (the CLI exits 4 on it).
var ErrNoGPU = errors.New("no usable NVIDIA GPU")

// ErrNoSuchGPU is wrapped by placement errors about GPUs this host does not
// have: an index or UUID it lacks, or more GPUs than it has. Like ErrNoGPU
// it means "no compatible GPU" (exit 4), not a fault of devenv's.
var ErrNoSuchGPU = errors.New("a GPU this host does not have")

// noSuchGPU is a placement error that reads as msg and matches ErrNoSuchGPU.
type noSuchGPU struct{ msg string }

func (e *noSuchGPU) Error() string        { return e.msg }
func (e *noSuchGPU) Is(target error) bool { return target == ErrNoSuchGPU }

// Need is what one service asks for. At most one of All, Count and IDs is
// set; none of them means the service wants no GPU.
type Need struct {
	Service  string   `json:"service"`
	Kind     string   `json:"kind"` // KindSpark, KindTriton, KindRAPIDS or KindOther
	All      bool     `json:"all,omitempty"`
	Count    int      `json:"count,omitempty"`
	IDs      []string `json:"ids,omitempty"` // GPU index, GPU UUID or MIG device UUID
	Optional bool     `json:"optional,omitempty"`
}

// Placement is where every service runs and what memory it may take.
type Placement struct {
	Services map[string]Assignment `json:"services"`
	Warnings []string              `json:"warnings,omitempty"`
}

// Assignment is one service's GPUs. Devices are GPU or MIG UUIDs, for the
// container's device request (All also says the request may be "all");
// MemoryBytes is the service's share of each of its devices (the smallest,
// when they differ). Conf, Args and Env carry the share in each kind's own
// settings: Spark confs, Triton server arguments, and for RAPIDS the RMM
// pool limit the notebook image applies at start.
type Assignment struct {
	Devices       []string          `json:"devices,omitempty"`
	GPUs          []int             `json:"gpus,omitempty"`
	All           bool              `json:"all,omitempty"`
	MemoryBytes   int64             `json:"memory_bytes,omitempty"`
	AllocFraction float64           `json:"alloc_fraction,omitempty"`
	CPUFallback   bool              `json:"cpu_fallback,omitempty"`
	Reason        string            `json:"reason,omitempty"`
	Conf          map[string]string `json:"conf,omitempty"`
	Args          []string          `json:"args,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
}

// Place puts each service on the host's GPUs: explicit ids where given,
// every GPU for All, and counted GPUs on the least loaded GPUs first. Where
// services share a GPU (or MIG device) its free memory is split between
// them. Problems with the needs are all reported together.
func Place(needs []Need, h *Host) (*Placement, error) {
	if err := validateNeeds(needs); err != nil {
		return nil, err
	}
	p := &Placement{Services: map[string]Assignment{}}
	slots, slotErr := buildSlots(h)
	var errs *multierror.Error
	picked := make([][]*slot, len(needs))
	for i, n := range needs {
		switch {
		case !wantsGPU(n):
			p.Services[n.Service] = Assignment{Reason: "no GPU requested"}
		case len(slots) == 0:
			errs = multierror.Append(errs, noGPU(p, n, slotErr))
		case len(n.IDs) > 0:
			s, err := slots.byIDs(n)
			errs = multierror.Append(errs, err)
			picked[i] = s
		case n.All:
			picked[i] = slots
		}
		for _, s := range picked[i] {
			s.users = append(s.users, i)
		}
	}
	for i, n := range needs {
		if wantsGPU(n) && n.Count > 0 && !n.All && len(n.IDs) == 0 && len(slots) > 0 {
			s, err := slots.leastLoaded(n, p)
			errs = multierror.Append(errs, err)
			picked[i] = s
			for _, sl := range s {
				sl.users = append(sl.users, i)
			}
		}
	}
	if err := errs.ErrorOrNil(); err != nil {
		return nil, err
	}
	for i, n := range needs {
		if len(picked[i]) > 0 {
			p.Services[n.Service] = assign(n, picked[i], needs, &p.Warnings)
		}
	}
	return p, nil
}

func wantsGPU(n Need) bool { return n.All || n.Count > 0 || len(n.IDs) > 0 }

// noGPU records the CPU fallback of an optional service, or returns the
// error of a required one.
func noGPU(p *Placement, n Need, why error) error {
	if n.Optional {
		p.Services[n.Service] = Assignment{CPUFallback: true,
			Reason: fmt.Sprintf("runs on the CPU, with GPU acceleration off: %v", why)}
		return nil
	}
	return fmt.Errorf("service %q needs a GPU: %w (%v). Install the NVIDIA driver and check `nvidia-smi`, "+
		"or mark the service's GPU optional to run it on the CPU", n.Service, ErrNoGPU, why)
}

// validateNeeds reports every malformed need at once.
func validateNeeds(needs []Need) error {
	var errs *multierror.Error
	seen := map[string]bool{}
	for i, n := range needs {
		where := fmt.Sprintf("service %q", n.Service)
		if n.Service == "" {
			where = fmt.Sprintf("need %d", i)
			errs = multierror.Append(errs, fmt.Errorf("%s: has no service name", where))
		} else if seen[n.Service] {
			errs = multierror.Append(errs, fmt.Errorf("%s: listed twice; give each service one GPU need", where))
		}
		seen[n.Service] = true
		switch n.Kind {
		case KindSpark, KindTriton, KindRAPIDS, KindOther:
		default:
			errs = multierror.Append(errs, fmt.Errorf("%s: kind %q is not one of spark, triton, rapids, other", where, n.Kind))
		}
		if n.Count < 0 {
			errs = multierror.Append(errs, fmt.Errorf("%s: GPU count %d is negative; use 0 for no GPU", where, n.Count))
		}
		if modes := btoi(n.All) + btoi(n.Count > 0) + btoi(len(n.IDs) > 0); modes > 1 {
			errs = multierror.Append(errs, fmt.Errorf("%s: asks for GPUs in more than one way (all, a count, ids); keep one", where))
		}
	}
	return errs.ErrorOrNil()
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
