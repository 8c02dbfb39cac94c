//go:build !unix

package statedir

const (
	noFollow = 0
	nonBlock = 0
)
