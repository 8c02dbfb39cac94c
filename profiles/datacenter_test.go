package profiles

import (
	"strings"
	"testing"
)

// TestDataCenterDriverRule: on data-center GPUs the driver runs every CUDA
// of a family from the family's floor (minor-version compatibility: CUDA 13
// on R580+, CUDA 12 on R525+; RAPIDS platform support "CUDA 13: Driver
// 580+", cudf-spark 26.10.0 "CUDA 12: R525+, CUDA 13: R580+"), so this
// project's H200 hosts (driver 580.159.04) get the newest Triton and RAPIDS
// 26.08's CUDA 13 image; consumer GPUs keep the toolkit's own driver.
func TestDataCenterDriverRule(t *testing.T) {
	c := Builtin()
	const h200 = "580.159.04"
	tr := c.file.Triton.Releases
	newestTriton := tr[len(tr)-1].Release
	tests := []struct {
		name        string
		req         Request
		wantRelease string
		wantCUDA    string // prefix
		wantMin     string
		wantRule    string
	}{
		{"triton, data-center", Request{Profile: Triton, Driver: h200, DriverRule: "d", DataCenter: true}, newestTriton, "13.", "580.65.06", "data-center"},
		{"rapids 26.08, data-center", Request{Profile: Rapids, Rapids: "26.08", Driver: h200, DriverRule: "d", DataCenter: true}, "26.08", "13.", "580.65.06", "data-center"},
		{"triton, consumer", Request{Profile: Triton, Driver: h200, DriverRule: "d"}, "25.10", "13.0", "580.95.05", "toolkit"},
		{"rapids 26.08, consumer", Request{Profile: Rapids, Rapids: "26.08", Driver: h200, DriverRule: "d"}, "26.08", "12.", "575.57.08", "toolkit"},
		{"rapids, data-center R535 gets CUDA 12", Request{Profile: Rapids, Rapids: "26.08", Driver: "535.104.05", DriverRule: "d", DataCenter: true}, "26.08", "12.9", "525.60.13", "data-center"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Resolve(tc.req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Release != tc.wantRelease || !strings.HasPrefix(r.CUDA, tc.wantCUDA) || r.Requires.MinDriver != tc.wantMin {
				t.Errorf("release %s CUDA %s needs %s; want %s, CUDA %s*, %s", r.Release, r.CUDA, r.Requires.MinDriver, tc.wantRelease, tc.wantCUDA, tc.wantMin)
			}
			notes := DriverRuleNotes(r)
			if len(notes) != 1 || !strings.Contains(notes[0], tc.wantRule) {
				t.Errorf("driver rule notes %q do not name the %s rule", notes, tc.wantRule)
			}
		})
	}
}

func TestDataCenterGPU(t *testing.T) {
	tests := []struct {
		brand, name string
		want        bool
	}{
		{"", "NVIDIA H200", true},
		{"NVIDIA", "NVIDIA H100 80GB HBM3", true},
		{"", "NVIDIA A100-SXM4-80GB", true},
		{"", "NVIDIA L40S", true},
		{"Tesla", "Tesla T4", true},
		{"Tesla", "some future board", true},
		{"GeForce", "NVIDIA GeForce RTX 4090", false},
		{"", "NVIDIA GeForce RTX 3060 Laptop GPU", false},
		{"NVIDIA RTX", "NVIDIA RTX A6000", false},
		{"", "", false},
	}
	for _, tc := range tests {
		if got := DataCenterGPU(tc.brand, tc.name); got != tc.want {
			t.Errorf("DataCenterGPU(%q, %q) = %v, want %v", tc.brand, tc.name, got, tc.want)
		}
	}
}

// TestResolutionLimit: the machine's driver with its GPUs decides the rule;
// a mix of data-center and other GPUs, or no driver read, keeps the toolkit
// rule.
func TestResolutionLimit(t *testing.T) {
	c := Builtin()
	h200 := []GPUModel{{Brand: "NVIDIA", Name: "NVIDIA H200"}}
	mixed := []GPUModel{{Name: "NVIDIA H100 80GB HBM3"}, {Brand: "GeForce", Name: "NVIDIA GeForce RTX 4090"}}
	tests := []struct {
		name     string
		driver   string
		gpus     []GPUModel
		wantDC   bool
		wantRule string
	}{
		{"H200", "580.159.04", h200, true, "read through NVML), on data-center GPUs (NVIDIA H200)"},
		{"mixed", "580.159.04", mixed, false, "on GPUs not known as data-center ones"},
		{"no GPUs listed", "580.159.04", nil, false, "read through NVML)"},
		{"no driver", "", h200, false, "could not be read"},
	}
	for _, tc := range tests {
		l := c.ResolutionLimit(tc.driver, tc.gpus)
		if l.DataCenter != tc.wantDC || !strings.Contains(l.Rule, tc.wantRule) {
			t.Errorf("%s: %+v, want data-center %v and a rule with %q", tc.name, l, tc.wantDC, tc.wantRule)
		}
		if tc.driver != "" && l.Driver != tc.driver {
			t.Errorf("%s: driver %s, want %s", tc.name, l.Driver, tc.driver)
		}
	}
}
