package jobs

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startWrapped runs runCmd's wrapper with real processes, in a session of
// its own as the engine starts every exec (runc calls setsid), with the
// pid file moved into the test's directory; it returns the wrapper's
// process and the pid file.
func startWrapped(t *testing.T, command ...string) (*exec.Cmd, string) {
	t.Helper()
	return startWrappedIn(t, true, command...)
}

// startWrappedIn is startWrapped, in a session of its own only when
// session (as an engine other than runc might leave it).
func startWrappedIn(t *testing.T, session bool, command ...string) (*exec.Cmd, string) {
	t.Helper()
	j := Job{ID: "7", Command: command}
	argv := runCmd(j)
	pid := filepath.Join(t.TempDir(), "job.pid")
	argv[3] = pid
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: session}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(pid)
		if err == nil && strings.TrimSpace(string(data)) == strconv.Itoa(cmd.Process.Pid) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the wrapper wrote no pid file (%v)", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cmd, pid
}

// runKill runs killCmd's script as the engine would, on the test's pid file.
func runKill(t *testing.T, pid string, force bool) {
	t.Helper()
	argv := killCmd(Job{ID: "7"}, force)
	argv[3] = pid
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("kill script: %v\n%s", err, out)
	}
}

// groupGone waits until no live process is left in the process group
// pgid. Zombies count as gone: in a container tini reaps them, but here
// they may wait for a pid 1 that never reaps.
func groupGone(pgid int) bool {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if len(liveMembers(pgid)) == 0 {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// waitMembers waits until the process group pgid has n live processes
// (the job's shell and the children it starts): a fixed sleep lost that
// race on a loaded machine (CI, 2026-12-06).
func waitMembers(t *testing.T, pgid, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(liveMembers(pgid)) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the job's process group %d has %v after 10 s, want %d live processes: it is not a process group of its own", pgid, liveMembers(pgid), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// liveMembers lists the pids of pgid's processes that are not zombies,
// from /proc/<pid>/stat (fields after the command: state, ppid, pgrp).
func liveMembers(pgid int) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) >= 3 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" && f[0] != "X" {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestCancelEndsTheWholeProcessGroup: a job whose command starts children
// (as spark-submit starts a JVM and PySpark its workers) is stopped with
// all of them: SIGTERM goes to the job's process group, not its first pid.
func TestCancelEndsTheWholeProcessGroup(t *testing.T) {
	cmd, pid := startWrapped(t, "sh", "-c", "sleep 300 & sleep 300 & wait")
	pgid := cmd.Process.Pid
	waitMembers(t, pgid, 3) // the shell and its two children
	runKill(t, pid, false)
	_ = cmd.Wait()
	if !groupGone(pgid) {
		t.Fatal("children of the cancelled job are still running")
	}
}

// TestForcedKillEndsAGroupThatIgnoresSIGTERM: SIGKILL, the runner's last
// word after KillGrace, ends a job and children that ignore SIGTERM.
func TestForcedKillEndsAGroupThatIgnoresSIGTERM(t *testing.T) {
	cmd, pid := startWrapped(t, "sh", "-c", `trap "" TERM; sleep 300 & sleep 300 & wait; wait`)
	pgid := cmd.Process.Pid
	waitMembers(t, pgid, 3) // its children started: the shell has set its trap
	runKill(t, pid, false)
	time.Sleep(200 * time.Millisecond)
	if len(liveMembers(pgid)) == 0 {
		t.Fatal("the group ended on SIGTERM although it ignores it: the test proves nothing")
	}
	runKill(t, pid, true)
	_ = cmd.Wait()
	if !groupGone(pgid) {
		t.Fatal("SIGKILL left processes of the job running")
	}
	if _, err := os.Stat(pid); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the pid file is left after SIGKILL: %v", err)
	}
}

// TestCancelEndsTheGroupWhereTheEngineMadeNone: an exec that is not a
// process group of its own (runc makes each one; another engine might
// not) gets one from the wrapper, so cancel still ends its children.
func TestCancelEndsTheGroupWhereTheEngineMadeNone(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid on this machine: the wrapper falls back to signalling the job's first process")
	}
	cmd, pid := startWrappedIn(t, false, "sh", "-c", "sleep 300 & sleep 300 & wait")
	pgid := cmd.Process.Pid
	waitMembers(t, pgid, 3)
	runKill(t, pid, false)
	_ = cmd.Wait()
	if !groupGone(pgid) {
		t.Fatal("children of the cancelled job are still running")
	}
}
