//go:build !unix

package remote

// noFollow is 0 where the system has no O_NOFOLLOW (the scan skips links already).
const noFollow = 0
