package release

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// FileSHA256 is the hex sha256 of the file at path.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Checksums is checksums.txt over files (paths), in `sha256sum -c` form:
// "HASH  NAME" a line, sorted by name, names without directories.
func Checksums(files []string) (string, map[string]string, error) {
	sums := map[string]string{}
	names := make([]string, 0, len(files))
	for _, f := range files {
		s, err := FileSHA256(f)
		if err != nil {
			return "", nil, err
		}
		name := filepath.Base(f)
		if _, dup := sums[name]; dup {
			return "", nil, fmt.Errorf("two release files are named %s", name)
		}
		sums[name] = s
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[n], n)
	}
	return b.String(), sums, nil
}
