package mirror

import "strings"

// The instance type a Kubernetes pod is pinned to: the well-known node
// label node.kubernetes.io/instance-type (beta.kubernetes.io/instance-type
// before Kubernetes 1.17), which the cloud's node controller sets from the
// VM (g7e.2xlarge, Standard_NC24ads_A100_v4, a2-highgpu-1g). A pod's
// nodeSelector, its template's, or Spark's
// spark.kubernetes[.executor|.driver].node.selector.<label> conf says
// which nodes the executors and the driver run on; other labels
// (a node group's, karpenter's) name no hardware.

var instanceTypeLabels = []string{"node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type"}

// selectedInstanceType is the instance type a nodeSelector map pins.
func selectedInstanceType(sel map[string]any) string {
	for _, l := range instanceTypeLabels {
		if v := strings.TrimSpace(str(sel[l])); v != "" {
			return v
		}
	}
	return ""
}

// typeFromPodSelector reads a Spark Operator pod spec's nodeSelector (or
// its template's) into the worker type (executors) or the driver type.
func (p *Profile) typeFromPodSelector(role string, pod map[string]any) {
	t := selectedInstanceType(asMap(pod["nodeSelector"]))
	if t == "" {
		t = selectedInstanceType(asMap(dig(pod, "template", "spec", "nodeSelector")))
	}
	p.setPodType(role, t)
}

func (p *Profile) setPodType(role, t string) {
	switch {
	case t == "":
	case role == "executor" && p.Topology.WorkerType == "":
		p.Topology.WorkerType = t
	case role == "driver" && p.Topology.DriverType == "":
		p.Topology.DriverType = t
	}
}

// typesFromSelectorConfs reads spark.kubernetes.{executor.,driver.,}node.selector.<label>:
// the role's own selector first, then the one both roles share.
func (p *Profile) typesFromSelectorConfs() {
	for _, role := range []string{"executor", "driver"} {
		for _, prefix := range []string{"spark.kubernetes." + role + ".node.selector.", "spark.kubernetes.node.selector."} {
			for _, l := range instanceTypeLabels {
				p.setPodType(role, strings.TrimSpace(p.Conf[prefix+l]))
			}
		}
	}
}
