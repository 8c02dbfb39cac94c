package standin

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPyPIServesWheelsPipInstalls checks the stand-in index with the real
// pip: it installs the generated wheel from it into a fresh venv.
func TestPyPIServesWheelsPipInstalls(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 here to run pip with:", err)
	}
	s := PyPI(t, "devenv-probe==1.2.3")
	venv := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command(py, "-m", "venv", venv).CombinedOutput(); err != nil {
		t.Skipf("python3 -m venv does not work here (%v): %s", err, out)
	}
	pip := exec.Command(filepath.Join(venv, "bin", "pip"), "install", "--no-cache-dir", "--index-url", s.URL(), "devenv-probe==1.2.3")
	pip.Env = append(os.Environ(), "PIP_DISABLE_PIP_VERSION_CHECK=1")
	if out, err := pip.CombinedOutput(); err != nil {
		t.Fatalf("pip install from the stand-in index: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(venv, "bin", "python"), "-c", "import devenv_probe; print(devenv_probe.VERSION)").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "1.2.3" {
		t.Fatalf("import after install: %q %v", out, err)
	}
	if reqs := s.Requests(); len(reqs) < 2 || !strings.HasPrefix(reqs[0], "/simple/devenv-probe") {
		t.Errorf("requests %v", reqs)
	}
}
