package mirror

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/redact"
)

// isSecret reports whether a key or its value must never be copied, by
// the one rule devenv has (internal/redact): a secret key name, a secret
// reference or redacted value, or a secret inside the value (a password in
// a URL, -Dapi.key=..., a token's shape).
func isSecret(key, value string) bool {
	return redact.IsSecret(key, value)
}

// addConf records one Spark conf; a secret is listed in Redacted only.
func (p *Profile) addConf(key, value, src string) {
	key = strings.TrimSpace(key)
	if key == "" {
		return
	}
	if isSecret(key, value) {
		p.Redacted = append(p.Redacted, key)
		delete(p.Conf, key)
		delete(p.ConfProvenance, key)
		return
	}
	p.Conf[key] = value
	p.ConfProvenance[key] = src
}

// addEnv records an environment variable, secrets redacted.
func (p *Profile) addEnv(name, value string) {
	if isSecret(name, value) {
		p.Redacted = append(p.Redacted, "env:"+name)
		return
	}
	if p.Env == nil {
		p.Env = map[string]string{}
	}
	p.Env[name] = value
}

// drop records a key the importer read and did not keep. Secret values never
// reach Dropped: their keys go to Redacted.
func (p *Profile) drop(key, value, reason string) {
	if isSecret(key, value) {
		p.Redacted = append(p.Redacted, key)
		return
	}
	p.Dropped[key] = reason
}

// deriveFromConf fills topology, GPU and RAPIDS facts from the confs, without
// replacing facts a more direct source already set.
func (p *Profile) deriveFromConf() {
	c := p.Conf
	if p.Topology.ExecutorCores == 0 && p.Topology.Executors == 0 {
		p.applyLocalMaster(0) // local[N] in confs; an event log's executors already said
	}
	prov := func(k string) string { return "conf:" + k }
	if v, ok := c["spark.executor.cores"]; ok {
		n, _ := strconv.Atoi(strings.TrimSpace(v))
		setInt(&p.Topology.ExecutorCores, &p.Topology.ExecutorCoresProvenance, n, prov("spark.executor.cores"), false)
	}
	if v, ok := c["spark.executor.memory"]; ok {
		if mb, err := parseSizeMB(v, "m"); err == nil {
			if p.Topology.ExecutorMemoryMB == 0 && mb > 0 {
				p.Topology.ExecutorMemoryMB, p.Topology.ExecutorMemoryMBProvenance = mb, prov("spark.executor.memory")
			}
		} else {
			p.warn(fmt.Sprintf("spark.executor.memory=%q: %v", v, err))
		}
	}
	if v, ok := c["spark.executor.instances"]; ok {
		n, _ := strconv.Atoi(strings.TrimSpace(v))
		setInt(&p.Topology.Executors, &p.Topology.ExecutorsProvenance, n, prov("spark.executor.instances"), false)
	}
	if v, ok := c["spark.executor.resource.gpu.amount"]; ok {
		f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
		setFloat(&p.GPU.ExecutorGPUs, &p.GPU.ExecutorGPUsProvenance, f, prov("spark.executor.resource.gpu.amount"), false)
	}
	if v, ok := c["spark.task.resource.gpu.amount"]; ok {
		f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
		setFloat(&p.GPU.TaskGPU, &p.GPU.TaskGPUProvenance, f, prov("spark.task.resource.gpu.amount"), false)
	}
	if strings.Contains(c["spark.plugins"], "com.nvidia.spark.SQLPlugin") && !strings.EqualFold(strings.TrimSpace(c["spark.rapids.sql.enabled"]), "false") {
		p.GPU.RapidsEnabled = true
	}
	p.rapidsFromValues(c, "conf:")
	if p.Env != nil {
		p.rapidsFromValues(p.Env, "env:")
	}
	p.factsOutsideConf()
}

// rapidsFromValues looks for a RAPIDS jar name in any value.
func (p *Profile) rapidsFromValues(m map[string]string, prefix string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if j, ok := findRapidsJar(m[k]); ok {
			p.setRapidsJar(j, prefix+k)
			return
		}
	}
}

func (p *Profile) setRapidsJar(j rapidsJar, src string) {
	if p.GPU.Rapids != "" {
		return
	}
	p.GPU.Rapids, p.GPU.RapidsProvenance, p.GPU.RapidsJar = j.Version, src, j.File
	if cuda, ok := strings.CutPrefix(j.Classifier, "cuda"); ok && cuda != "" {
		cuda, _, _ = strings.Cut(cuda, "-") // cuda12-arm64
		setStr(&p.GPU.CUDA, &p.GPU.CUDAProvenance, cuda, src+" (jar classifier "+j.Classifier+")", false)
	}
	if j.Scala != "" && p.Runtime.Scala == "" {
		p.Runtime.Scala, p.Runtime.ScalaProvenance = j.Scala, src+" (jar name)"
	}
}

// parseSizeMB reads a Spark size ("12022m", "16g", "1024", "512k", "2t",
// "8gb") as MiB; a bare number uses defUnit ("m" or "b").
func parseSizeMB(s, defUnit string) (int64, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimSuffix(s, "b")
	if s == "" {
		if defUnit == "b" {
			return 0, nil
		}
		return 0, fmt.Errorf("empty size")
	}
	unit := defUnit
	if last := s[len(s)-1]; last < '0' || last > '9' {
		unit, s = string(last), s[:len(s)-1]
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not a size: want a number with an optional unit k, m, g or t")
	}
	switch unit {
	case "b":
		return int64(n / (1 << 20)), nil
	case "k":
		return int64(n / 1024), nil
	case "m":
		return int64(n), nil
	case "g":
		return int64(n * 1024), nil
	case "t":
		return int64(n * 1024 * 1024), nil
	case "p":
		return int64(n * 1024 * 1024 * 1024), nil
	}
	return 0, fmt.Errorf("unknown size unit %q: use k, m, g or t", unit)
}
