package app

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/internal/ui"
)

func TestTopWithoutNVMLIsOneSampleWithANote(t *testing.T) {
	noNVML := func() (gpu.Inventory, error) { return nil, errors.New("NVML is not available") }
	var got []TopSample
	err := Top(t.Context(), Options{GPUs: noNVML}, TopOptions{Interval: time.Second}, func(s TopSample) error {
		got = append(got, s)
		return nil
	})
	if err != nil || len(got) != 1 || got[0].GPUs == nil || len(got[0].GPUs) != 0 || !strings.Contains(got[0].Note, "NVML is not available") {
		t.Fatalf("got %+v, %v; want one sample, no GPUs, a note", got, err)
	}
}

func TestTopWithoutEngineSaysSo(t *testing.T) {
	var errOut bytes.Buffer
	opts := Options{
		GPUs:   func() (gpu.Inventory, error) { return emptyInventory{}, nil },
		Engine: func(context.Context) (engine.Engine, error) { return nil, errors.New("connection refused\ndetail") },
		Out:    ui.New(&bytes.Buffer{}, &errOut, false, false),
	}
	n := 0
	err := Top(t.Context(), opts, TopOptions{Interval: time.Second, Once: true}, func(TopSample) error { n++; return nil })
	if err != nil || n != 1 {
		t.Fatalf("%d samples, %v; want one", n, err)
	}
	if want := "the Docker engine is unreachable, so processes show container ids only: connection refused\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut.String(), want)
	}
}

// emptyInventory is a machine whose NVML answers with no GPUs.
type emptyInventory struct{ gpu.Inventory }

func (emptyInventory) Sample(context.Context) ([]gpu.Sample, error) { return nil, nil }
func (emptyInventory) Close() error                                 { return nil }
