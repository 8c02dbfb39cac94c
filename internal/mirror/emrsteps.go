package mirror

import (
	"fmt"
	"strings"
)

// EMR steps: the file of `aws emr add-steps --steps file://` or
// `create-cluster --steps` (a list of {Name, Type, Jar, Args,
// ActionOnFailure}), the API's StepConfig list ({Name, HadoopJarStep:
// {Jar, Args}}), or an object holding one as Steps (a RunJobFlow request,
// list-steps output). A Type Spark step's Args are spark-submit's options;
// a command-runner.jar step runs the command its Args name, spark-submit
// among them. Steps name no release label: the cluster has it.

// emrSteps returns the steps of v, or nil when v holds none.
func emrSteps(v any) []any {
	if m := asMap(v); m != nil {
		v = ciGet(m, "Steps")
	}
	l := asList(v)
	if len(l) == 0 {
		return nil
	}
	s := asMap(l[0])
	if stepJar(s) != nil || ciGet(s, "Args") != nil && (ciGet(s, "Type") != nil || ciGet(s, "ActionOnFailure") != nil) {
		return l
	}
	return nil
}

// stepJar is a step's HadoopJarStep (hadoop_jar_step as Terraform writes it).
func stepJar(s map[string]any) map[string]any {
	if j := asMap(ciGet(s, "HadoopJarStep")); j != nil {
		return j
	}
	return asMap(s["hadoop_jar_step"])
}

// readEMRSteps reads every spark-submit step; a RunJobFlow request's
// release label, applications and configurations as a cluster's.
func readEMRSteps(p *Profile, v any) {
	p.Source.Platform, p.Source.Cloud = "emr", "aws"
	if m := asMap(v); m != nil && ciGet(m, "ReleaseLabel") != nil {
		c := map[string]any{"ReleaseLabel": ciGet(m, "ReleaseLabel"), "Applications": ciGet(m, "Applications"),
			"Configurations": ciGet(m, "Configurations"), "InstanceGroups": ciGet(asMap(ciGet(m, "Instances")), "InstanceGroups")}
		readEMRCluster(p, c)
	}
	n := 0
	for i, s := range emrSteps(v) {
		if readEMRStep(p, i, asMap(s)) {
			n++
		}
	}
	if n > 1 {
		p.warn(fmt.Sprintf("%d spark-submit steps: their confs were merged, a later step's value winning", n))
	}
	if p.Runtime.Label == "" {
		p.warn("EMR steps name no release label (the cluster has it): mirror the cluster's describe-cluster too, or set spark:, java: in devenv.yaml")
	}
	p.applyEMRRapids()
}

// readEMRStep reads one step's spark-submit options; false when the step
// runs something else.
func readEMRStep(p *Profile, i int, s map[string]any) bool {
	src := fmt.Sprintf("emr:steps[%d] (%s)", i, str(ciGet(s, "Name")))
	j := stepJar(s)
	if j == nil {
		j = s
	}
	var args []string
	for _, a := range asList(ciGet(j, "Args")) {
		args = append(args, str(a))
	}
	jar := str(ciGet(j, "Jar"))
	switch {
	case strings.EqualFold(str(ciGet(s, "Type")), "spark"):
	case strings.HasSuffix(jar, "command-runner.jar") && len(args) > 0 && isSubmitCommand(args[0]):
		args = args[1:]
	default:
		p.warn(fmt.Sprintf("%s runs %s, not spark-submit; skipped", src, firstNonEmpty(strings.Join(args[:min(1, len(args))], ""), jar)))
		return false
	}
	if err := readSubmitArgs(p, args); err != nil {
		p.warn(fmt.Sprintf("%s: %v", src, err))
	}
	for k, prov := range p.ConfProvenance {
		if strings.HasPrefix(prov, "spark-submit:") {
			p.ConfProvenance[k] = src + " " + prov
		}
	}
	return true
}
