package envvars

import (
	"strings"
	"testing"
)

// TestRegistryMirrorCredentialsAreRefusedUnshown: DEVENV_MIRROR_REGISTRIES
// with user:password@ (with or without a scheme) is refused, and neither
// message shows the password.
func TestRegistryMirrorCredentialsAreRefusedUnshown(t *testing.T) {
	for _, v := range []string{"nvcr.io=bob:hunter2@127.0.0.1:5055", "nvcr.io=https://bob:hunter2@registry.corp", "docker.io=x:5000,nvcr.io=tok-hunter2@h"} {
		err := Check([]string{"DEVENV_MIRROR_REGISTRIES=" + v})
		if err == nil || !strings.Contains(err.Error(), "holds credentials") || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Check(%q) = %v, want credentials refused without the password", v, err)
		}
	}
}
