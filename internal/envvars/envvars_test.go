package envvars

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	good := []string{
		"PATH=/bin", "DEVENV_NET_TIMEOUT=30s", "DEVENV_ENGINE_TIMEOUT=2m", "DEVENV_NET_BUDGET=90s", "DEVENV_CACHE=/tmp/c",
		"DEVENV_MAX_WINDOW_MB=256", "DEVENV_MIRROR_MAVEN=http://127.0.0.1:8081/maven2", "DEVENV_MIRROR_PYPI=",
		"DEVENV_MIRROR_REGISTRIES=nvcr.io=127.0.0.1:5055, docker.io=mirror.local/hub", "DEVENV_JOB_ID=1",
		"DEVENV_TEST_CACHE=/x", "DEVENV_CPU_FALLBACK=1", "DEVENV_SOMETHING_ELSE=1",
		"DEVENV_SSH_MUX=0", "DEVENV_WATCH_JOB_RESTART=false", "DEVENV_GPU_FACTS=engine", "DEVENV_ENGINE_REMOTE=1",
		"DEVENV_FORWARD_SAME_PORT=0", "DEVENV_PROBE_IMAGE=devenv/p-spark:abc",
	}
	if err := Check(good); err != nil {
		t.Errorf("good environment refused: %v", err)
	}
	bad := map[string]string{
		"DEVENV_NET_TIMEOUT=abc":                         "DEVENV_NET_TIMEOUT=\"abc\": not a duration",
		"DEVENV_NET_TIMEOUT=60":                          "not a duration",
		"DEVENV_ENGINE_TIMEOUT=-5s":                      "not more than zero",
		"DEVENV_NET_BUDGET=0s":                           "DEVENV_NET_BUDGET",
		"DEVENV_MAX_WINDOW_MB=lots":                      "from 1 to 4096",
		"DEVENV_MAX_WINDOW_MB=0":                         "from 1 to 4096",
		"DEVENV_MIRROR_MAVEN=127.0.0.1:8081":             "not an http(s) URL",
		"DEVENV_MIRROR_APACHE=ftp://mirror/apache":       "not an http(s) URL",
		"DEVENV_MIRROR_REGISTRIES=nvcr.io":               `"nvcr.io" is not registry=host`,
		"DEVENV_MIRROR_REGISTRIES=nvcr.io=http://m:5000": "is not registry=host",
		"DEVENV_NET_TIMOUT=30s":                          "did you mean DEVENV_NET_TIMEOUT?",
		"DEVENV_MIRROR_MAVN=http://x":                    "did you mean DEVENV_MIRROR_MAVEN",
		"DEVENV_SSH_MUX=off":                             "DEVENV_SSH_MUX=\"off\": not 0, 1, true or false",
		"DEVENV_GPU_FACTS=gpu":                           "not one of nvml, engine",
		"DEVENV_PROBE_IMAGE=a b":                         "not an image reference",
		"DEVENV_SSH_MX=0":                                "did you mean DEVENV_SSH_MUX?",
	}
	for kv, want := range bad {
		err := Check([]string{"HOME=/root", kv})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check(%s) = %v, want an error with %q", kv, err, want)
		}
	}
	err := Check([]string{"DEVENV_NET_TIMEOUT=x", "DEVENV_MAX_WINDOW_MB=y"})
	if err == nil || !strings.Contains(err.Error(), "2 problems") {
		t.Errorf("two bad variables: %v, want both reported", err)
	}
	err = Check([]string{"DEVENV_MIRROR_PYPI=ftp://user:s3cret@host/simple"})
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("a mirror password in the error: %v", err)
	}
}
