package mirror

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

var (
	// emrLabelRe splits EMR on EKS release labels and image names:
	// emr-6.12.0-java17-latest, emr-7.12.0-20250801, emr-6.10.0-spark-rapids.
	emrLabelRe = lazy.Regexp(`^emr-(\d+\.\d+\.\d+)((?:-[a-z0-9]+)*)$`)
	// emrImageRe matches the repository of an EMR on EKS or EMR Serverless
	// image: <account>.dkr.ecr.<region>.amazonaws.com/spark/emr-7.12.0,
	// public.ecr.aws/emr-serverless/spark/emr-7.12.0.
	emrImageRe = lazy.Regexp(`(?:^|/)(?:notebook-)?spark/(emr-\d+\.\d+\.\d+(?:-[a-z0-9]+)*)$`)
	emrJavaRe  = lazy.Regexp(`-java(8|11|17|21)(?:-|$)`)
)

// emrReleaseKey turns an EMR (on EC2, EKS or Serverless) release label into
// the table's key and the Java its -javaNN variant names ("" when none).
func emrReleaseKey(label string) (key, java string) {
	label = strings.TrimSpace(label)
	m := emrLabelRe().FindStringSubmatch(label)
	if m == nil {
		return label, ""
	}
	if j := emrJavaRe().FindStringSubmatch(m[2]); j != nil {
		java = j[1]
	}
	return "emr-" + m[1], java
}

// platformFromImages recognises EMR on EKS and EMR Serverless images by
// their repository (spark/emr-7.12.0) and applies that release's row: the
// image is the runtime. A version a file declares is kept; when it
// disagrees with the release's, both are reported.
func (p *Profile) platformFromImages() {
	refs := map[string]string{}
	if p.Source.Format == FormatSparkOperator && p.Runtime.LabelProvenance == "spark-operator:spec.image" {
		refs["spark-operator:spec.image"] = p.Runtime.Label
	}
	for _, k := range imageKeys {
		if v := p.Conf[k]; v != "" {
			refs["conf:"+k] = v
		}
	}
	for _, src := range slices.Sorted(maps.Keys(refs)) {
		if p.applyEMRImage(refs[src], src) {
			return
		}
	}
}

func (p *Profile) applyEMRImage(ref, src string) bool {
	repo, _ := splitImage(ref)
	m := emrImageRe().FindStringSubmatch(repo)
	if m == nil {
		return false
	}
	platform := "emr-eks"
	if strings.Contains(repo, "emr-serverless") {
		platform = "emr-serverless"
	}
	if p.Source.Platform == "" || p.Source.Platform == "kubernetes" {
		p.Source.Platform, p.Source.Cloud = platform, "aws"
	}
	key, java := emrReleaseKey(m[1])
	r, ok := lookupRuntime("emr", key)
	if !ok {
		p.warn(fmt.Sprintf("image %s (%s) is EMR release %s, which is not in devenv's table; set spark:, java: in devenv.yaml", ref, src, key))
		return true
	}
	if java != "" {
		r.Java = java
	}
	declared, declaredSrc := p.Runtime.Spark, p.Runtime.SparkProvenance
	p.applyRuntime("emr", r)
	if rel, _ := normalizeSpark(r.Spark); declared != "" && majorMinorOf(declared) != majorMinorOf(rel) {
		p.warn(fmt.Sprintf("Spark %s (%s) disagrees with image %s (%s): EMR %s ships Spark %s (%s); the local mirror keeps %s, set spark: in devenv.yaml if the image is what runs",
			declared, declaredSrc, ref, src, key, r.Spark, r.Source, declared))
	}
	return true
}

// majorMinorOf is "3.5" for "3.5.6".
func majorMinorOf(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}
