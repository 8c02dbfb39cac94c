package standin

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"time"
)

// archiveTime is the modification time of every generated entry, so that the
// same options always produce byte-identical artifacts (stable sha256s).
var archiveTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// entry is one file of a generated archive. A name ending in "/" is a
// directory.
type entry struct {
	Name string
	Mode int64
	Body string
}

// tgz writes entries as a gzip-compressed tar with fixed owners and times.
func tgz(entries []entry) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf) // a zero header: no name, no time
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		hdr := &tar.Header{Name: e.Name, Mode: e.Mode, ModTime: archiveTime, Uname: "root", Gname: "root", Format: tar.FormatUSTAR}
		if e.Name[len(e.Name)-1] == '/' {
			hdr.Typeflag = tar.TypeDir
		} else {
			hdr.Typeflag = tar.TypeReg
			hdr.Size = int64(len(e.Body))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, errorf("tar entry %s: %v", e.Name, err)
		}
		if _, err := tw.Write([]byte(e.Body)); err != nil {
			return nil, errorf("tar entry %s: %v", e.Name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// zipFile writes entries as a zip (a jar when it holds META-INF/MANIFEST.MF).
func zipFile(entries []entry) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		fh := &zip.FileHeader{Name: e.Name, Method: zip.Deflate, Modified: archiveTime}
		fh.SetMode(0o644)
		w, err := zw.CreateHeader(fh)
		if err != nil {
			return nil, errorf("zip entry %s: %v", e.Name, err)
		}
		if _, err := w.Write([]byte(e.Body)); err != nil {
			return nil, errorf("zip entry %s: %v", e.Name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// jar is a small valid jar: a manifest plus the given entries.
func jar(title, version string, extra ...entry) ([]byte, error) {
	manifest := "Manifest-Version: 1.0\r\n" +
		"Implementation-Title: " + title + "\r\n" +
		"Implementation-Version: " + version + "\r\n" +
		"Created-By: devenv test stand-in\r\n\r\n"
	return zipFile(append([]entry{{Name: "META-INF/MANIFEST.MF", Body: manifest}}, extra...))
}
