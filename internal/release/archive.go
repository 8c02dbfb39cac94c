// Package release makes devenv's release: per-platform archives, .deb and
// .rpm packages (nfpm), checksums.txt, a CycloneDX SBOM per archive
// (cyclonedx-gomod), minisign signatures, a Homebrew formula and a Scoop
// manifest. Everything it writes is a function of the commit: Go builds
// with -trimpath and no build ID, every file time is SOURCE_DATE_EPOCH,
// entries are sorted, owners are root, gzip headers carry no name or time.
package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path"
	"sort"
	"time"

	"github.com/devenv-dev/devenv/internal/atomicfile"
)

// Entry is one file of an archive: its name inside the archive's top
// directory, its mode and content (a file on disk, or Data).
type Entry struct {
	Name string
	Mode os.FileMode
	Src  string // read when Data is nil
	Data []byte
	Link string // a symbolic link to Link, when set
}

func (e Entry) content() ([]byte, error) {
	if e.Data != nil || e.Src == "" {
		return e.Data, nil
	}
	return os.ReadFile(e.Src)
}

// sorted is the entries by name, with every parent directory made
// explicit, so that two archives of the same files are the same bytes.
func sorted(entries []Entry) []Entry {
	seen := map[string]bool{}
	var all []Entry
	for _, e := range entries {
		for d := path.Dir(e.Name); d != "." && !seen[d+"/"]; d = path.Dir(d) {
			seen[d+"/"] = true
			all = append(all, Entry{Name: d + "/", Mode: os.ModeDir | 0o755})
		}
		all = append(all, e)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// WriteTarGz writes entries under top/ as a reproducible .tar.gz at dst.
func WriteTarGz(dst, top string, entries []Entry, mtime time.Time) error {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	all := prefixed(top, entries) // sorted adds top/ and every other directory
	for _, e := range sorted(all) {
		if err := writeTarEntry(tw, e, mtime.UTC()); err != nil {
			return fmt.Errorf("%s: %s: %w", dst, e.Name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return atomicfile.WriteFile(dst, buf.Bytes(), 0o644)
}

func prefixed(top string, entries []Entry) []Entry {
	out := make([]Entry, len(entries))
	for i, e := range entries {
		e.Name = top + "/" + e.Name
		out[i] = e
	}
	return out
}

func writeTarEntry(tw *tar.Writer, e Entry, mtime time.Time) error {
	h := &tar.Header{Name: e.Name, ModTime: mtime, Mode: int64(e.Mode.Perm()), Format: tar.FormatPAX, Uname: "root", Gname: "root"}
	var data []byte
	switch {
	case e.Mode.IsDir():
		h.Typeflag = tar.TypeDir
	case e.Link != "":
		h.Typeflag, h.Linkname, h.Mode = tar.TypeSymlink, e.Link, 0o777
	default:
		var err error
		if data, err = e.content(); err != nil {
			return err
		}
		h.Typeflag, h.Size = tar.TypeReg, int64(len(data))
	}
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	_, err := tw.Write(data)
	return err
}

// WriteZip writes entries under top/ as a reproducible .zip at dst.
func WriteZip(dst, top string, entries []Entry, mtime time.Time) error {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	all := prefixed(top, entries) // sorted adds top/ and every other directory
	for _, e := range sorted(all) {
		if e.Link != "" {
			return fmt.Errorf("%s: %s: a zip archive holds no symbolic links", dst, e.Name)
		}
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate, Modified: mtime.UTC()}
		h.SetMode(e.Mode)
		if e.Mode.IsDir() {
			h.Method = zip.Store
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if e.Mode.IsDir() {
			continue
		}
		data, err := e.content()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", dst, e.Name, err)
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return atomicfile.WriteFile(dst, buf.Bytes(), 0o644)
}

// Gzip is data compressed reproducibly (no name, no time in the header).
func Gzip(data []byte) []byte {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = gz.Write(data)
	_ = gz.Close()
	return buf.Bytes()
}
