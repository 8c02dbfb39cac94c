package cli

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/fetch"
	"github.com/devenv-dev/devenv/internal/ui"
	"github.com/urfave/cli/v2"
)

// session is a loaded project with a connected engine.
type session struct {
	c     *cli.Context
	out   *ui.Printer
	proj  *spec.Project
	lock  *lock.File
	eng   engine.Engine
	info  engine.Info
	cache *fetch.Cache

	hostFacts *plan.Host // cached by host()
	gpuErr    error      // why NVML could not be read, if it could not
}

// openSession loads the project, connects to the engine and, when asked,
// makes sure the lock is fresh: with frozen a stale lock is refused (exit
// 5), otherwise it is relocked and the user told so.
func openSession(c *cli.Context, needLock, frozen bool) (*session, error) {
	p, err := loadProject(c)
	if err != nil {
		return nil, err
	}
	s := &session{c: c, out: printer(c), proj: p}
	if needLock { // up and build: their arguments are service names; check them before locking
		if err := checkServices(p, args(c)); err != nil {
			return nil, err
		}
		if s.lock, err = freshLock(c, p, frozen); err != nil {
			return nil, err
		}
	}
	if s.eng, err = connectEngine(c.Context); err != nil {
		return nil, err
	}
	if s.info, err = s.eng.Info(c.Context); err != nil {
		s.eng.Close()
		return nil, err
	}
	if s.cache, err = fetch.DefaultCache(); err != nil {
		s.eng.Close()
		return nil, err
	}
	return s, nil
}

func (s *session) close() {
	if s.eng != nil {
		s.eng.Close()
	}
}

func freshLock(c *cli.Context, p *spec.Project, frozen bool) (*lock.File, error) {
	lf, err := readLock(p)
	if err != nil {
		return nil, err
	}
	var why error = &lock.StaleError{Reasons: []string{"there is no devenv.lock"}}
	if lf != nil {
		why = lock.Check(p, lf)
	}
	if why == nil {
		return lf, nil
	}
	if frozen {
		return nil, why
	}
	printer(c).Say("devenv.lock is missing or stale; locking now (use --frozen to refuse instead)")
	nf, err := generateLock(c, p, lf)
	if err != nil {
		return nil, err
	}
	if _, err := lock.Write(lockPath(p), nf); err != nil {
		return nil, err
	}
	return nf, nil
}

func (s *session) stateDir() string { return filepath.Join(s.proj.Dir, ".devenv") }

func (s *session) runner() *reconcile.Runner {
	return &reconcile.Runner{Eng: s.eng, Out: s.out, Cache: s.cache, Mirrors: mirrorsOf(s.proj),
		StateDir: s.stateDir(), Lock: s.lock}
}

// host gathers the machine's facts: NVML when it loads, the engine's CPUs
// and memory, and whether the engine can give GPUs at all.
func (s *session) host() plan.Host {
	if s.hostFacts != nil {
		return *s.hostFacts
	}
	h := plan.Host{CPUs: s.info.NCPU, MemoryBytes: s.info.MemTotal, NoGPURuntime: noGPURuntime(s.info)}
	s.hostFacts = &h
	inv, err := openGPUs()
	if err != nil {
		s.gpuErr = err
		s.out.Debugf("NVML: %v", err)
		return h
	}
	defer inv.Close()
	if h.GPUs, err = inv.Host(s.c.Context); err != nil {
		s.gpuErr = err
		s.out.Debugf("NVML: %v", err)
	}
	return h
}

// noGPURuntime is true only when nothing suggests the engine can give GPUs
// (doctor's rule): docker info alone is a hint, never the verdict.
func noGPURuntime(info engine.Info) bool { return doctor.NoGPURuntime(info, doctor.LocalHost()) }

// plan makes the project's plan on this host.
func (s *session) plan() (*plan.Plan, error) {
	token, err := s.jupyterToken()
	if err != nil {
		return nil, err
	}
	return plan.Make(s.proj, s.lock, s.host(), plan.Options{Mirrors: mirrorsOf(s.proj), Token: token,
		StateDir: s.stateDir(), ArtifactPath: s.cache.Path})
}

// jupyterToken is the project's Jupyter token, made once and kept in
// .devenv/ (never in an image, the lock or a log).
func (s *session) jupyterToken() (string, error) {
	dir := s.stateDir()
	path := filepath.Join(dir, "jupyter-token")
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return strings.TrimSpace(string(b)), nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	_ = os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*\n"), 0o644)
	buf := make([]byte, 24)
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	tok := hex.EncodeToString(buf)
	if err := atomicfile.WriteFile(path, []byte(tok+"\n"), 0o600); err != nil {
		return "", err
	}
	return tok, nil
}

var errSilent = errors.New("")
