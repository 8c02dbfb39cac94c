package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/devenv-dev/devenv/envs/lock"
	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/gpu"
	"github.com/devenv-dev/devenv/profiles"
	"github.com/hashicorp/go-multierror"
	"github.com/urfave/cli/v2"
)

func configCommand() *cli.Command {
	return &cli.Command{
		Name:        "config",
		Usage:       "show the fully resolved configuration",
		ArgsUsage:   "[service...]",
		Action:      runConfig,
		Subcommands: []*cli.Command{configSparkCommand()},
	}
}

// serviceConfig is one service as devenv will run it.
type serviceConfig struct {
	Name     string            `json:"name"`
	Profile  string            `json:"profile"`
	Locked   bool              `json:"locked"`
	Resolved profiles.Resolved `json:"resolved"`
	Base     string            `json:"base,omitempty"`
	GPUs     spec.GPUs         `json:"gpus"`
	GPU      string            `json:"gpu"`
	Ports    []spec.Port       `json:"ports,omitempty"`
	Volumes  []spec.Volume     `json:"volumes,omitempty"`
	Env      map[string]string `json:"env,omitempty"`
	Conf     map[string]string `json:"conf,omitempty"`
	Depends  []string          `json:"depends_on,omitempty"`
	// From the plan (when devenv.lock is fresh):
	Image       string             `json:"image,omitempty"`
	GPURequest  *engine.GPURequest `json:"gpu_request,omitempty"`
	CPUFallback bool               `json:"cpu_fallback,omitempty"`
	Reason      string             `json:"reason,omitempty"`
	Spark       *plan.SparkInfo    `json:"spark,omitempty"`
}

type projectConfig struct {
	Name      string          `json:"name"`
	Dir       string          `json:"dir"`
	LockNote  string          `json:"lock,omitempty"`
	Services  []serviceConfig `json:"services"`
	Placement *gpu.Placement  `json:"placement,omitempty"` // which GPUs each service gets and how shared GPUs' memory is split
	Warnings  []string        `json:"warnings,omitempty"`
}

func runConfig(c *cli.Context) error {
	p, err := loadProject(c)
	if err != nil {
		return err
	}
	if err := checkServices(p, args(c)); err != nil {
		return err
	}
	lf, err := readLock(p)
	if err != nil {
		return err
	}
	driver, rule := resolutionDriver(c.Context)
	cfg, err := resolveConfig(p, lf, args(c), driver, rule)
	if err != nil {
		return err
	}
	if cfg.LockNote == "" && lf != nil {
		if err := addPlan(c, cfg, p, lf); err != nil {
			return err
		}
	}
	return printer(c).Result(cfg, func(w io.Writer) { printConfig(w, cfg) })
}

// addPlan adds what the plan decides on this machine: images, GPU requests,
// placement and memory split, CPU fallback, generated Spark confs.
func addPlan(c *cli.Context, cfg *projectConfig, p *spec.Project, lf *lock.File) error {
	pl, err := plan.Make(p, lf, offlineHost(c), plan.Options{Mirrors: mirrorsOf(p), StateDir: filepath.Join(p.Dir, ".devenv")})
	if err != nil {
		return err
	}
	cfg.Placement, cfg.Warnings = pl.Placement, pl.Warnings
	for i := range cfg.Services {
		sc := &cfg.Services[i]
		if ps := pl.Service(sc.Name); ps != nil {
			sc.Image, sc.GPURequest, sc.CPUFallback, sc.Reason, sc.Spark = ps.Image, ps.Container.GPU, ps.CPUFallback, ps.Reason, ps.Spark
		}
	}
	return nil
}

// resolveConfig resolves each service as devenv lock would on this machine
// (for driver, by rule), then shows the locked versions where the lock is fresh.
func resolveConfig(p *spec.Project, lf *lock.File, only []string, driver, rule string) (*projectConfig, error) {
	cfg := &projectConfig{Name: p.Name, Dir: p.Dir}
	switch {
	case lf == nil:
		cfg.LockNote = "no devenv.lock: versions below are resolved now and not pinned; run devenv lock"
	case lock.Check(p, lf) != nil:
		cfg.LockNote = "devenv.lock is stale: " + lock.Check(p, lf).Error()
	}
	var errs *multierror.Error
	for _, s := range p.Services {
		if len(only) > 0 && !contains(only, s.Name) {
			continue
		}
		req := s.Request()
		req.Driver, req.DriverRule = driver, rule
		res, err := profiles.Builtin().Resolve(req, p.Profiles)
		if err != nil {
			errs = multierror.Append(errs, err)
			continue
		}
		sc := serviceConfig{Name: s.Name, Profile: s.Profile, Resolved: res, GPUs: s.GPUs, GPU: s.GPU,
			Ports: s.Ports, Volumes: s.Volumes, Env: s.Env, Conf: s.Conf, Depends: s.DependsOn}
		if ls := lockedService(lf, s.Name); ls != nil && cfg.LockNote == "" {
			sc.Locked = true
			applyLock(&sc.Resolved, ls)
			if ls.Base != nil {
				sc.Base = ls.Base.Pinned()
			}
		}
		cfg.Services = append(cfg.Services, sc)
	}
	return cfg, errs.ErrorOrNil()
}

func lockedService(lf *lock.File, name string) *lock.Service {
	if lf == nil {
		return nil
	}
	return lf.Service(name)
}

func applyLock(r *profiles.Resolved, ls *lock.Service) {
	v := ls.Versions
	r.Spark, r.Scala, r.ScalaFull, r.Java, r.Python = v.Spark, v.Scala, v.ScalaFull, v.Java, v.Python
	r.Rapids, r.CUDA, r.Release, r.JarClassifier = v.Rapids, v.CUDA, v.Release, v.JarClassifier
	r.Requires = ls.Requires
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func printConfig(w io.Writer, cfg *projectConfig) {
	fmt.Fprintf(w, "project %s (%s)\n", cfg.Name, cfg.Dir)
	if cfg.LockNote != "" {
		fmt.Fprintf(w, "note: %s\n", cfg.LockNote)
	}
	for _, s := range cfg.Services {
		r := s.Resolved
		fmt.Fprintf(w, "\n%s  profile=%s locked=%v\n", s.Name, s.Profile, s.Locked)
		var vs []string
		for _, kv := range [][2]string{{"spark", r.Spark}, {"scala", r.ScalaFull}, {"java", r.Java}, {"python", r.Python},
			{"rapids", r.Rapids}, {"cuda", r.CUDA}, {"release", r.Release}} {
			if kv[1] != "" {
				vs = append(vs, kv[0]+"="+kv[1])
			}
		}
		if len(vs) > 0 {
			fmt.Fprintf(w, "  versions: %s\n", strings.Join(vs, " "))
		}
		base := s.Base
		if base == "" {
			base = r.BaseImage
		}
		if base != "" {
			fmt.Fprintf(w, "  base:     %s\n", base)
		}
		if r.Requires.MinDriver != "" {
			fmt.Fprintf(w, "  needs:    driver >= %s, compute capability >= %s\n", r.Requires.MinDriver, r.Requires.MinComputeCapability)
		}
		for _, pt := range s.Ports {
			fmt.Fprintf(w, "  port:     %s:%d -> %d/%s\n", pt.HostIP, pt.Host, pt.Container, pt.Protocol)
		}
		if s.Image != "" {
			fmt.Fprintf(w, "  image:    %s\n", s.Image)
		}
		if s.CPUFallback {
			fmt.Fprintf(w, "  gpu:      none, runs on the CPU: %s\n", s.Reason)
		} else if a, ok := placement(cfg, s.Name); ok {
			fmt.Fprintf(w, "  gpu:      %s", strings.Join(a.Devices, ","))
			if a.AllocFraction > 0 {
				fmt.Fprintf(w, " (shared: %.0f%% of its memory)", a.AllocFraction*100)
			}
			fmt.Fprintln(w)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  note:     %s\n", n)
		}
	}
	for _, wn := range cfg.Warnings {
		fmt.Fprintf(w, "\nwarning: %s\n", wn)
	}
}

func placement(cfg *projectConfig, service string) (gpu.Assignment, bool) {
	if cfg.Placement == nil {
		return gpu.Assignment{}, false
	}
	a, ok := cfg.Placement.Services[service]
	return a, ok
}
