package release

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/atomicfile"
)

// Target is one platform of the release.
type Target struct{ OS, Arch string }

func (t Target) String() string { return t.OS + "/" + t.Arch }

// AllTargets are the platforms `make release` builds. Linux's devenv-nvml uses cgo
// (NVML, found at run time); macOS and Windows read GPUs through the engine.
var AllTargets = []Target{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}}

// ParseTargets reads "linux/amd64,darwin/arm64" ("all": AllTargets).
func ParseTargets(s string) ([]Target, error) {
	if s == "" || s == "all" {
		return AllTargets, nil
	}
	var ts []Target
	for _, p := range strings.Split(s, ",") {
		os, arch, ok := strings.Cut(strings.TrimSpace(p), "/")
		if !ok || os == "" || arch == "" {
			return nil, fmt.Errorf("target %q: want OS/ARCH, e.g. linux/amd64", p)
		}
		ts = append(ts, Target{os, arch})
	}
	return ts, nil
}

// Options say what to release and where.
type Options struct {
	Root    string // the module root
	Out     string // the dist directory (emptied first)
	Version string // v1.2.3 or v0.0.0-snapshot.abc1234
	Commit  string
	Dirty   bool
	Epoch   int64 // SOURCE_DATE_EPOCH: every file time, the build date
	Targets []Target
	Tools   string // directory holding nfpm, cyclonedx-gomod and minisign
	Key     string // minisign secret key (unencrypted); "": a throwaway key for a snapshot
	Log     func(format string, args ...any)
}

// Result lists what the release wrote.
type Result struct {
	Archives  []Published
	Packages  []string
	Checksums string // path of checksums.txt
	PublicKey string // path of the minisign public key that verifies the signatures
}

// Run makes the release into o.Out.
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	var err error
	if o.Tools, err = filepath.Abs(o.Tools); err != nil {
		return nil, err
	}
	if o.Out, err = filepath.Abs(o.Out); err != nil {
		return nil, err
	}
	if err = os.RemoveAll(o.Out); err != nil {
		return nil, err
	}
	build := filepath.Join(o.Out, "build")
	if err := os.MkdirAll(build, 0o755); err != nil {
		return nil, err
	}
	mtime := time.Unix(o.Epoch, 0).UTC()
	extras, err := o.extras(ctx, build)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	var released []string
	for _, t := range o.Targets {
		a, pkgs, err := o.target(ctx, t, build, extras, mtime)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t, err)
		}
		res.Archives = append(res.Archives, a)
		res.Packages = append(res.Packages, pkgs...)
		released = append(released, filepath.Join(o.Out, a.Name), filepath.Join(o.Out, sbomName(a.Name, "")))
		if t.OS == "linux" {
			released = append(released, filepath.Join(o.Out, sbomName(a.Name, "nvml.")))
		}
		released = append(released, pkgs...)
	}
	for name, make := range map[string]func(string, string, []Published) (string, error){"devenv.rb": Formula, "devenv.json": Scoop} {
		text, err := make(o.Version, strings.TrimPrefix(o.Version, "v"), res.Archives)
		if err != nil {
			o.Log("%s: not written: %v", name, err)
			continue
		}
		p := filepath.Join(o.Out, name)
		if err := atomicfile.WriteFile(p, []byte(text), 0o644); err != nil {
			return nil, err
		}
		released = append(released, p)
	}
	sums, _, err := Checksums(released)
	if err != nil {
		return nil, err
	}
	res.Checksums = filepath.Join(o.Out, "checksums.txt")
	if err := atomicfile.WriteFile(res.Checksums, []byte(sums), 0o644); err != nil {
		return nil, err
	}
	res.PublicKey, err = o.sign(ctx, append([]string{res.Checksums}, released...))
	return res, err
}

// extras are the platform-independent files of every archive, made by
// running this machine's build of devenv-core: completions and the man
// page come from the CLI's own help.
type extras struct {
	files map[string][]byte // archive name -> content
}

func (o Options) extras(ctx context.Context, build string) (extras, error) {
	host := Target{runtime.GOOS, runtime.GOARCH}
	dir := filepath.Join(build, "host")
	if err := o.goBuild(ctx, host, dir); err != nil {
		return extras{}, err
	}
	core := filepath.Join(dir, "devenv-core")
	run := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, core, args...)
		cmd.Env = append(os.Environ(), "HOME="+build, "DOCKER_CONFIG="+filepath.Join(build, "docker"))
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("devenv-core %s: %w", strings.Join(args, " "), err)
		}
		return out, nil
	}
	e := extras{files: map[string][]byte{}}
	for shell, name := range map[string]string{"bash": "completions/devenv.bash", "zsh": "completions/_devenv", "fish": "completions/devenv.fish"} {
		b, err := run("completion", shell)
		if err != nil {
			return extras{}, err
		}
		e.files[name] = b
	}
	man, err := run("man")
	if err != nil {
		return extras{}, err
	}
	e.files["man/devenv.1"] = man
	for _, doc := range []string{"README.md", "LICENSE"} {
		b, err := os.ReadFile(filepath.Join(o.Root, doc))
		if os.IsNotExist(err) && doc == "LICENSE" {
			continue // the repository states no licence yet
		}
		if err != nil {
			return extras{}, err
		}
		e.files[doc] = b
	}
	return e, nil
}

// target builds one platform's programs, its archive, SBOM and packages.
func (o Options) target(ctx context.Context, t Target, build string, ex extras, mtime time.Time) (Published, []string, error) {
	dir := filepath.Join(build, t.OS+"_"+t.Arch)
	o.Log("building %s", t)
	if err := o.goBuild(ctx, t, dir); err != nil {
		return Published{}, nil, err
	}
	exe := exeSuffix(t)
	var entries []Entry
	for _, p := range programs(t) {
		if t.OS == "linux" {
			if err := CheckGlibc(filepath.Join(dir, p), GlibcFloor); err != nil {
				return Published{}, nil, err
			}
		}
		entries = append(entries, Entry{Name: p + exe, Mode: 0o755, Src: filepath.Join(dir, p+exe)})
	}
	for name, data := range ex.files {
		entries = append(entries, Entry{Name: name, Mode: 0o644, Data: data})
		if err := writeStaged(dir, name, data); err != nil {
			return Published{}, nil, err
		}
	}
	if err := writeStaged(dir, "man/devenv.1.gz", Gzip(ex.files["man/devenv.1"])); err != nil {
		return Published{}, nil, err
	}
	v := strings.TrimPrefix(o.Version, "v")
	top := fmt.Sprintf("devenv_%s_%s_%s", v, t.OS, t.Arch)
	name := top + ".tar.gz"
	write := WriteTarGz
	if t.OS == "windows" {
		name, write = top+".zip", WriteZip
	}
	if err := write(filepath.Join(o.Out, name), top, entries, mtime); err != nil {
		return Published{}, nil, err
	}
	if err := o.sbom(ctx, t, "cmd/devenv-core", filepath.Join(o.Out, sbomName(name, ""))); err != nil {
		return Published{}, nil, err
	}
	if t.OS == "linux" { // devenv-nvml's own modules (go-nvml): its SBOM beside the archive's
		if err := o.sbom(ctx, t, "cmd/devenv-nvml", filepath.Join(o.Out, sbomName(name, "nvml."))); err != nil {
			return Published{}, nil, err
		}
	}
	sum, err := FileSHA256(filepath.Join(o.Out, name))
	if err != nil {
		return Published{}, nil, err
	}
	a := Published{Target: t, Name: name, SHA256: sum}
	if t.OS != "linux" {
		return a, nil, nil
	}
	pkgs, err := o.packages(ctx, t, dir, build)
	return a, pkgs, err
}

// sbomName is the SBOM of archive's programs (of one program: program
// "nvml.").
func sbomName(archive, program string) string {
	return strings.TrimSuffix(strings.TrimSuffix(archive, ".zip"), ".tar.gz") + "." + program + "sbom.cdx.json"
}

func writeStaged(dir, name string, data []byte) error {
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// ldflags link what `devenv version` reports; -buildid= and -trimpath
// keep the binaries a function of the sources.
func (o Options) ldflags() string {
	pkg := "github.com/devenv-dev/devenv/internal/buildinfo"
	date := time.Unix(o.Epoch, 0).UTC().Format(time.RFC3339)
	return fmt.Sprintf("-s -w -buildid= -X %s.version=%s -X %s.commit=%s -X %s.buildDate=%s -X %s.dirty=%t",
		pkg, o.Version, pkg, o.Commit, pkg, date, pkg, o.Dirty)
}

// programs are t's programs: devenv and devenv-core, and on Linux
// devenv-nvml, which reads NVML for devenv-core (internal/gpu, HelperName).
func programs(t Target) []string {
	if t.OS == "linux" {
		return []string{"devenv", "devenv-core", "devenv-nvml"}
	}
	return []string{"devenv", "devenv-core"}
}

// goBuild builds t's programs into dir: devenv and devenv-core in one go
// build without cgo (a cgo program starts slower and maps more, on every
// command), and on Linux devenv-nvml with it (buildEnv).
func (o Options) goBuild(ctx context.Context, t Target, dir string) error {
	if err := o.goBuildIn(ctx, programEnv(t), dir, "./cmd/devenv", "./cmd/devenv-core"); err != nil {
		return err
	}
	if t.OS != "linux" {
		return nil
	}
	env, err := buildEnv(t)
	if err != nil {
		return err
	}
	return o.goBuildIn(ctx, env, dir, "./cmd/devenv-nvml")
}

// goBuildIn runs go build of pkgs into dir with env.
func (o Options) goBuildIn(ctx context.Context, env []string, dir string, pkgs ...string) error {
	args := append([]string{"build", "-trimpath", "-ldflags", o.ldflags(), "-o", dir + string(os.PathSeparator)}, pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = o.Root
	cmd.Env = append(os.Environ(), env...)
	return runCmd(cmd)
}

// programEnv is the build environment of t's programs without cgo (all
// but devenv-nvml).
func programEnv(t Target) []string {
	return []string{"GOOS=" + t.OS, "GOARCH=" + t.Arch, "GOFLAGS=-buildvcs=false", "CGO_ENABLED=0"}
}

func exeSuffix(t Target) string {
	if t.OS == "windows" {
		return ".exe"
	}
	return ""
}

// buildEnv is the environment of t's build: cgo for Linux (the host's C
// compiler, or aarch64-linux-gnu-gcc for linux/arm64 from amd64), none
// elsewhere.
func buildEnv(t Target) ([]string, error) {
	env := []string{"GOOS=" + t.OS, "GOARCH=" + t.Arch, "GOFLAGS=-buildvcs=false", "CGO_CFLAGS=-Wno-deprecated-declarations"}
	if t.OS != "linux" {
		return append(env, "CGO_ENABLED=0"), nil
	}
	env = append(env, "CGO_ENABLED=1")
	if runtime.GOOS == "linux" && runtime.GOARCH == t.Arch {
		return env, nil
	}
	cc := map[string]string{"arm64": "aarch64-linux-gnu-gcc", "amd64": "x86_64-linux-gnu-gcc"}[t.Arch]
	if _, err := exec.LookPath(cc); cc == "" || err != nil {
		return nil, fmt.Errorf("the %s programs use cgo (NVML) and need the C cross compiler %q: apt-get install gcc-%s", t, cc, strings.TrimSuffix(cc, "-gcc"))
	}
	return append(env, "CC="+cc), nil
}

// sbom writes the CycloneDX SBOM of the program main for t (devenv-core's
// module graph: the front's modules are a subset; devenv-nvml's on Linux),
// licences included.
func (o Options) sbom(ctx context.Context, t Target, main, dst string) error {
	env := programEnv(t)
	if main == "cmd/devenv-nvml" {
		var err error
		if env, err = buildEnv(t); err != nil {
			return err
		}
	}
	dir, err := o.gitCheckout(ctx)
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(dst)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, filepath.Join(o.Tools, "cyclonedx-gomod"), "app", "-json", "-licenses", "-noserial", "-notimestamp",
		"-main", main, "-output", abs, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return runCmd(cmd)
}

// gitCheckout is a directory with the module and a .git directory for
// cyclonedx-gomod, whose git library cannot open a `git worktree`
// checkout (.git is a file there): the root itself, else a clone
// of the commit next to the build outputs (a plain local clone: its git
// library does not follow --shared alternates).
func (o Options) gitCheckout(ctx context.Context) (string, error) {
	if fi, err := os.Stat(filepath.Join(o.Root, ".git")); err == nil && fi.IsDir() {
		return o.Root, nil
	}
	dir := filepath.Join(o.Out, "build", "sbom-checkout")
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	if err := runCmd(exec.CommandContext(ctx, "git", "clone", "--quiet", "--no-checkout", o.Root, dir)); err != nil {
		return "", err
	}
	return dir, runCmd(exec.CommandContext(ctx, "git", "-C", dir, "checkout", "--quiet", "--detach", o.Commit))
}

// packages makes the .deb and .rpm of a Linux target with nfpm.
func (o Options) packages(ctx context.Context, t Target, dir, build string) ([]string, error) {
	cfg, err := NfpmConfig(t.Arch, o.Version, dir)
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(build, "nfpm-"+t.Arch+".yaml")
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		return nil, err
	}
	v := strings.TrimPrefix(o.Version, "v")
	rpmArch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[t.Arch]
	var out []string
	for _, p := range []struct{ packager, name string }{
		{"deb", fmt.Sprintf("devenv_%s_%s.deb", v, t.Arch)},
		{"rpm", fmt.Sprintf("devenv-%s.%s.rpm", v, rpmArch)},
	} {
		dst := filepath.Join(o.Out, p.name)
		cmd := exec.CommandContext(ctx, filepath.Join(o.Tools, "nfpm"), "package", "-f", cfgPath, "-p", p.packager, "-t", dst)
		cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+strconv.FormatInt(o.Epoch, 10))
		if err := runCmd(cmd); err != nil {
			return nil, err
		}
		out = append(out, dst)
	}
	return out, nil
}

// sign writes a minisign signature (NAME.minisig) next to every file; with
// no key it makes a throwaway one (snapshot) and leaves its public half in
// the dist directory. It returns the public key's path.
func (o Options) sign(ctx context.Context, files []string) (string, error) {
	minisign := filepath.Join(o.Tools, "minisign")
	key, pub := o.Key, filepath.Join(o.Out, "minisign.pub")
	if key == "" {
		tmp, err := os.MkdirTemp("", "devenv-release-key-")
		if err != nil {
			return "", err
		}
		defer func() { _ = os.RemoveAll(tmp) }()
		key = filepath.Join(tmp, "snapshot.key")
		if err := runCmd(exec.CommandContext(ctx, minisign, "-G", "-W", "-s", key, "-p", pub)); err != nil {
			return "", err
		}
	} else if err := runCmd(exec.CommandContext(ctx, minisign, "-R", "-s", key, "-p", pub)); err != nil {
		return "", err
	}
	for _, f := range files {
		trusted := fmt.Sprintf("devenv %s %s", o.Version, filepath.Base(f))
		if err := runCmd(exec.CommandContext(ctx, minisign, "-S", "-s", key, "-m", f, "-t", trusted)); err != nil {
			return "", err
		}
	}
	return pub, nil
}

func runCmd(cmd *exec.Cmd) error {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("`%s` failed: %w\n%s", strings.Join(cmd.Args, " "), err, lastLines(out.String(), 30))
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
