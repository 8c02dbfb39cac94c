//go:build !linux

package fastup

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
)

// sysStat has no status-change time or inode to offer here (the
// portable FileInfo of macOS and Windows): the modification time, the
// size and contentStamp carry the fingerprint.
func sysStat(fs.FileInfo) (int64, uint64) { return 0, 0 }

// maxHashed bounds the files whose content goes into the fingerprint.
const maxHashed = 1 << 20

// contentStamp is the SHA-256 of a small regular file: without a
// status-change time, a rewrite that keeps the size and sets the
// modification time back (an editor, a checkout, a copy with -p) is seen
// by its bytes. Larger files keep size and modification time only.
func contentStamp(path string, fi fs.FileInfo) string {
	if !fi.Mode().IsRegular() || fi.Size() > maxHashed {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return "unreadable"
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxHashed+1)); err != nil {
		return "unreadable"
	}
	return hex.EncodeToString(h.Sum(nil))
}
