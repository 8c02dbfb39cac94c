package mirror

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/devenv-dev/devenv/internal/safefile"
	"io"
	"path/filepath"
	"strings"
)

// earlyBudget bounds how many lines after the environment update an early
// (not Full) read looks at for the first executor: the read's cost does not
// grow with the log's size.
const earlyBudget = 20000

// logSource is one file of an event log.
type logSource struct {
	name string
	open func() (io.ReadCloser, error)
}

// importEventLog reads a Spark event log file or rolling directory.
func importEventLog(path string, opts Options) (*Profile, error) {
	files, err := eventLogFiles(path)
	if err != nil {
		return nil, err
	}
	srcs := make([]logSource, len(files))
	for i, f := range files {
		f := f
		srcs[i] = logSource{name: f, open: func() (io.ReadCloser, error) { return openLogFile(opts.ctx, f) }}
	}
	return readEventLog(path, srcs, opts)
}

// openLogFile opens one file of an event log: a regular file only (a FIFO
// or a device in a rolling directory is refused, not waited on), read
// through ctx so that a scan of a large log stops on Ctrl-C.
func openLogFile(ctx context.Context, path string) (io.ReadCloser, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, err
	}
	if ctx == nil {
		return f, nil
	}
	return struct {
		io.Reader
		io.Closer
	}{safefile.Reader(ctx, f), f}, nil
}

// readEventLog scans the sources in order and builds the profile.
func readEventLog(path string, srcs []logSource, opts Options) (*Profile, error) {
	s := newLogScan(opts.Full)
	s.lim = limits{maxWindowMB: opts.MaxWindowMB}
	p := newProfile(path, FormatEventLog)
	var problems, causes []string
	for _, src := range srcs {
		stop, err := s.readSource(src)
		if opts.ctx != nil && opts.ctx.Err() != nil {
			return nil, fmt.Errorf("mirror: reading %s: %w", path, opts.ctx.Err())
		}
		if err != nil {
			p.warn(err.Error())
			problems = append(problems, err.Error())
			var de *decodeError
			if errors.As(err, &de) {
				causes = append(causes, err.Error())
			}
		}
		if stop {
			break
		}
	}
	if !s.sawVersion && !s.sawEnv {
		return nil, s.nothingFound(path, causes, problems)
	}
	s.apply(p)
	p.deriveFromConf()
	p.finish()
	return p, nil
}

// readSource scans one file; stop is true once the scan has what it needs.
func (s *logScan) readSource(src logSource) (stop bool, err error) {
	rc, err := src.open()
	if err != nil {
		return false, fmt.Errorf("cannot read %s: %w; skipped", src.name, err)
	}
	defer func() { _ = rc.Close() }()
	r, codec, closeDec, err := decompress(bufio.NewReaderSize(rc, 256<<10), s.lim)
	if err != nil {
		return false, fmt.Errorf("%s: %w; skipped", filepath.Base(src.name), err)
	}
	defer closeDec()
	if codec != "" {
		s.codecs[codec] = true
	}
	lr := newLineReader(r)
	lr.onLong = s.longLine
	defer func() { s.tooLong += lr.tooLong }()
	for {
		line, rerr := lr.next()
		if len(line) > 0 || rerr == nil {
			s.handle(line, lr.partial && rerr == nil)
		}
		if s.done() {
			return true, nil
		}
		if rerr != nil {
			if errors.Is(rerr, io.EOF) {
				return false, nil
			}
			var de *decodeError
			if errors.As(rerr, &de) {
				return false, fmt.Errorf("%s: %w; using the %d events read before", filepath.Base(src.name), rerr, s.events)
			}
			return false, fmt.Errorf("%s ends early or is corrupt (%w); using the %d events read before", filepath.Base(src.name), rerr, s.events)
		}
	}
}

// nothingFound explains a log with neither version nor environment. A
// decompressor's refusal (a window over the limit, a corrupt frame) is the
// cause, so it comes first.
func (s *logScan) nothingFound(path string, causes, problems []string) error {
	if len(causes) > 0 {
		return fmt.Errorf("mirror: %s: cannot decompress: %s; so no Spark version or environment was found (read %d lines)",
			path, strings.Join(causes, "; "), s.lines)
	}
	why := fmt.Sprintf("read %d lines", s.lines)
	if s.bad > 0 {
		why += fmt.Sprintf(", %d of them not JSON", s.bad)
	}
	err := fmt.Errorf("mirror: %s: no Spark version or environment found (%s): this is not a Spark event log, or it is cut off before %s; "+
		"pass the application's event log file (or its eventlog_v2_* directory)", path, why, evEnv)
	if len(problems) > 0 {
		err = fmt.Errorf("%w; also: %s", err, strings.Join(problems, "; "))
	}
	return err
}

// decodeInto decodes a line, counting failures as bad lines.
func (s *logScan) decodeInto(line []byte, v any) bool {
	if tooManyObjects(line) {
		s.tooManyObjects++
		return false
	}
	if err := json.Unmarshal(line, v); err != nil {
		s.badLine(line)
		return false
	}
	s.events++
	return true
}
