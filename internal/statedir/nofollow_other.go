//go:build !unix

package statedir

const noFollow = 0
