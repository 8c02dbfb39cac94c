package mirror

import (
	"bufio"
	"errors"
	"io"
)

// maxLineSize bounds one buffered event; longer lines are skipped, not
// fatal, so a gigabyte-long line costs no more memory than this. The
// events devenv decodes (resource profiles, executors, failures) are far
// smaller; the environment event is decoded as a stream at any length.
const maxLineSize = 32 << 20

// longLine is what to do with a line longer than the read buffer.
type longLine int

const (
	bufferLine   longLine = iota // collect it (up to maxLineSize) and return it
	skipLine                     // not needed: skip it without buffering
	streamedLine                 // the callback consumed it as a stream
)

// lineReader returns lines of any length up to maxLineSize without the
// token-too-long failure of bufio.Scanner. The returned slice is valid until
// the next call. onLong, when set, decides about lines longer than the
// buffer from their first megabyte.
type lineReader struct {
	br      *bufio.Reader
	long    []byte
	bytes   int64 // bytes consumed
	tooLong int   // lines skipped for exceeding maxLineSize
	partial bool  // the last line had no newline
	onLong  func(head []byte, rest io.Reader) longLine
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 1<<20)}
}

// next returns the next line without its newline; err is io.EOF at a clean
// end, or the reader's error (the line returned with it may be partial).
func (l *lineReader) next() ([]byte, error) {
	line, err := l.br.ReadSlice('\n')
	l.bytes += int64(len(line))
	if err == nil {
		return trimEOL(line), nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		l.partial = len(line) > 0
		if len(line) > 0 && errors.Is(err, io.EOF) {
			return trimEOL(line), nil
		}
		return trimEOL(line), err
	}
	if cap(l.long) > maxLineBuf {
		l.long = nil // do not keep a huge buffer from an earlier line alive
	}
	l.long = appendCapped(l.long[:0], line)
	if l.onLong != nil {
		rest := &restOfLine{l: l}
		if act := l.onLong(l.long, rest); act != bufferLine {
			if err := rest.drain(); err != nil {
				return nil, err
			}
			return l.next()
		}
	}
	return l.collect()
}

// collect reads the rest of a long line into l.long, or skips it past
// maxLineSize.
func (l *lineReader) collect() ([]byte, error) {
	skip := false
	for {
		line, err := l.br.ReadSlice('\n')
		l.bytes += int64(len(line))
		if !skip && len(l.long)+len(line) > maxLineSize {
			skip, l.long = true, l.long[:0]
			l.tooLong++
		}
		if !skip {
			l.long = appendCapped(l.long, line)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if skip {
			if err != nil {
				return nil, err
			}
			return l.next()
		}
		out := trimEOL(l.long)
		if err != nil {
			l.partial = true
			if errors.Is(err, io.EOF) {
				return out, nil
			}
		}
		return out, err
	}
}

// restOfLine reads the rest of the current line (through its newline)
// without buffering it.
type restOfLine struct {
	l       *lineReader
	pending []byte
	done    bool
	err     error
}

func (r *restOfLine) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.done {
			if r.err != nil {
				return 0, r.err
			}
			return 0, io.EOF
		}
		chunk, err := r.l.br.ReadSlice('\n')
		r.l.bytes += int64(len(chunk))
		r.pending = chunk
		if !errors.Is(err, bufio.ErrBufferFull) {
			r.done = true
			if err != nil && !errors.Is(err, io.EOF) {
				r.err = err
			}
			if errors.Is(err, io.EOF) {
				r.l.partial = true
			}
		}
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// drain skips what the callback left of the line.
func (r *restOfLine) drain() error {
	for !r.done {
		r.pending = nil
		if _, err := r.Read(nil); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
	}
	return r.err
}

// maxLineBuf is the long-line buffer kept between calls: up to
// maxLineSize, so that a log of many lines of 20 to 32 MB reuses one
// buffer (one source's lineReader holds it) instead of leaving one to the
// garbage collector per line, which let a 12 KB zstd log of four such
// lines peak at 184 MB.
const maxLineBuf = maxLineSize

// appendCapped appends like append, but never grows b's capacity past
// maxLineSize (append alone would double a 20 MB buffer to 40).
func appendCapped(b, more []byte) []byte {
	need := len(b) + len(more)
	if need > cap(b) {
		c := min(max(2*cap(b), need), max(maxLineSize, need))
		nb := make([]byte, len(b), c)
		copy(nb, b)
		b = nb
	}
	return append(b, more...)
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}
