package mirror

import (
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// DefaultMaxWindowMB is the largest zstd window read without a flag: what
// the zstd command line decodes by default (--long=27, 128 MiB), and what
// Databricks writes.
const DefaultMaxWindowMB = 128

// Decompression bomb guard: compressed input may expand at most maxRatio
// times once ratioFloor bytes have come out. Real event logs compress 5 to
// 50 times; a generated log of one repeated event about 2,000 times.
const (
	maxRatio   = 5000
	ratioFloor = 256 << 20
)

// limits bound what one event log may cost.
type limits struct {
	maxWindowMB int // zstd window; 0 means DefaultMaxWindowMB
}

func (l limits) window() uint64 {
	if l.maxWindowMB <= 0 {
		return DefaultMaxWindowMB << 20
	}
	return uint64(l.maxWindowMB) << 20
}

// decodeError is a failure of the decompressor, as opposed to bad JSON: it
// is the cause to name first when nothing could be read.
type decodeError struct{ err error }

func (e *decodeError) Error() string { return e.err.Error() }
func (e *decodeError) Unwrap() error { return e.err }

// windowError says a zstd frame needs a larger window than allowed.
func windowError(need, max uint64) error {
	what := "a window larger than"
	if need > 0 {
		what = fmt.Sprintf("a %d MiB window, more than", need>>20)
	}
	want := (need + (1<<20 - 1)) >> 20
	if want == 0 {
		want = max >> 20 * 2
	}
	return &decodeError{fmt.Errorf("zstd frame needs %s the %d MiB this reader allows (decoding takes that much memory); "+
		"if you trust the file, rerun with --max-window %d (as `zstd -d --memory=%dMB`; lock, up and the other commands that read it take DEVENV_MAX_WINDOW_MB=%d)", what, max>>20, want, want, want)}
}

// checkZstdWindow refuses, before decoding, a first frame whose window is
// over max.
func checkZstdWindow(head []byte, max uint64) error {
	var h zstd.Header
	if err := h.Decode(head); err != nil {
		return nil // short or odd header: the decoder reports it
	}
	if !h.SingleSegment && h.WindowSize > max {
		return windowError(h.WindowSize, max)
	}
	return nil
}

// zstdErrors turns the decoder's window refusal of a later frame into the
// same explanation.
type zstdErrors struct {
	r   io.Reader
	max uint64
}

func (z *zstdErrors) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	if errors.Is(err, zstd.ErrWindowSizeExceeded) {
		err = windowError(0, z.max)
	} else if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		err = &decodeError{fmt.Errorf("zstd: %w", err)}
	}
	return n, err
}

// checkLZ4Frame checks an LZ4 frame descriptor (version and block size) so
// a bad one is named rather than read as garbage. The legacy frame (lz4 -l)
// has no descriptor.
func checkLZ4Frame(head []byte) error {
	if len(head) < 6 {
		return nil
	}
	flg, bd := head[4], head[5]
	if flg>>6 != 1 {
		return &decodeError{fmt.Errorf("lz4 frame of version %d: only version 1 exists; the file is corrupt", flg>>6)}
	}
	if code := bd >> 4 & 7; code < 4 {
		return &decodeError{fmt.Errorf("lz4 frame with block size code %d: valid codes are 4 to 7 (64 KB to 4 MB); the file is corrupt", code)}
	}
	return nil
}

// countingReader counts the compressed bytes read.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ratioGuard stops a decompression bomb: past ratioFloor bytes out, output
// may be at most maxRatio times the input.
type ratioGuard struct {
	r     io.Reader
	in    *countingReader
	out   int64
	codec string
}

// errBomb marks a stream stopped by the ratio guard.
var errBomb = errors.New("decompression ratio limit")

func (g *ratioGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	g.out += int64(n)
	if g.out > ratioFloor && g.out > maxRatio*max(g.in.n, 1) {
		return n, &decodeError{fmt.Errorf("%w: %d MB of %s data expanded to over %d MB (more than %d:1); "+
			"this is a decompression bomb or a corrupt file, so reading stopped there", errBomb, g.in.n>>20, g.codec, g.out>>20, maxRatio)}
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		var de *decodeError
		if !errors.As(err, &de) {
			err = &decodeError{fmt.Errorf("%s: %w", g.codec, err)}
		}
	}
	return n, err
}
