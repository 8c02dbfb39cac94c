package mirror

import (
	"fmt"
	"strings"
)

// readStartJobRun reads the arguments of `aws emr-containers start-job-run`
// (EMR on EKS): --release-label declares the release, --job-driver's
// sparkSubmitJobDriver.sparkSubmitParameters holds spark-submit options
// (--conf k=v, --num-executors ...), and --configuration-overrides'
// applicationConfiguration holds EMR classifications (spark-defaults).
func readStartJobRun(p *Profile, args []string) {
	p.Source.Platform, p.Source.Cloud = "emr", "aws"
	label := ""
	for i := 0; i < len(args); i++ {
		name, val, hasEq := strings.Cut(args[i], "=")
		if !strings.HasPrefix(name, "--") {
			continue
		}
		switch name {
		case "--release-label", "--job-driver", "--configuration-overrides":
		default:
			continue
		}
		v, next, err := flagValue(args, i, name, val, hasEq)
		if err != nil {
			p.warn(fmt.Sprintf("%s: %v", startJobRun, err))
			return
		}
		i = next
		switch name {
		case "--release-label":
			label = v
		case "--job-driver":
			readJobDriver(p, v)
		case "--configuration-overrides":
			readConfigurationOverrides(p, v)
		}
	}
	if label != "" {
		setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, label, "emr-containers:--release-label", false)
		p.applyEMRLabel(label)
	}
}

// readJobDriver reads --job-driver's spark-submit parameters.
func readJobDriver(p *Profile, doc string) {
	v, err := decodeJSON([]byte(doc))
	if err != nil {
		p.warn(fmt.Sprintf("%s --job-driver is not JSON (%v); its spark-submit parameters were not read", startJobRun, err))
		return
	}
	readJobDriverValue(p, v)
}

// readJobDriverValue reads a decoded job driver's spark-submit parameters.
func readJobDriverValue(p *Profile, v any) {
	params := str(asMap(asMap(v)["sparkSubmitJobDriver"])["sparkSubmitParameters"])
	if params == "" {
		return
	}
	words, err := shellWords(params)
	if err != nil {
		p.warn(fmt.Sprintf("%s sparkSubmitParameters: %v; not read", startJobRun, err))
		return
	}
	if err := readSubmitArgs(p, words); err != nil {
		p.warn(fmt.Sprintf("%s sparkSubmitParameters: %v", startJobRun, err))
	}
}

// readConfigurationOverrides reads --configuration-overrides' EMR
// classifications.
func readConfigurationOverrides(p *Profile, doc string) {
	v, err := decodeJSON([]byte(doc))
	if err != nil {
		p.warn(fmt.Sprintf("%s --configuration-overrides is not JSON (%v); its classifications were not read", startJobRun, err))
		return
	}
	readEMRConfigurations(p, asList(ciGet(asMap(v), "applicationConfiguration")), "")
	p.applyEMRRapids()
}

// isStartJobRunRequest reports whether m is the request body of an EMR on
// EKS StartJobRun (aws emr-containers start-job-run --cli-input-json, or
// what describe-job-run returns): a virtual cluster, a release label and a
// sparkSubmitJobDriver.
func isStartJobRunRequest(m map[string]any) bool {
	return asMap(asMap(m["jobDriver"])["sparkSubmitJobDriver"]) != nil &&
		(m["releaseLabel"] != nil || m["virtualClusterId"] != nil)
}

// readStartJobRunRequest reads that request body as the command's
// arguments are read: releaseLabel, jobDriver, configurationOverrides.
func readStartJobRunRequest(p *Profile, m map[string]any) {
	p.Source.Platform, p.Source.Cloud = "emr", "aws"
	readJobDriverValue(p, m["jobDriver"])
	readEMRConfigurations(p, asList(ciGet(asMap(m["configurationOverrides"]), "applicationConfiguration")), "")
	p.applyEMRRapids()
	if label := str(m["releaseLabel"]); label != "" {
		setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, label, "emr-containers:releaseLabel", false)
		p.applyEMRLabel(label)
	}
}
