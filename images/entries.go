package images

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/go-multierror"

	"github.com/devenv-dev/devenv/internal/cafile"
	"github.com/devenv-dev/devenv/internal/pipreq"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// entry is one file of a build context.
type entry struct {
	name   string // slash-separated path inside the context
	typ    byte   // tar.TypeReg, tar.TypeDir or tar.TypeSymlink
	mode   int64  // permission bits, normalized (0644, 0755)
	link   string // symlink target
	data   []byte // content held in memory, or
	path   string // a local file streamed into the context
	size   int64  // of a local file: the bytes of it that are sent
	sha256 string // declared content digest (artifacts); computed when empty
	// check: sha256 is what the file's size bytes were when the image's
	// tag was computed (Seal), and the bytes sent must be those.
	check bool
}

// digest returns the entry's content sha256, reading its file when needed:
// of a local file, the size bytes that are sent.
func (e entry) digest() (string, error) {
	if e.sha256 != "" {
		return e.sha256, nil
	}
	if e.path == "" {
		sum := sha256.Sum256(e.data)
		return hex.EncodeToString(sum[:]), nil
	}
	f, err := os.Open(e.path)
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.CopyN(h, f, e.size); err != nil {
		return "", fmt.Errorf("reading %s: %w (did the file change while devenv read it?)", e.path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fileMode normalizes permission bits the way git does: executable or not.
func fileMode(m os.FileMode) int64 {
	if m&0o111 != 0 {
		return 0o755
	}
	return 0o644
}

// generatedEntries lists the declared inputs of a template-built image, with
// the rendered Dockerfile first. Artifacts are not among them: the
// Dockerfile copies them from their artifact images (artifact.go).
func generatedEntries(in Input, r *recipe, dockerfile []byte) ([]entry, error) {
	var errs *multierror.Error
	out := []entry{{name: dockerfileName, typ: tar.TypeReg, mode: 0o644, data: dockerfile}}
	for name, data := range in.Extra {
		mode := int64(0o644)
		if bytes.HasPrefix(data, []byte("#!")) {
			mode = 0o755
		}
		out = append(out, entry{name: extraDir + "/" + name, typ: tar.TypeReg, mode: mode, data: data})
	}
	if in.RequirementsPath != "" {
		in.Reads.File(projectPath(in, in.RequirementsPath))
		data, err := safefile.ReadFile(projectPath(in, in.RequirementsPath), safefile.MaxConfig)
		if err != nil {
			errs = multierror.Append(errs, fmt.Errorf("service %q: requirements file: %w; fix requirements: in devenv.yaml", in.Service, err))
		}
		for _, p := range pipreq.Check(string(data)) { // as at load: the build installs from mirrors.pypi only
			errs = multierror.Append(errs, fmt.Errorf("service %q: %s:%s", in.Service, in.RequirementsPath, redactURLs(p)))
		}
		out = append(out, entry{name: requirementsName, typ: tar.TypeReg, mode: 0o644, data: data})
	}
	for i, c := range in.Resolved.CACerts {
		in.Reads.File(projectPath(in, c))
		data, err := readCert(projectPath(in, c))
		if err != nil {
			errs = multierror.Append(errs, fmt.Errorf("service %q: CA certificate: %w", in.Service, err))
		}
		out = append(out, entry{name: certDir + "/" + r.Certs[i], typ: tar.TypeReg, mode: 0o644, data: data})
	}
	sort.Slice(out[1:], func(i, j int) bool { return out[1+i].name < out[1+j].name })
	return out, errs.ErrorOrNil()
}

// fileSize is the size of a local file, which must be a regular file.
func fileSize(path string) (int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is not a regular file", path)
	}
	return st.Size(), nil
}

// projectPath resolves a project-relative path.
func projectPath(in Input, p string) string {
	if filepath.IsAbs(p) || in.ProjectDir == "" {
		return p
	}
	return filepath.Join(in.ProjectDir, filepath.FromSlash(p))
}

// readCert reads a CA certificate and checks that it is PEM, which
// update-ca-certificates requires.
func readCert(path string) ([]byte, error) {
	data, err := safefile.ReadFile(path, safefile.MaxConfig)
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(data, []byte("-----BEGIN CERTIFICATE-----")) {
		return nil, fmt.Errorf("%s is not a PEM certificate; convert it with `openssl x509 -inform der -in %s -out cert.pem`", path, path)
	}
	if err := cafile.Check(path, data); err != nil {
		return nil, err
	}
	return data, nil
}

// writeTar writes entries as a tar stream with fixed owners and times, so
// the same inputs always give the same bytes.
func writeTar(w io.Writer, entries []entry) error {
	tw := tar.NewWriter(w)
	for _, e := range entries {
		if err := writeEntry(tw, e); err != nil {
			return err
		}
	}
	return tw.Close()
}

func writeEntry(tw *tar.Writer, e entry) error {
	hdr := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: e.mode, Linkname: e.link, Format: tar.FormatPAX}
	switch {
	case e.typ == tar.TypeDir:
		hdr.Name += "/"
	case e.typ == tar.TypeReg && e.path == "":
		hdr.Size = int64(len(e.data))
	case e.typ == tar.TypeReg:
		hdr.Size = e.size
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("writing %s to the build context: %w", e.name, err)
	}
	if e.typ != tar.TypeReg {
		return nil
	}
	if e.path == "" {
		_, err := tw.Write(e.data)
		return err
	}
	return copyFile(tw, e)
}

// copyFile sends e's size bytes; for an entry to check, they must be the
// bytes its digest was computed from.
func copyFile(w io.Writer, e entry) error {
	f, err := os.Open(e.path)
	if err != nil {
		return fmt.Errorf("build context: %w", err)
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if e.check {
		w = io.MultiWriter(w, h)
	}
	if _, err := io.CopyN(w, f, e.size); err != nil {
		return fmt.Errorf("build context: copying %s: %w (did the file change during the build?)", e.path, err)
	}
	if e.check && hex.EncodeToString(h.Sum(nil)) != e.sha256 {
		return &ChangedError{Path: e.path}
	}
	return nil
}

// ChangedError is a file of a build context that changed after the
// image's tag was computed from it, while devenv sent it: the engine got
// other bytes than the tag names, so the build is stopped.
type ChangedError struct{ Path string }

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s changed after devenv computed the image's tag from it, while the build context was sent: "+
		"run the command again; a file that is rewritten while devenv runs (a cache, a database) belongs in .dockerignore", e.Path)
}
