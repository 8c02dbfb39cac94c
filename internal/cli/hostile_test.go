package cli

import "testing"

// TestHostileInputCatalogue runs testdata/hostile.txt (issue 29's hostile
// user: values Spark or the image would read differently from what
// devenv.yaml says, bombs, keys that hand a container the host, secrets
// in outputs) in the format of testdata/badinput.txt, special files
// included.
func TestHostileInputCatalogue(t *testing.T) {
	const path = "testdata/hostile.txt"
	runBadCases(t, path, readBadCases(t, path))
}
