package images

import (
	"archive/tar"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"sort"
	"strconv"
	"strings"
)

// hashVersion changes whenever the hashing scheme does, so old images are
// not mistaken for new ones.
const hashVersion = "devenv-images-hash/v2"

// Hash returns the content hash (64 hex digits) of every input of the
// service's image: the template text, the base digest, the artifacts'
// sha256s, the generated files, the requirements file, the custom apt, pip,
// env and CA certificates, the Jupyter flag, and for a user's Dockerfile its
// whole filtered context. It does not depend on map order, file times, where
// the files lie, or which mirror serves the base image, PyPI or apt, so it is the
// same on every machine. It reads the inputs now; Seal keeps what it read.
func Hash(in Input) (string, error) {
	s, err := seal(in)
	if err != nil {
		return "", err
	}
	return s.hash, nil
}

func seal(in Input) (*sealed, error) {
	h := newHasher()
	h.field("version", hashVersion)
	h.field("profile", in.Resolved.Profile)
	h.field("base", baseDigest(in.Base))
	if !in.needsBuild() {
		return &sealed{hash: h.sum()}, nil
	}
	if in.userBuild() {
		return sealUserContext(h, in)
	}
	return sealGenerated(h, in)
}

// sealUserContext hashes a user's context, keeping each file's digest of
// the bytes that will be sent (its size when listed) in its entry.
func sealUserContext(h *hasher, in Input) (*sealed, error) {
	entries, err := userEntries(in)
	if err != nil {
		return nil, err
	}
	for i, e := range entries {
		if e.typ != tar.TypeReg || e.path == "" {
			continue
		}
		d, err := e.digest()
		if err != nil {
			return nil, fmt.Errorf("build context: %w", err)
		}
		entries[i].sha256, entries[i].check = d, true
	}
	h.field("dockerfile", in.userDockerfileName())
	if err := h.entries(entries); err != nil {
		return nil, err
	}
	// only when set, so that the images of builds without them keep their tags
	if len(in.BuildArgs) > 0 {
		h.list("build-args", sortedEnv(in.BuildArgs))
	}
	if in.Target != "" {
		h.field("target", in.Target)
	}
	if len(in.Pins) > 0 {
		h.list("pins", pinList(in.Pins))
	}
	return &sealed{hash: h.sum(), entries: entries}, nil
}

// pinList is pins as sorted "image=digest": the digest, not the mirror
// that serves it, so the hash is the same behind any mirror.
func pinList(pins map[string]string) []string {
	out := make([]string, 0, len(pins))
	for img, ref := range pins {
		out = append(out, img+"="+baseDigest(ref))
	}
	sort.Strings(out)
	return out
}

// sealGenerated hashes a template build's inputs, keeping the files it
// read (all held in memory) but not the Dockerfile, which Build renders
// again with the mirrors.
func sealGenerated(h *hasher, in Input) (*sealed, error) {
	// The Dockerfile as rendered without mirror-specific values: what the
	// build is sent, not the template's text, so a template edit that
	// renders the same Dockerfile rebuilds and recreates nothing.
	canon := in
	canon.Base = baseDigest(in.Base)
	canon.PipIndexURL = ""
	canon.AptMirror = ""
	r, dockerfile, err := recipeFor(canon)
	if err != nil {
		return nil, err
	}
	h.field("dockerfile", string(dockerfile))
	h.list("apt", in.Resolved.Apt)
	h.list("pip", in.Resolved.Pip)
	h.list("env", sortedEnv(in.Resolved.Env))
	h.field("jupyter", strconv.FormatBool(in.Jupyter))
	if in.Jupyter {
		h.field("jupyterlab", in.JupyterLab)
	}
	arts := make([]string, 0, len(in.Files))
	for _, f := range in.Files {
		arts = append(arts, f.Name+"="+f.SHA256)
	}
	h.list("artifacts", arts)
	entries, err := generatedEntries(canon, r, dockerfile)
	if err != nil {
		return nil, err
	}
	if err := h.entries(entries[1:]); err != nil { // [0] is the Dockerfile, hashed above
		return nil, err
	}
	return &sealed{hash: h.sum(), entries: entries[1:]}, nil
}

// baseDigest returns the digest of a pinned reference ("sha256:..."), which
// does not change with the mirror it is pulled through; an unpinned
// reference is returned whole.
func baseDigest(ref string) string {
	if _, d, ok := strings.Cut(ref, "@"); ok {
		return d
	}
	return ref
}

func sortedEnv(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// hasher writes length-prefixed fields so that no two different inputs give
// the same byte stream.
type hasher struct{ h hash.Hash }

func newHasher() *hasher { return &hasher{h: sha256.New()} }

func (x *hasher) field(name, value string) {
	x.raw(name)
	x.raw(value)
}

func (x *hasher) raw(s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	x.h.Write(n[:])
	x.h.Write([]byte(s))
}

func (x *hasher) list(name string, values []string) {
	x.field(name, strconv.Itoa(len(values)))
	for _, v := range values {
		x.raw(v)
	}
}

// entries hashes each context entry's name, type, mode, link and content.
func (x *hasher) entries(entries []entry) error {
	x.field("entries", strconv.Itoa(len(entries)))
	for _, e := range entries {
		x.raw(e.name)
		x.raw(string(e.typ) + strconv.FormatInt(e.mode, 8) + e.link)
		if e.typ != tar.TypeReg {
			continue
		}
		d, err := e.digest()
		if err != nil {
			return err
		}
		x.raw(d)
	}
	return nil
}

func (x *hasher) sum() string { return hex.EncodeToString(x.h.Sum(nil)) }
