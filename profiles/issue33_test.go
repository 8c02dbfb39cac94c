package profiles

import (
	"strings"
	"testing"
)

// Issue 33, class 7: the toolkit rows the catalog lacked, and Spark
// 4.2's Python floor.

func TestToolkitRowsOfIssue33(t *testing.T) {
	c := Builtin()
	have := map[string]string{}
	for _, tk := range c.file.CUDA.Toolkits {
		have[tk.Version] = tk.MinDriver
	}
	for _, v := range []string{"13.4.2", "13.5.0"} {
		if have[v] == "" {
			t.Errorf("CUDA toolkit %s is not in the catalog (or has no min_driver): %v", v, have)
		}
	}
}

// TestSpark42PythonFloor: the 4.2 line says 3.10, and a Spark 4.2 service
// asking for 3.9 is refused with 3.10 offered (today the base images'
// own Python list refuses it first; the line's floor stands behind it).
func TestSpark42PythonFloor(t *testing.T) {
	c := Builtin()
	floor := ""
	for _, l := range c.file.Spark.Lines {
		if l.Line == "4.2" {
			floor = l.PythonMin
		}
	}
	if floor != "3.10" {
		t.Errorf("Spark 4.2's python_min = %q, want 3.10 (PySpark 4.1 dropped 3.9)", floor)
	}
	for _, tc := range []struct {
		python  string
		wantErr string // "": resolves
	}{
		{"3.9", "3.10"},
		{"3.10", ""},
	} {
		t.Run(tc.python, func(t *testing.T) {
			_, err := c.Resolve(Request{Profile: SparkRapids, Spark: "4.2", Python: tc.python}, nil)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Spark 4.2 with Python %s: %v", tc.python, err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Spark 4.2 with Python %s: err %v, want %q", tc.python, err, tc.wantErr)
			}
		})
	}
}
