package doctor

import (
	"net"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/exitcode"
	"github.com/devenv-dev/devenv/internal/gpu/gputest"
	"github.com/devenv-dev/devenv/profiles"
)

func TestPreflight(t *testing.T) {
	tests := []struct {
		name string
		in   func() Inputs
		want []string // substrings of the error; none: nil error
	}{
		{"good", func() Inputs { return sparkAndTriton(gputest.Workstation()) }, nil},
		{"no runtime and old driver", func() Inputs {
			in := sparkOnly(gputest.Laptop(), cuda129)
			in.Engine = plainEngine()
			in.GPUs.DriverVersion = "520.61.05"
			return in
		}, []string{"2 problem(s)", "engine GPU support", "nvidia-ctk runtime configure", "driver for spark", "525.60.13"}},
		{"busy port and small host are not GPU problems", func() Inputs {
			in := sparkAndTriton(gputest.Workstation())
			in.Host.PortFree = func(string, int) bool { return false }
			in.Host.MemoryBytes = 8 << 30
			return in
		}, nil},
		{"only the started service counts", func() Inputs {
			in := sparkAndTriton(gputest.Workstation())
			in.Lock.Service("serve").Requires = profiles.Requirements{MinDriver: "999.1", CUDA: "13.9", MinComputeCapability: "7.5"}
			in.Services = []string{"spark"}
			return in
		}, nil},
		{"no GPU", func() Inputs { return sparkOnly(gputest.NoGPU(), cuda128) }, []string{"NVIDIA driver (NVML)", "GPU memory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Preflight(t.Context(), tt.in())
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("Preflight: %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatal("Preflight: nil, want an error")
			}
			if code := exitcode.Of(err); code != exitcode.GPU {
				t.Errorf("exit code %d, want %d", code, exitcode.GPU)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not mention %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestLocalHostReaders(t *testing.T) {
	if got := memTotal("testdata/proc/meminfo"); got != 24578036<<10 {
		t.Errorf("memTotal = %d", got)
	}
	if got := memTotal("testdata/proc/missing"); got != 0 {
		t.Errorf("memTotal of a missing file = %d, want 0", got)
	}
	if !isWSL("testdata/proc/version-wsl") || isWSL("testdata/proc/version-debian") {
		t.Error("isWSL misread testdata/proc/version-*")
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		return // diskFree reads nothing on other systems
	}
	free, err := diskFree(t.TempDir() + "/not/yet/created")
	if err != nil || free <= 0 {
		t.Errorf("diskFree of a missing path under a temp dir = %d, %v; want the parent's free space", free, err)
	}
}

func TestPortFree(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("cannot listen here: %v", err)
	}
	p := l.Addr().(*net.TCPAddr).Port
	if portFree("127.0.0.1", p) {
		t.Errorf("port %d is held but portFree says free", p)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if !portFree("127.0.0.1", p) {
		t.Errorf("port %s was released but portFree says busy", strconv.Itoa(p))
	}
}
