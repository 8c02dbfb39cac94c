package doctor

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDiagnose(t *testing.T) {
	tests := []struct {
		log  string
		want []string // finding ids in order
	}{
		{"spark-no-plugin", []string{"rapids-plugin-missing"}},
		{"spark-disabled", []string{"rapids-disabled"}},
		{"spark-driver", []string{"driver-mismatch"}},
		{"spark-oom", []string{"gpu-oom"}},
		{"spark-discovery", []string{"gpu-discovery"}},
		{"triton-load", []string{"triton-model-load"}},
		{"engine-refusal", []string{"no-gpu-runtime"}},
		{"toolkit-require", []string{"cuda-requirement"}},
		{"healthy", nil},
	}
	for _, tt := range tests {
		t.Run(tt.log, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "logs", tt.log+".log"))
			if err != nil {
				t.Fatal(err)
			}
			got := Diagnose(string(b))
			var ids []string
			for _, f := range got {
				ids = append(ids, f.ID)
				if f.Meaning == "" || f.Fix == "" || f.Line < 1 || f.Match == "" {
					t.Errorf("finding %s is incomplete: %+v", f.ID, f)
				}
			}
			if !reflect.DeepEqual(ids, tt.want) {
				t.Errorf("findings %v, want %v", ids, tt.want)
			}
			golden(t, filepath.Join("testdata", "logs", tt.log+".golden.json"), got)
		})
	}
}

func TestDiagnoseFirstMatchPerSignature(t *testing.T) {
	logs := "ok\nCUDA error: out of memory\nCUDA error: out of memory\nNo GPUs found\n"
	got := Diagnose(logs)
	if len(got) != 2 || got[0].ID != "gpu-oom" || got[0].Line != 2 || got[1].ID != "gpu-discovery" || got[1].Line != 4 {
		t.Fatalf("Diagnose = %+v, want gpu-oom at line 2 then gpu-discovery at line 4", got)
	}
}

func TestDiagnoseLongLine(t *testing.T) {
	line := "GpuOutOfMemoryError " + strings.Repeat("x", 1<<20)
	got := Diagnose(line)
	if len(got) != 1 {
		t.Fatalf("a 1 MiB line gave %d findings, want 1", len(got))
	}
	if len(got[0].Match) > maxMatch+3 {
		t.Errorf("the match is %d bytes, want at most %d", len(got[0].Match), maxMatch+3)
	}
	if len(Diagnose("")) != 0 {
		t.Error("empty logs gave findings")
	}
}

func TestClassify(t *testing.T) {
	cases := []struct{ text, want string }{
		{"java.lang.IllegalArgumentException: Could not find Spark Shim Loader for 3.5.9", "missing-shim"},
		{"com.nvidia.spark.rapids.jni.GpuRetryOOM: GPU OutOfMemory", "gpu-oom"},
		{"ai.rapids.cudf.CudfException: cudaErrorInsufficientDriver", "driver-mismatch"},
		{"java.lang.OutOfMemoryError: could not allocate 2147483648 bytes of pinned host memory", "pinned-pool"},
		{"!Exec <SortExec> cannot run on GPU because sort order is not supported", "gpu-fallback"},
		{"first line\nsecond: GpuOutOfMemoryError", "gpu-oom"},
		{"Failed to initialize NVML: Unknown Error", SignatureNVMLLost},
		{"nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown", "runtime-without-gpu"},
		{"No devices were found", "runtime-without-gpu"},
		{"could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices nvidia.com/gpu=1", "runtime-without-gpu"},
		{"Pinned memory pool is created at '0x7f' with size 268435456", ""},
		{"java.lang.ArithmeticException: divide by zero", ""},
	}
	for _, tc := range cases {
		if id, _ := Classify(tc.text); id != tc.want {
			t.Errorf("Classify(%q) = %q, want %q", tc.text, id, tc.want)
		}
	}
}
