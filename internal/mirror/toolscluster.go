package mirror

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// importToolsCluster reads spark-rapids-tools cluster descriptions: the
// legacy worker_info YAML (system, gpu, softwareProperties), the
// --target-cluster-info YAML (workerInfo, sparkProperties.enforced) and the
// on-prem cluster YAML (config.workerConfig).
func importToolsCluster(path string, data []byte) (*Profile, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("mirror: %s: %w; fix the YAML", path, err)
	}
	m := asMap(v)
	if m == nil {
		return nil, fmt.Errorf("mirror: %s: a spark-rapids-tools cluster file is a YAML object", path)
	}
	if err := checkTypes(path, data, toolsCluster{}, false, "fix the value"); err != nil {
		return nil, err
	}
	p := newProfile(path, FormatToolsCluster)
	p.Source.Platform = "onprem"
	if sys := asMap(m["system"]); sys != nil {
		setInt(&p.Topology.Workers, &p.Topology.WorkersProvenance, num(sys["numWorkers"]), "tools:system.numWorkers", false)
	}
	readToolsGPU(p, asMap(m["gpu"]), "tools:gpu")
	props := asMap(m["softwareProperties"])
	for _, k := range slices.Sorted(maps.Keys(props)) {
		p.addConf(k, str(props[k]), "tools:softwareProperties")
	}
	if wi := asMap(m["workerInfo"]); wi != nil {
		p.Topology.WorkerType = str(wi["instanceType"])
		readToolsGPU(p, asMap(wi["gpu"]), "tools:workerInfo.gpu")
		if c, gb := num(wi["cpuCores"]), num(wi["memoryGB"]); c > 0 || gb > 0 {
			p.Topology.WorkerVCPUs, p.Topology.WorkerMemoryMB = c, int64(gb)*1024
			p.Topology.WorkerHardwareProvenance = "tools:workerInfo.cpuCores/memoryGB"
		}
	}
	if td := asList(dig(m, "sparkProperties", "tuningDefinitions")); len(td) > 0 {
		p.warn(fmt.Sprintf("sparkProperties.tuningDefinitions (%d) define properties for the tools' AutoTuner; they are not Spark confs and are not mirrored", len(td)))
	}
	enforced := asMap(dig(m, "sparkProperties", "enforced"))
	for _, k := range slices.Sorted(maps.Keys(enforced)) {
		p.addConf(k, str(enforced[k]), "tools:sparkProperties.enforced")
	}
	if wc := asMap(dig(m, "config", "workerConfig")); wc != nil {
		setInt(&p.Topology.Workers, &p.Topology.WorkersProvenance, num(wc["numWorkers"]), "tools:config.workerConfig.numWorkers", false)
	}
	return p, nil
}

func readToolsGPU(p *Profile, g map[string]any, src string) {
	if g == nil {
		return
	}
	setInt(&p.GPU.PerNode, &p.GPU.PerNodeProvenance, num(g["count"]), src+".count", false)
	setStr(&p.GPU.Model, &p.GPU.ModelProvenance, strings.ToUpper(str(g["name"])), src+".name", false)
}
