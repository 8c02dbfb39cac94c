package mirror

import (
	"bufio"
	"errors"
	"io"
)

// maxLineSize bounds one event; longer lines are skipped, not fatal.
const maxLineSize = 256 << 20

// lineReader returns lines of any length up to maxLineSize without the
// token-too-long failure of bufio.Scanner. The returned slice is valid until
// the next call.
type lineReader struct {
	br      *bufio.Reader
	long    []byte
	bytes   int64 // bytes consumed
	tooLong int   // lines skipped for exceeding maxLineSize
	partial bool  // the last line had no newline
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
	l.long = append(l.long[:0], line...)
	skip := false
	for {
		line, err = l.br.ReadSlice('\n')
		l.bytes += int64(len(line))
		if !skip && len(l.long)+len(line) > maxLineSize {
			skip, l.long = true, l.long[:0]
			l.tooLong++
		}
		if !skip {
			l.long = append(l.long, line...)
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

// maxLineBuf is the long-line buffer kept between calls.
const maxLineBuf = 16 << 20

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}
