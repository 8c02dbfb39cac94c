package mirror

import (
	"fmt"
	"strings"
)

// readStartJobRun reads the arguments of `aws emr-containers start-job-run`
// (or `aws emr-serverless start-job-run`, whose job driver is sparkSubmit)
// (EMR on EKS): --release-label declares the release, --job-driver's
// sparkSubmitJobDriver.sparkSubmitParameters holds spark-submit options
// (--conf k=v, --num-executors ...), and --configuration-overrides'
// applicationConfiguration holds EMR classifications (spark-defaults).
func readStartJobRun(p *Profile, args []string, serverless bool) {
	p.Source.Platform, p.Source.Cloud = "emr", "aws"
	if serverless {
		p.Source.Platform = "emr-serverless"
	}
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
	} else if serverless {
		p.warnServerlessLabel()
	}
}

// warnServerlessLabel says where an EMR Serverless job's release is.
func (p *Profile) warnServerlessLabel() {
	p.warn("an EMR Serverless job run names no release label: its application has it (aws emr-serverless get-application); set spark:, java: in devenv.yaml, or mirror a file that names it")
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
	d := asMap(asMap(v)["sparkSubmitJobDriver"]) // EMR on EKS
	if d == nil {
		d = asMap(asMap(v)["sparkSubmit"]) // EMR Serverless
	}
	params := str(d["sparkSubmitParameters"])
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
		(m["releaseLabel"] != nil || m["virtualClusterId"] != nil) || isServerlessJobRun(m)
}

// isServerlessJobRun reports whether m is an EMR Serverless StartJobRun
// request (aws emr-serverless start-job-run --cli-input-json, or
// get-job-run's jobRun): an application and a sparkSubmit job driver.
func isServerlessJobRun(m map[string]any) bool {
	return asMap(asMap(m["jobDriver"])["sparkSubmit"]) != nil && (m["applicationId"] != nil || m["releaseLabel"] != nil)
}

// startJobRunBody is m when it is a StartJobRun request, or the job run
// it holds when it is what describe-job-run (EMR on EKS) or get-job-run
// (EMR Serverless) print, {"jobRun": {...}}: the request's fields with
// the run's state; nil otherwise.
func startJobRunBody(m map[string]any) map[string]any {
	if isStartJobRunRequest(m) {
		return m
	}
	if run := asMap(m["jobRun"]); run != nil && isStartJobRunRequest(run) {
		return run
	}
	return nil
}

// readStartJobRunRequest reads that request body as the command's
// arguments are read: releaseLabel, jobDriver, configurationOverrides.
func readStartJobRunRequest(p *Profile, m map[string]any) {
	p.Source.Platform, p.Source.Cloud = "emr", "aws"
	if isServerlessJobRun(m) {
		p.Source.Platform = "emr-serverless"
		if m["releaseLabel"] == nil {
			p.warnServerlessLabel()
		}
	}
	readJobDriverValue(p, m["jobDriver"])
	readEMRConfigurations(p, asList(ciGet(asMap(m["configurationOverrides"]), "applicationConfiguration")), "")
	p.applyEMRRapids()
	if label := str(m["releaseLabel"]); label != "" {
		setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, label, "emr-containers:releaseLabel", false)
		p.applyEMRLabel(label)
	}
}
