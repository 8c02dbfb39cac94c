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

const noStepsLabel = "EMR steps name no release label (the cluster has it): mirror the cluster's describe-cluster too, or set spark:, java: in devenv.yaml"

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
		p.warn(noStepsLabel)
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
	before := map[string]string{} // a script's own spark-submit confs keep their provenance
	for k, prov := range p.ConfProvenance {
		if strings.HasPrefix(prov, "spark-submit:") {
			before[k] = p.Conf[k]
		}
	}
	if err := readSubmitArgs(p, args); err != nil {
		p.warn(fmt.Sprintf("%s: %v", src, err))
	}
	for k, prov := range p.ConfProvenance {
		if v, ok := before[k]; strings.HasPrefix(prov, "spark-submit:") && (!ok || v != p.Conf[k]) {
			p.ConfProvenance[k] = src + " " + prov
		}
	}
	return true
}

// readEMRCLISteps reads the --steps of aws emr add-steps or create-cluster:
// a JSON list, file://steps.json (not read here: import it too), or the
// shorthand, one word a step.
func (p *Profile) readEMRCLISteps(words []string, src string) {
	if len(words) == 0 {
		return
	}
	w := strings.TrimSpace(words[0])
	switch {
	case strings.HasPrefix(w, "file://"):
		p.warn(fmt.Sprintf("%s: --steps %s is a file, not read here: import it too to see its spark-submit options", src, w))
		return
	case strings.HasPrefix(w, "["):
		v, err := decodeJSON([]byte(w))
		if err != nil {
			p.warn(fmt.Sprintf("%s: --steps is not JSON (%v); its steps were not read", src, err))
			return
		}
		for i, s := range asList(v) {
			readEMRStep(p, i, asMap(s))
		}
		return
	}
	for i, w := range joinContinuedSteps(words) {
		readEMRStep(p, i, emrShorthandStep(w))
	}
}

// joinContinuedSteps joins a shorthand step that ends in a comma with the
// word after it: the step went on after a line break (Name=x, \ Args=[...]).
func joinContinuedSteps(words []string) []string {
	var out []string
	for _, w := range words {
		if n := len(out); n > 0 && strings.HasSuffix(out[n-1], ",") {
			out[n-1] += w
			continue
		}
		out = append(out, w)
	}
	return out
}

// emrShorthandStep reads one step of the CLI's shorthand,
// Type=Spark,Name=x,Args=[a,b,c],ActionOnFailure=CONTINUE: k=v pairs split
// at commas outside the brackets; Args is a list.
func emrShorthandStep(word string) map[string]any {
	m := map[string]any{}
	for _, kv := range splitOutsideBrackets(word) {
		k, v, _ := strings.Cut(kv, "=")
		inner, isList := strings.CutPrefix(v, "[")
		if inner, ok := strings.CutSuffix(inner, "]"); isList && ok {
			var l []any
			for _, a := range splitOutsideBrackets(inner) {
				l = append(l, a)
			}
			m[k] = l
			continue
		}
		m[k] = v
	}
	return m
}

// splitOutsideBrackets splits s at the commas that no [...] encloses.
func splitOutsideBrackets(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
