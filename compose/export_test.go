package compose

import "testing"

// FindHelperForTest makes Load and RawEnvironment look for the helper as
// devenv running as exe would, and run it, instead of the in-process
// loader, until the test ends.
func FindHelperForTest(t testing.TB, exe string) {
	in, find := inProcess, helperPath
	inProcess = nil
	helperPath = func() (string, error) { return lookHelper(exe) }
	StopHelper()
	t.Cleanup(func() {
		StopHelper()
		inProcess, helperPath = in, find
	})
}
