package standin

import (
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"strings"
)

// SHA512Format is how an Apache archive .sha512 file is written.
type SHA512Format int

const (
	// SHA512Coreutils is today's `<lower-case hex>  <name>` (sha512sum's output).
	SHA512Coreutils SHA512Format = iota
	// SHA512GPG is the older `gpg --print-md SHA512` output: `<name>: ` then
	// upper-case hex in groups of 8, wrapped below 80 columns with the
	// continuation lines aligned after the name (Spark releases up to 3.0
	// use it).
	SHA512GPG
)

func sha256Hex(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
func sha1Hex(b []byte) string   { s := sha1.Sum(b); return hex.EncodeToString(s[:]) }

// sha512File is the content of <name>.sha512 for data in the given format.
func sha512File(format SHA512Format, name string, data []byte) string {
	sum := sha512.Sum512(data)
	return sha512Line(format, name, sum[:])
}

// sha512Line is the content of <name>.sha512 for a digest.
func sha512Line(format SHA512Format, name string, sum []byte) string {
	if format == SHA512GPG {
		return gpgPrintMD(name, sum)
	}
	return fmt.Sprintf("%s  %s\n", hex.EncodeToString(sum), name)
}

// gpgPrintMD lays out a digest the way `gpg --print-md` (GnuPG 2.2) does
// for digests longer than 20 bytes: the name and ": ", then upper-case hex in
// groups of four bytes; before a group that would end past column 79 it
// starts a new line indented to the first digit (by at least one space: gpg
// pads with printf("%*s"), which prints one space even for a zero indent).
// When the name is longer than 38 columns the digits start on a new line.
// testdata/gpg holds real gpg output that this is checked against.
func gpgPrintMD(name string, sum []byte) string {
	var b strings.Builder
	indent := len(name) + 2
	b.WriteString(name + ": ")
	if indent > 40 {
		b.WriteString("\n")
		indent = 0
	}
	col := indent
	for i, c := range sum {
		if i > 0 && i%4 == 0 {
			if col+8 > 79 {
				b.WriteString("\n" + strings.Repeat(" ", max(indent, 1)))
				col = indent
			} else {
				b.WriteString(" ")
				col++
			}
		}
		fmt.Fprintf(&b, "%02X", c)
		col += 2
	}
	b.WriteString("\n")
	return b.String()
}

// sha1File is the content of a Maven Central .sha1 file: the bare hex.
func sha1File(data []byte) string { return sha1Hex(data) }
