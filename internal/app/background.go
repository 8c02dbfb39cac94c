package app

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/devenv-dev/devenv/internal/statedir"
)

// A background watch (watch --detach) is devenv watch run again as a
// process of its own session: its pid in .devenv/watch.pid, which watch
// --stop reads, and its output in .devenv/watch.log.
const (
	watchPid = "watch.pid"
	watchLog = "watch.log"
)

// BackgroundWatchLog is where a background watch writes, as the project
// directory's users name it.
const BackgroundWatchLog = ".devenv/" + watchLog

// StartBackgroundWatch starts this program again with args (a devenv
// watch command line) in a session of its own, so it outlives this
// terminal, and records its pid. pid is the process's once it started,
// also when recording it failed (err).
func (p *Project) StartBackgroundWatch(args []string) (pid int, err error) {
	state := p.StateDir()
	if err := statedir.MkdirAll(state, state); err != nil { // never through a link
		return 0, err
	}
	log, err := statedir.OpenFile(state, filepath.Join(state, watchLog), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return 0, err
	}
	defer func() { _ = log.Close() }()
	self, err := os.Executable()
	if err != nil {
		return 0, err
	}
	if pid, err = startDetached(self, args, log); err != nil {
		return 0, err
	}
	return pid, writeWatchPid(state, pid)
}

// writeWatchPid records the background watch's pid for watch --stop.
func writeWatchPid(state string, pid int) error {
	pf, err := statedir.OpenFile(state, filepath.Join(state, watchPid), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(pf, pid)
	if cerr := pf.Close(); err == nil {
		err = cerr
	}
	return err
}

// StopBackgroundWatch ends the background watch .devenv/watch.pid names,
// as Ctrl-C would, and forgets it. pid 0 says there was none.
func (p *Project) StopBackgroundWatch() (pid int, err error) {
	state := p.StateDir()
	f, err := statedir.OpenFile(state, filepath.Join(state, watchPid), os.O_RDONLY, 0)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	_, err = fmt.Fscan(f, &pid)
	_ = f.Close()
	if err != nil || pid <= 0 {
		return 0, fmt.Errorf(".devenv/%s does not hold a process id", watchPid)
	}
	if err := interrupt(pid); err != nil {
		return 0, fmt.Errorf("end the background watch (pid %d): %w", pid, err)
	}
	_ = os.Remove(filepath.Join(state, watchPid))
	return pid, nil
}
