package mirror

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/golang/snappy"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Codec names, as found by magic bytes.
const (
	codecZstd       = "zstd"
	codecLZ4Frame   = "lz4"
	codecLZ4Block   = "lz4-block" // Spark's LZ4CompressionCodec (lz4-java LZ4BlockOutputStream)
	codecSnappyJava = "snappy"    // Spark's SnappyCompressionCodec (snappy-java SnappyOutputStream)
	codecSnappyFrm  = "snappy-framed"
	codecGzip       = "gzip"
	codecLZF        = "lzf"
)

var magics = []struct {
	codec string
	magic []byte
}{
	{codecZstd, []byte{0x28, 0xb5, 0x2f, 0xfd}},
	{codecLZ4Frame, []byte{0x04, 0x22, 0x4d, 0x18}},
	{codecLZ4Block, []byte("LZ4Block")},
	{codecSnappyJava, []byte("\x82SNAPPY\x00")},
	{codecSnappyFrm, []byte("\xff\x06\x00\x00sNaPpY")},
	{codecGzip, []byte{0x1f, 0x8b}},
	{codecLZF, []byte("ZV")},
}

// codecOf names the compression of data by its magic bytes, or "".
func codecOf(head []byte) string {
	for _, m := range magics {
		if bytes.HasPrefix(head, m.magic) {
			if m.codec == codecLZF && (len(head) < 3 || head[2] > 1) {
				continue // "ZV" followed by a block type 0 or 1
			}
			return m.codec
		}
	}
	return ""
}

// decompress wraps r (whose first bytes are peeked) in the decoder its magic
// names; plain data passes through. The closer releases decoder resources.
// Compressed data is read through a ratio guard (see ratioGuard).
func decompress(br *bufio.Reader, lim limits) (io.Reader, string, func(), error) {
	head, _ := br.Peek(18)
	codec := codecOf(head)
	if codec == "" {
		return br, "", func() {}, nil
	}
	in := &countingReader{r: br}
	r, closer, err := decoder(codec, head, bufio.NewReaderSize(in, 64<<10), lim)
	if err != nil {
		return nil, codec, closer, err
	}
	return &ratioGuard{r: r, in: in, codec: codec}, codec, closer, nil
}

// decoder opens the decoder of one codec.
func decoder(codec string, head []byte, br *bufio.Reader, lim limits) (io.Reader, func(), error) {
	nop := func() {}
	switch codec {
	case codecZstd:
		if err := checkZstdWindow(head, lim.window()); err != nil {
			return nil, nop, err
		}
		d, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(lim.window()))
		if err != nil {
			return nil, nop, err
		}
		return &zstdErrors{r: d, max: lim.window()}, d.Close, nil
	case codecLZ4Frame:
		if err := checkLZ4Frame(head); err != nil {
			return nil, nop, err
		}
		return lz4.NewReader(br), nop, nil
	case codecLZ4Block:
		return &lz4BlockReader{r: br}, nop, nil
	case codecSnappyJava:
		return &snappyJavaReader{r: br}, nop, nil
	case codecSnappyFrm:
		return snappy.NewReader(br), nop, nil
	case codecGzip:
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, nop, err
		}
		return z, func() { _ = z.Close() }, nil
	}
	return nil, nop, fmt.Errorf("%s compression is not supported; decompress the log first or write event logs with zstd, lz4 or snappy", codec)
}

// maxBlock bounds one compressed block, so garbage cannot ask for huge buffers.
const maxBlock = 64 << 20

// snappyJavaReader reads snappy-java's stream: an 8-byte magic, two 4-byte
// versions, then blocks of a 4-byte big-endian length and snappy data.
type snappyJavaReader struct {
	r       io.Reader
	started bool
	in, out []byte
	pending []byte
}

func (s *snappyJavaReader) Read(p []byte) (int, error) {
	if !s.started {
		var hdr [16]byte
		if _, err := io.ReadFull(s.r, hdr[:]); err != nil {
			return 0, fmt.Errorf("snappy header: %w", io.ErrUnexpectedEOF)
		}
		s.started = true
	}
	for len(s.pending) == 0 {
		var lenBuf [4]byte
		if _, err := io.ReadFull(s.r, lenBuf[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return 0, io.EOF
			}
			return 0, io.ErrUnexpectedEOF
		}
		n := binary.BigEndian.Uint32(lenBuf[:])
		if bytes.Equal(lenBuf[:], []byte("\x82SNA")) { // concatenated stream
			s.started = false
			var rest [12]byte
			if _, err := io.ReadFull(s.r, rest[:]); err != nil {
				return 0, io.ErrUnexpectedEOF
			}
			s.started = true
			continue
		}
		if n > maxBlock {
			return 0, fmt.Errorf("snappy block of %d bytes: corrupt data", n)
		}
		s.in = grow(s.in, int(n))
		if _, err := io.ReadFull(s.r, s.in); err != nil {
			return 0, io.ErrUnexpectedEOF
		}
		dl, err := snappy.DecodedLen(s.in)
		if err != nil || dl > maxBlock {
			return 0, fmt.Errorf("snappy block: corrupt data")
		}
		s.out = grow(s.out, dl)
		out, err := snappy.Decode(s.out, s.in)
		if err != nil {
			return 0, fmt.Errorf("snappy block: %w", err)
		}
		s.pending = out
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

// lz4BlockReader reads lz4-java's LZ4BlockOutputStream: blocks with the
// "LZ4Block" magic, a token byte (method | level), compressed and
// decompressed lengths and a checksum (little-endian), then the data.
type lz4BlockReader struct {
	r       io.Reader
	in, out []byte
	pending []byte
}

func (l *lz4BlockReader) Read(p []byte) (int, error) {
	for len(l.pending) == 0 {
		var hdr [21]byte
		if _, err := io.ReadFull(l.r, hdr[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return 0, io.EOF
			}
			return 0, io.ErrUnexpectedEOF
		}
		if !bytes.Equal(hdr[:8], []byte("LZ4Block")) {
			return 0, fmt.Errorf("lz4 block: bad magic: corrupt data")
		}
		method := hdr[8] & 0xf0
		clen := binary.LittleEndian.Uint32(hdr[9:13])
		dlen := binary.LittleEndian.Uint32(hdr[13:17])
		if clen > maxBlock || dlen > maxBlock {
			return 0, fmt.Errorf("lz4 block of %d bytes: corrupt data", dlen)
		}
		if dlen == 0 {
			continue // end mark; another stream may follow
		}
		l.in = grow(l.in, int(clen))
		if _, err := io.ReadFull(l.r, l.in); err != nil {
			return 0, io.ErrUnexpectedEOF
		}
		switch method {
		case 0x10: // raw
			l.pending = l.in
		case 0x20: // lz4
			l.out = grow(l.out, int(dlen))
			n, err := lz4.UncompressBlock(l.in, l.out)
			if err != nil || n != int(dlen) {
				return 0, fmt.Errorf("lz4 block: corrupt data")
			}
			l.pending = l.out[:n]
		default:
			return 0, fmt.Errorf("lz4 block: unknown method %#x", method)
		}
	}
	n := copy(p, l.pending)
	l.pending = l.pending[n:]
	return n, nil
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
