//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

// runCore replaces this process with devenv-core, same arguments and
// environment: signals, the terminal and the exit status are its own.
func runCore(core string, args, env []string) int {
	err := syscall.Exec(core, args, env)
	fmt.Fprintf(os.Stderr, "devenv: cannot run %s: %v\n", core, err)
	return 1
}
