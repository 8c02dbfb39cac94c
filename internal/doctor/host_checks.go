package doctor

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Memory thresholds for the host.
const (
	minHostMemory   = 16 * gib
	sparkHostMemory = 32 * gib
	minDiskFree     = 20 * gib
)

// imageSizeEstimate is roughly how much disk one built image of a profile
// takes (bytes, decimal GB as registries report them).
var imageSizeEstimate = map[string]int64{
	"triton": 15e9,
	"rapids": 10e9,
	"spark":  4e9,
}

func checkHostMemory(e *env) []Check {
	c := Check{ID: IDHostMemory, Title: "host memory"}
	mem, where := e.memory()
	switch {
	case mem <= 0:
		c.Status, c.Message = Skip, "could not read the memory size"
	case mem < minHostMemory:
		c.Status, c.Message = Warn, fmt.Sprintf("%s %s; devenv's GPU environments need at least 16 GiB", humanBytes(mem), where)
		c.Fix = "use a machine with 16 GiB or more (Docker Desktop: raise Settings > Resources > Memory)"
		if len(e.services) > 0 {
			c.Status = Fail
		}
	case mem < sparkHostMemory && e.hasKind("spark"):
		c.Status, c.Message = Warn, fmt.Sprintf("%s %s; Spark with the RAPIDS Accelerator wants 32 GiB or more", humanBytes(mem), where)
		c.Fix = "give the Spark service a `memory:` limit and fewer workers, or use a machine with 32 GiB"
	default:
		c.Status, c.Message = Pass, humanBytes(mem)+" "+where
	}
	return []Check{c}
}

// memory is the smaller of the machine's memory and what the engine sees
// (Docker Desktop's VM may have less), with where it came from.
func (e *env) memory() (int64, string) {
	mem, where := e.in.Host.MemoryBytes, "on this machine"
	if e.info != nil && e.info.MemTotal > 0 && (mem <= 0 || e.info.MemTotal < mem) {
		mem, where = e.info.MemTotal, "visible to the Docker engine"
	}
	return mem, where
}

func checkDisk(e *env) []Check {
	c := Check{ID: IDDisk, Title: "disk for images"}
	switch {
	case e.info == nil:
		c.Status, c.Message = Skip, "the engine is unreachable"
	case e.info.DockerRootDir == "" || !e.localEngine() || e.in.Host.DiskFreeBytes == nil:
		c.Status, c.Message = Skip, "the engine's data directory is not on this machine"
	case strings.Contains(e.info.OS, "Docker Desktop"):
		c.Status, c.Message = Skip, "Docker Desktop keeps images in its own VM disk; see Settings > Resources > Disk usage limit"
	default:
		judgeDisk(&c, e)
	}
	return []Check{c}
}

func judgeDisk(c *Check, e *env) {
	dir := e.info.DockerRootDir
	free, err := e.in.Host.DiskFreeBytes(dir)
	if err != nil {
		c.Status = Skip
		c.Message = fmt.Sprintf("cannot read free space of %s (%v); the engine may run in a VM (Docker Desktop)", dir, err)
		return
	}
	need, detail := e.imageEstimate()
	c.Fix = "free space with `docker system prune` (and `docker builder prune`), or move Docker's data-root to a larger disk"
	switch {
	case need > 0 && free < need:
		c.Status = Fail
		c.Message = fmt.Sprintf("%s free in %s; the images need about %s (%s)", humanGB(free), dir, humanGB(need), detail)
	case free < minDiskFree:
		c.Status = Warn
		c.Message = fmt.Sprintf("%s free in %s; keep 20 GiB or more for images and build cache", humanGB(free), dir)
	default:
		c.Status, c.Fix = Pass, ""
		c.Message = fmt.Sprintf("%s free in %s", humanGB(free), dir)
		if need > 0 {
			c.Message += fmt.Sprintf("; the images need about %s", humanGB(need))
		}
	}
}

// imageEstimate sums the estimated image sizes of the services in scope.
func (e *env) imageEstimate() (int64, string) {
	var total int64
	var parts []string
	for _, s := range e.services {
		if n := imageSizeEstimate[s.Kind]; n > 0 {
			total += n
			parts = append(parts, fmt.Sprintf("%s %s", s.Name, humanGB(n)))
		}
	}
	return total, strings.Join(parts, ", ")
}

func humanGB(b int64) string { return fmt.Sprintf("%.1f GB", float64(b)/1e9) }

const wslLib = "/usr/lib/wsl/lib"

func checkWSL(e *env) []Check {
	c := Check{ID: IDWSL, Title: "WSL2"}
	if !e.in.Host.WSL {
		c.Status, c.Message = Skip, "not running in WSL2"
		return []Check{c}
	}
	exists := e.in.Host.FileExists
	lib := filepath.Join(wslLib, "libnvidia-ml.so.1")
	switch {
	case exists == nil:
		c.Status, c.Message = Skip, "cannot look for "+lib
	case !exists(lib):
		c.Status, c.Message, c.Fix = Fail, lib+" is missing: WSL2 has no GPU from Windows", fixWSLDriver+"; then `wsl --update` and `wsl --shutdown`"
		if !e.needsGPU() {
			c.Status = Warn
		}
	case e.info == nil:
		c.Status, c.Message = Fail, "the GPU is visible through "+wslLib+" but no Docker engine answers"
		c.Fix = "in Docker Desktop, turn on Settings > Resources > WSL integration for this distribution (or start Docker inside WSL)"
	default:
		c.Status, c.Message = Pass, "the GPU comes from the Windows driver through "+wslLib
		if strings.Contains(e.info.OS, "Docker Desktop") {
			c.Message += "; the engine is Docker Desktop's WSL integration"
		}
	}
	return []Check{c}
}
