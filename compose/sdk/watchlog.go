package sdk

import (
	"bytes"
	"path/filepath"
	"strings"
	"sync"

	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/docker/compose/v5/pkg/api"
	"github.com/sirupsen/logrus"
)

// watchLog shows the watch in devenv's UI: the SDK's watch messages (it
// is the SDK's api.LogConsumer), what sync+exec commands print, and
// devenv's rebuilds. A line reads "develop.watch: MESSAGE"; with --json
// each is an event {"event":"watch","message":...} (a command's output
// {"event":"watch","output":...}), and errors are warnings either way.
type watchLog struct {
	out *ui.Printer
	dir string // the project directory, which paths are shown relative to

	mu      sync.Mutex
	partial bytes.Buffer // output after its last newline
}

var _ api.LogConsumer = (*watchLog)(nil)

func (l *watchLog) Log(name, msg string)    { l.message(name, msg) }
func (l *watchLog) Status(name, msg string) { l.message(name, msg) }

func (l *watchLog) Err(name, msg string) {
	if l.out != nil {
		l.out.Warn("develop.watch: %s", prefixed(name, msg))
	}
}

func (l *watchLog) message(name, msg string) {
	if l.out == nil {
		return
	}
	msg = prefixed(name, msg)
	if l.out.JSON {
		l.out.Event(map[string]any{"event": "watch", "message": msg})
		return
	}
	l.out.Say("develop.watch: %s", msg)
}

// prefixed is msg with the container it is about, unless it is the
// watch's own (api.WatchLogger).
func prefixed(name, msg string) string {
	msg = strings.TrimSpace(msg)
	if name == "" || name == api.WatchLogger {
		return msg
	}
	return name + ": " + msg
}

// rel is p relative to the project directory, when under it.
func (l *watchLog) rel(p string) string { return relTo(l.dir, p) }

// relTo is p relative to dir, when under it.
func relTo(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil && dir != "" && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// output is where the SDK's docker CLI writes (a sync+exec command's
// stdout and stderr): each whole line is shown as it comes.
func (l *watchLog) output() *outputLines { return &outputLines{l: l} }

type outputLines struct{ l *watchLog }

func (o *outputLines) Write(b []byte) (int, error) {
	o.l.mu.Lock()
	o.l.partial.Write(b)
	var lines []string
	for {
		i := bytes.IndexByte(o.l.partial.Bytes(), '\n')
		if i < 0 {
			break
		}
		lines = append(lines, string(o.l.partial.Next(i + 1)[:i]))
	}
	o.l.mu.Unlock()
	for _, line := range lines {
		o.l.line(line)
	}
	return len(b), nil
}

// flush shows output left without a final newline.
func (l *watchLog) flush() {
	l.mu.Lock()
	rest := l.partial.String()
	l.partial.Reset()
	l.mu.Unlock()
	if rest != "" {
		l.line(rest)
	}
}

func (l *watchLog) line(s string) {
	if l.out == nil {
		return
	}
	s = strings.TrimRight(s, "\r")
	if l.out.JSON {
		l.out.Event(map[string]any{"event": "watch", "output": s})
		return
	}
	l.out.Say("%s", s)
}

// routeWarnings shows the Compose SDK's logrus warnings as devenv's
// warnings until the returned func is called. The SDK's watch reports a
// sync, restart or sync+exec command that failed after a change only
// there ("Error handling changed files: ..."), and devenv keeps logrus at
// its error level (libraries' chatter stays off the terminal): for the
// watch the level is warnings, and a warning is shown only when the SDK
// (github.com/docker/compose) logged it. With --debug logrus prints
// everything itself, as before.
func routeWarnings(out *ui.Printer) (restore func()) {
	l := logrus.StandardLogger()
	if out == nil || l.IsLevelEnabled(logrus.WarnLevel) {
		return func() {}
	}
	level, format, caller := l.GetLevel(), l.Formatter, l.ReportCaller
	l.SetFormatter(&sdkWarnings{out: out, next: format})
	l.SetReportCaller(true)
	l.SetLevel(logrus.WarnLevel)
	return func() {
		l.SetLevel(level)
		l.SetReportCaller(caller)
		l.SetFormatter(format)
	}
}

// sdkWarnings is logrus's formatter while watching: the SDK's warnings go
// to devenv's UI (and nothing to logrus's output), other warnings are
// dropped as the error level dropped them, and errors are formatted as
// before.
type sdkWarnings struct {
	out  *ui.Printer
	next logrus.Formatter
}

// sdkPackage is the prefix of the Compose SDK's functions.
const sdkPackage = "github.com/docker/compose/"

func (f *sdkWarnings) Format(e *logrus.Entry) ([]byte, error) {
	if e.Level <= logrus.ErrorLevel {
		plain := *e
		plain.Caller = nil // as before the watch asked logrus for callers
		return f.next.Format(&plain)
	}
	if e.Level == logrus.WarnLevel && e.Caller != nil && strings.HasPrefix(e.Caller.Function, sdkPackage) {
		f.out.Warn("develop.watch: %s", sdkWarning(e.Message))
	}
	return nil, nil
}

// sdkWarning is the SDK's warning as devenv shows it. A sync+exec command
// that exits non-zero comes with an error that says nothing (docker/cli's
// StatusError without a status), so the SDK's message ends in ": ";
// devenv says what happened.
func sdkWarning(msg string) string {
	msg = strings.TrimSpace(msg)
	if strings.HasSuffix(msg, ":") {
		msg += " a sync+exec command exited with a non-zero status (its output is above)"
	}
	return msg
}
