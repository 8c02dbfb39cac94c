package gpu

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// slot is a unit services are placed on: a whole GPU, or one MIG device of
// a GPU in MIG mode.
type slot struct {
	gpu     int    // GPU index
	uuid    string // GPU or MIG device UUID
	gpuUUID string // the GPU's UUID
	mig     bool   // a MIG device
	label   string // for messages: `GPU 0 (NVIDIA ...)` or `MIG device MIG-... on GPU 0`
	budget  int64  // memory the services on it may split
	users   []int  // positions in needs, in placement order
}

type slots []*slot

// buildSlots lists the host's usable slots; with none it says why.
func buildSlots(h *Host) (slots, error) {
	if h == nil {
		return nil, errors.New("the GPUs could not be read (no NVML)")
	}
	var out slots
	for _, g := range h.GPUs {
		if !g.MIGMode {
			budget := int64(g.MemoryFree)
			if budget == 0 {
				budget = int64(g.MemoryTotal)
			}
			out = append(out, &slot{gpu: g.Index, uuid: g.UUID, gpuUUID: g.UUID, budget: budget,
				label: fmt.Sprintf("GPU %d (%s)", g.Index, g.Name)})
			continue
		}
		for _, m := range g.MIGDevices {
			out = append(out, &slot{gpu: g.Index, uuid: m.UUID, gpuUUID: g.UUID, mig: true, budget: int64(m.MemoryTotal),
				label: fmt.Sprintf("MIG device %s (%s) on GPU %d", m.UUID, m.Name, g.Index)})
		}
	}
	switch {
	case len(out) > 0:
		return out, nil
	case len(h.GPUs) > 0:
		return nil, errors.New("every GPU is in MIG mode without MIG devices; create some with `nvidia-smi mig -cgi ... -C`")
	}
	return nil, errors.New("the NVIDIA driver sees no GPU on this host")
}

// byIDs resolves a need's explicit ids, naming the host's devices when one
// is unknown.
func (all slots) byIDs(n Need) (slots, error) {
	var out slots
	var bad []string
	for _, id := range n.IDs {
		s, err := all.byID(id)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		if !containsSlot(out, s) {
			out = append(out, s)
		}
	}
	if len(bad) > 0 {
		return nil, &noSuchGPU{fmt.Sprintf("service %q: %s. GPUs here: %s", n.Service, strings.Join(bad, "; "), all.describe())}
	}
	return out, nil
}

func (all slots) byID(id string) (*slot, error) {
	id = strings.TrimSpace(id)
	var onGPU []*slot
	for _, s := range all {
		if strings.EqualFold(s.uuid, id) {
			return s, nil
		}
		if strconv.Itoa(s.gpu) == id || strings.EqualFold(s.gpuUUID, id) {
			onGPU = append(onGPU, s)
		}
	}
	switch {
	case len(onGPU) == 1 && !onGPU[0].mig:
		return onGPU[0], nil
	case len(onGPU) > 0:
		return nil, fmt.Errorf("GPU %s is in MIG mode: name one of its MIG devices instead", id)
	}
	return nil, fmt.Errorf("GPU id %q is not on this host", id)
}

// describe lists the slots for error messages.
func (all slots) describe() string {
	parts := make([]string, len(all))
	for i, s := range all {
		if s.mig {
			parts[i] = s.label
		} else {
			parts[i] = fmt.Sprintf("%s %s", s.label, s.uuid)
		}
	}
	return strings.Join(parts, ", ")
}

// leastLoaded picks n.Count slots on distinct devices, fewest services
// first, then most memory, then lowest index. An optional service that
// asks for more than there are takes them all, with a warning.
func (all slots) leastLoaded(n Need, p *Placement) (slots, error) {
	if n.Count > len(all) {
		if !n.Optional {
			return nil, &noSuchGPU{fmt.Sprintf("service %q asks for %d GPUs but this host has %d: %s. Lower its count or use `all`",
				n.Service, n.Count, len(all), all.describe())}
		}
		p.Warnings = append(p.Warnings, fmt.Sprintf("service %q asks for %d GPUs; this host has %d, so it gets them all",
			n.Service, n.Count, len(all)))
	}
	order := append(slots(nil), all...)
	sort.SliceStable(order, func(a, b int) bool {
		if len(order[a].users) != len(order[b].users) {
			return len(order[a].users) < len(order[b].users)
		}
		return order[a].budget > order[b].budget
	})
	picked := order[:min(n.Count, len(order))]
	sort.SliceStable(picked, func(a, b int) bool { return all.pos(picked[a]) < all.pos(picked[b]) })
	return picked, nil
}

func (all slots) pos(s *slot) int {
	for i, x := range all {
		if x == s {
			return i
		}
	}
	return -1
}

func containsSlot(list slots, s *slot) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
