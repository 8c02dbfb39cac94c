//go:build !unix

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
)

// runCore runs devenv-core with the same arguments, streams and
// environment and returns its exit status. Where a process cannot be
// replaced (Windows), Ctrl-C reaches the child from the console; this
// process only waits for it.
func runCore(core string, args, env []string) int {
	signal.Ignore(os.Interrupt)
	cmd := exec.Command(core, args[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "devenv: cannot run %s: %v\n", core, err)
		return 1
	}
	return 0
}
