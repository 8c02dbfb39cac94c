package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/lock"
)

const repairYAML = `services:
  spark: {profile: spark-rapids, spark: "3.5.1", rapids: "25.06.0"}
`

// TestLockRepairsADamagedLock: a lock with a key given twice, or an
// artifact swapped by hand, fails lock --check (exit 1, naming the field);
// `devenv lock` writes it again, says so in its notes and lists what it
// changed.
func TestLockRepairsADamagedLock(t *testing.T) {
	tests := []struct{ name, old, new, check string }{
		{"duplicate key", `"version": 1,`, `"version": 1, "version": 1,`, "key version is given twice"},
		{"artifact swapped", `"url": "https://repo1.maven.org/maven2/com/nvidia/rapids-4-spark`, `"url": "https://evil.example/com/nvidia/rapids-4-spark`, "artifacts[1] (rapids-jar) url is"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, repairYAML, map[string]string{})
			w.lock(t)
			path := filepath.Join(w.dir, lock.FileName)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			good := string(data)
			if !strings.Contains(good, tt.old) {
				t.Fatalf("%q not in the lock:\n%s", tt.old, good)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(good, tt.old, tt.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = w.open(t).Lock(t.Context(), LockOptions{Check: true})
			if err == nil || ExitCode(err) != 1 || !strings.Contains(err.Error(), tt.check) {
				t.Fatalf("lock --check = %v (exit %d), want exit 1 with %q", err, ExitCode(err), tt.check)
			}
			res, err := w.open(t).Lock(t.Context(), LockOptions{})
			if err != nil {
				t.Fatalf("lock did not repair it: %v", err)
			}
			if !strings.Contains(strings.Join(res.Notes, "\n"), "devenv.lock") {
				t.Errorf("notes do not say the lock was repaired: %q", res.Notes)
			}
			if _, err := w.open(t).Lock(t.Context(), LockOptions{Check: true}); err != nil {
				t.Errorf("lock --check after the repair: %v", err)
			}
			repaired, _ := os.ReadFile(path)
			if string(repaired) != good {
				t.Errorf("the repaired lock differs from the one first written:\n%s", repaired)
			}
		})
	}
}

// TestFreshLockRefusesADamagedLock: up and build never relock from a
// damaged lock silently; they name the problem.
func TestFreshLockRefusesADamagedLock(t *testing.T) {
	w := newWorld(t, repairYAML, map[string]string{})
	w.lock(t)
	path := filepath.Join(w.dir, lock.FileName)
	data, _ := os.ReadFile(path)
	edited := strings.Replace(string(data), `"file": "rapids-4-spark_2.12-25.06.0.jar"`, `"file": "rapids.jar"`, 1)
	if edited == string(data) {
		t.Fatal("no rapids file in the lock")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := w.open(t).FreshLock(t.Context(), false)
	var ie *lock.IntegrityError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), `file is "rapids.jar"`) {
		t.Fatalf("FreshLock = %v, want the integrity error naming the file", err)
	}
}
