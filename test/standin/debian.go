package standin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/filelock"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/jsonmessage"
)

// DebianRef is the engine reference of the Debian base image stand-in.
const DebianRef = "devenv-standin/debian:bookworm"

const (
	debianSuite   = "bookworm"
	debianTarball = "debian-bookworm-minbase.tar"
	debianLock    = "debian-bookworm.lock"
)

// Debian makes sure the engine holds DebianRef, a minimal Debian bookworm
// (debootstrap --variant=minbase --include=ca-certificates) with
// CMD ["/bin/bash"], and returns that reference. The root file system
// tarball is kept in CacheDir, and nothing is done when the engine already
// has the image, so only the first run pays for debootstrap (about 40 s).
// Concurrent callers, in this or other processes, are serialised with a file
// lock. It fails the test when debootstrap is missing or fails.
func Debian(t testing.TB) string {
	t.Helper()
	ref, err := DebianImage(t.Context(), Docker(t), CacheDir(t), t.Logf)
	if err != nil {
		t.Fatalf("standin: %v", err)
	}
	return ref
}

// DebianImage is Debian for a program: the engine cli, the cache directory
// (CacheDirectory), where its progress goes (logf) and the error are its
// caller's.
func DebianImage(ctx context.Context, cli *client.Client, dir string, logf func(format string, args ...any)) (string, error) {
	if imageExists(ctx, cli, DebianRef) {
		return DebianRef, nil
	}
	lock, err := filelock.Acquire(ctx, filepath.Join(dir, debianLock), filelock.Options{Command: "devenv e2e: debootstrap the Debian stand-in"})
	if err != nil {
		return "", err
	}
	defer func() { _ = lock.Release() }()
	if imageExists(ctx, cli, DebianRef) { // another process imported it while we waited
		return DebianRef, nil
	}
	tarPath := filepath.Join(dir, debianTarball)
	if _, err := os.Stat(tarPath); err != nil {
		start := time.Now()
		logf("standin: no %s in the engine nor %s: debootstrap %s (needs deb.debian.org or its mirror; a minute or more)", DebianRef, tarPath, debianSuite)
		if err := buildDebianTarball(ctx, dir, tarPath); err != nil {
			return "", err
		}
		logf("standin: debootstrap %s and tar into %s took %s", debianSuite, tarPath, time.Since(start).Round(time.Millisecond))
	}
	start := time.Now()
	if err := importTarball(ctx, cli, tarPath, DebianRef); err != nil {
		return "", err
	}
	logf("standin: importing %s as %s took %s", tarPath, DebianRef, time.Since(start).Round(time.Millisecond))
	return DebianRef, nil
}

func imageExists(ctx context.Context, cli *client.Client, ref string) bool {
	_, err := cli.ImageInspect(ctx, ref)
	return err == nil
}

// buildDebianTarball runs debootstrap into a scratch directory next to
// tarPath, tars the result and renames it into place, so that an interrupted
// run never leaves a half-written tarball that later runs would trust.
func buildDebianTarball(ctx context.Context, dir, tarPath string) error {
	return buildSuiteTarball(ctx, dir, tarPath, debianSuite, "ca-certificates")
}

// buildSuiteTarball is buildDebianTarball for any Debian suite and
// comma-separated list of extra packages.
func buildSuiteTarball(ctx context.Context, dir, tarPath, suite, include string) error {
	debootstrap, err := findDebootstrap()
	if err != nil {
		return err
	}
	if os.Geteuid() != 0 {
		return errorf("debootstrap must run as root to build the Debian stand-in; run the end-to-end tests (or make demo) as root, as CI does, or load an apt-based image such as debian:bookworm into the engine for make demo")
	}
	scratch, err := os.MkdirTemp(dir, "debootstrap-")
	if err != nil {
		return errorf("cannot create a scratch directory in %s: %v", dir, err)
	}
	defer removeRootfs(scratch)
	rootfs := filepath.Join(scratch, "rootfs")
	ctx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	if err := runTool(ctx, debootstrap, "--variant=minbase", "--include="+include, suite, rootfs); err != nil {
		return errorf("%v\nThe debootstrap log is %s/debootstrap/debootstrap.log (kept only while the scratch directory exists); check that deb.debian.org is reachable", err, rootfs)
	}
	tmp := tarPath + ".tmp"
	if err := runTool(ctx, "tar", "--numeric-owner", "-C", rootfs, "-cf", tmp, "."); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, tarPath); err != nil {
		_ = os.Remove(tmp)
		return errorf("cannot move %s into place: %v", tmp, err)
	}
	return nil
}

func findDebootstrap() (string, error) {
	if p, err := exec.LookPath("debootstrap"); err == nil {
		return p, nil
	}
	for _, p := range []string{"/usr/sbin/debootstrap", "/sbin/debootstrap"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errorf("debootstrap is not installed; the Debian base image stand-in is built with it: run `apt-get install debootstrap` (the CI script does)")
}

// runTool runs a command and, when it fails, returns an error holding the
// command line and the end of its output.
func runTool(ctx context.Context, name string, args ...string) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return errorf("`%s %s` failed: %v\n%s", name, strings.Join(args, " "), err, lastLines(out.String(), 20))
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// importTarball imports a root file system tarball into the engine as ref,
// with CMD ["/bin/bash"].
func importTarball(ctx context.Context, cli *client.Client, tarPath, ref string) error {
	f, err := os.Open(tarPath)
	if err != nil {
		return errorf("cannot open %s: %v", tarPath, err)
	}
	defer func() { _ = f.Close() }()
	rc, err := cli.ImageImport(ctx, image.ImportSource{Source: f, SourceName: "-"}, ref,
		image.ImportOptions{Changes: []string{`CMD ["/bin/bash"]`}, Message: "devenv test stand-in"})
	if err != nil {
		return errorf("the engine refused to import %s as %s: %v", tarPath, ref, err)
	}
	defer func() { _ = rc.Close() }()
	if err := jsonmessage.DisplayJSONMessagesStream(rc, &bytes.Buffer{}, 0, false, nil); err != nil {
		return errorf("importing %s as %s failed: %v; delete the tarball to rebuild it if it is damaged", tarPath, ref, err)
	}
	if !imageExists(ctx, cli, ref) {
		return errorf("the engine reported no error importing %s, yet has no image %s", tarPath, ref)
	}
	return nil
}

// DebianSuite is a minimal Debian suite (bookworm, trixie) with the extra
// packages (comma-separated) imported as ref, debootstrapped once and
// cached in CacheDir like Debian's.
func DebianSuite(t testing.TB, suite, include string) string {
	t.Helper()
	ref, err := DebianSuiteImage(t.Context(), Docker(t), CacheDir(t), suite, include, t.Logf)
	if err != nil {
		t.Fatalf("standin: %v", err)
	}
	return ref
}

// DebianSuiteImage is DebianSuite for a program (test/standin/cmd/standin-prepare).
func DebianSuiteImage(ctx context.Context, cli *client.Client, dir, suite, include string, logf func(format string, args ...any)) (string, error) {
	ref := "devenv-standin/debian-" + suite + ":" + shortHash(include)
	if imageExists(ctx, cli, ref) {
		return ref, nil
	}
	// Its own lock, not the base's (debianLock): the base, which nearly
	// every test waits for, is not held up by a debootstrap of this one.
	lock, err := filelock.Acquire(ctx, filepath.Join(dir, "debian-"+suite+"-"+shortHash(include)+".lock"), filelock.Options{Command: "devenv e2e: debootstrap " + suite})
	if err != nil {
		return "", err
	}
	defer func() { _ = lock.Release() }()
	if imageExists(ctx, cli, ref) {
		return ref, nil
	}
	tarPath := filepath.Join(dir, "debian-"+suite+"-"+shortHash(include)+".tar")
	if _, err := os.Stat(tarPath); err != nil {
		start := time.Now()
		if err := buildSuiteTarball(ctx, dir, tarPath, suite, include); err != nil {
			return "", err
		}
		logf("standin: debootstrap %s (+%s) took %s", suite, include, time.Since(start).Round(time.Millisecond))
	}
	return ref, importTarball(ctx, cli, tarPath, ref)
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

// InstallSuites are the Debian releases the install test installs the
// release's .deb and archive on, with InstallPackages: what the install
// script runs (completions in three shells, a second user).
var InstallSuites = []string{"bookworm", "trixie"}

// InstallPackages are the install suites' extra packages.
const InstallPackages = "ca-certificates,bash-completion,zsh,fish,passwd,login"
