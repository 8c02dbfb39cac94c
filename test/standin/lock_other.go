//go:build !unix

package standin

// lockFile is unsupported off Unix: the Debian stand-in needs debootstrap,
// which only runs on Linux.
func lockFile(path string) (release func(), err error) {
	return nil, errorf("cannot lock %s: file locks need a Unix host; run the end-to-end tests on Linux", path)
}
