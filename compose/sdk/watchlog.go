package sdk

import (
	"bytes"
	"path/filepath"
	"strings"
	"sync"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/docker/compose/v5/pkg/api"
	"github.com/sirupsen/logrus"
)

// watchLog reports the watch as executor events: the SDK's watch
// messages (it is the SDK's api.LogConsumer), what sync+exec commands
// print line by line, devenv's rebuilds, and errors as warnings.
type watchLog struct {
	emit engine.ExecEvents
	dir  string // the project directory, which paths are shown relative to

	mu      sync.Mutex
	partial bytes.Buffer // output after its last newline
}

var _ api.LogConsumer = (*watchLog)(nil)

func (l *watchLog) Log(name, msg string)    { l.message(name, msg) }
func (l *watchLog) Status(name, msg string) { l.message(name, msg) }

func (l *watchLog) Err(name, msg string) {
	l.emit.Emit(engine.ExecEvent{Kind: engine.WatchWarning, Text: prefixed(name, msg)})
}

func (l *watchLog) message(name, msg string) {
	l.emit.Emit(engine.ExecEvent{Kind: engine.WatchMessage, Text: prefixed(name, msg)})
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
	l.emit.Emit(engine.ExecEvent{Kind: engine.WatchOutput, Text: strings.TrimRight(s, "\r")})
}

// routeWarnings reports the Compose SDK's logrus warnings as watch
// warnings until the returned func is called. The SDK's watch reports a
// sync, restart or sync+exec command that failed after a change only
// there ("Error handling changed files: ..."), and devenv keeps logrus at
// its error level (libraries' chatter stays off the terminal): for the
// watch the level is warnings, and a warning is shown only when the SDK
// (github.com/docker/compose) logged it. With --debug logrus prints
// everything itself, as before.
func routeWarnings(emit engine.ExecEvents) (restore func()) {
	l := logrus.StandardLogger()
	if emit == nil || l.IsLevelEnabled(logrus.WarnLevel) {
		return func() {}
	}
	level, format, caller := l.GetLevel(), l.Formatter, l.ReportCaller
	l.SetFormatter(&sdkWarnings{emit: emit, next: format})
	l.SetReportCaller(true)
	l.SetLevel(logrus.WarnLevel)
	return func() {
		l.SetLevel(level)
		l.SetReportCaller(caller)
		l.SetFormatter(format)
	}
}

// sdkWarnings is logrus's formatter while watching: the SDK's warnings are
// watch warnings (and nothing goes to logrus's output), other warnings are
// dropped as the error level dropped them, and errors are formatted as
// before.
type sdkWarnings struct {
	emit engine.ExecEvents
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
		f.emit.Emit(engine.ExecEvent{Kind: engine.WatchWarning, Text: sdkWarning(e.Message)})
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
