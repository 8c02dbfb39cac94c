//go:build unix

package app

import (
	"os"
	"os/exec"
	"syscall"
)

// startDetached starts bin with argv in a session of its own, its output
// in log, and does not wait for it.
func startDetached(bin string, argv []string, log *os.File) (int, error) {
	cmd := exec.Command(bin, argv...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pid := cmd.Process.Pid
	return pid, cmd.Process.Release()
}

// interrupt sends SIGINT (as Ctrl-C) to pid; a process already gone is fine.
func interrupt(pid int) error {
	if err := syscall.Kill(pid, syscall.SIGINT); err != nil && err != syscall.ESRCH {
		return err
	}
	return nil
}
