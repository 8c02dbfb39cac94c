package mirror

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The clouds' CLIs create the cluster a job runs on, or submit the job, in
// the same scripts that run spark-submit: `aws emr create-cluster`
// (--release-label, --instance-groups, --configurations), `gcloud
// [beta] dataproc clusters create` (--image-version, --num-workers,
// --worker-machine-type, --properties spark:k=v) and `gcloud dataproc jobs
// submit spark|pyspark|spark-sql` (--properties k=v, --jars) and `gcloud
// dataproc batches submit` (Serverless: --version names the runtime,
// --properties, --jars). Each command
// a script holds is read; a spark-submit command in it is read as well.

// cloudCommand is one such command: its kind and its arguments.
type cloudCommand struct {
	kind string // one of the cli* constants
	args []string
	line int
}

// dataprocDefaultWorkers is the primary workers of a standard Dataproc
// cluster created without --num-workers: the API's computed default
// ("currently 2", the Terraform/Pulumi google provider's
// cluster_config.worker_config.num_instances reference).
const dataprocDefaultWorkers = 2

const (
	cliEMRCreateCluster = "aws emr create-cluster"
	cliEMRAddSteps      = "aws emr add-steps"
	cliDataprocCluster  = "gcloud dataproc clusters create"
	cliDataprocJob      = "gcloud dataproc jobs submit"
	cliDataprocBatch    = "gcloud dataproc batches submit"
)

// cloudCommands finds the cloud CLI commands of one logical line's words.
func cloudCommands(words []string, line int) []cloudCommand {
	var out []cloudCommand
	for j, w := range words {
		switch commandWord(w) {
		case "aws":
			if j+2 < len(words) && words[j+1] == "emr" && words[j+2] == "create-cluster" {
				out = append(out, cloudCommand{cliEMRCreateCluster, words[j+3:], line})
			}
			if j+2 < len(words) && words[j+1] == "emr" && words[j+2] == "add-steps" {
				out = append(out, cloudCommand{cliEMRAddSteps, words[j+3:], line})
			}
		case "gcloud":
			rest := skipGcloudFlags(words[j+1:])
			if len(rest) > 0 && (rest[0] == "beta" || rest[0] == "alpha") {
				rest = skipGcloudFlags(rest[1:])
			}
			if len(rest) < 3 || rest[0] != "dataproc" {
				continue
			}
			switch {
			case rest[1] == "clusters" && rest[2] == "create":
				out = append(out, cloudCommand{cliDataprocCluster, rest[3:], line})
			case rest[1] == "jobs" && rest[2] == "submit" && len(rest) > 3:
				out = append(out, cloudCommand{cliDataprocJob, rest[4:], line})
			case rest[1] == "workflow-templates" && rest[2] == "set-managed-cluster":
				// the template's cluster: clusters create's flags
				out = append(out, cloudCommand{cliDataprocCluster, rest[3:], line})
			case rest[1] == "workflow-templates" && rest[2] == "add-job" && len(rest) > 3:
				out = append(out, cloudCommand{cliDataprocJob, rest[4:], line})
			case rest[1] == "batches" && rest[2] == "submit":
				// the workload type (pyspark, spark ...) may follow flags
				out = append(out, cloudCommand{cliDataprocBatch, rest[3:], line})
			}
		}
	}
	return out
}

// skipGcloudFlags drops gcloud's global flags before its command group
// (gcloud --verbosity=info dataproc ..., gcloud --project p dataproc ...):
// a flag without = takes the next word as its value unless that word is
// a command group or another flag (--quiet).
func skipGcloudFlags(words []string) []string {
	for len(words) > 0 && strings.HasPrefix(words[0], "--") {
		_, _, hasEq := strings.Cut(words[0], "=")
		words = words[1:]
		if !hasEq && len(words) > 0 && !strings.HasPrefix(words[0], "--") && !slices.Contains([]string{"dataproc", "beta", "alpha"}, words[0]) {
			words = words[1:]
		}
	}
	return words
}

// commandWord is the command a word starts: aws in aws, $(aws, `aws and
// CLUSTER_ID=$(aws (a command substitution assigned to a variable).
func commandWord(w string) string {
	if i := strings.IndexAny(w, "=$`"); i > 0 && w[i] == '=' && isShellName(w[:i]) {
		w = w[i+1:]
	}
	return strings.TrimLeft(strings.TrimPrefix(w, "$("), "`")
}

// substitutedWords are the words of the command an assignment runs in a
// command substitution (ID=$(aws emr create-cluster ...)); nil for any
// other assignment.
func substitutedWords(assign string) []string {
	_, value, _ := assignment(assign)
	body, ok := substitutionBody(value)
	if !ok {
		return nil
	}
	words, err := shellWords(body)
	if err != nil {
		return nil
	}
	return words
}

// hasSubstitution reports whether v holds a command substitution.
func hasSubstitution(v string) bool {
	for i := range len(v) {
		if isSubstitution(v, i) {
			return true
		}
	}
	return false
}

// substitutionBody is the command of a value that is one command
// substitution, $(...) or `...`.
func substitutionBody(v string) (string, bool) {
	if len(v) < 2 || !isSubstitution(v, 0) || substitutionEnd(v, 0) != len(v)-1 {
		return "", false
	}
	if v[0] == '`' {
		return v[1 : len(v)-1], true
	}
	return v[2 : len(v)-1], true
}

func isShellName(s string) bool {
	for i, c := range s {
		if c != '_' && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') && (i == 0 || !('0' <= c && c <= '9')) {
			return false
		}
	}
	return s != ""
}

// cliOptions splits a command's arguments into --flag values: --flag=v, or
// --flag followed by the words up to the next --flag (shorthand lists such
// as --instance-groups A=1,B=2 C=3,D=4 take several). A repeated flag
// keeps every occurrence's values, in order (--properties=a=1
// --properties=b=2 sets both).
func cliOptions(args []string) map[string][]string {
	opts := map[string][]string{}
	cur := ""
	for _, a := range args {
		if strings.HasPrefix(a, "--") {
			name, val, hasEq := strings.Cut(a, "=")
			cur = name
			if opts[cur] == nil {
				opts[cur] = []string{} // present, even when it takes no value (--single-node)
			}
			if hasEq {
				opts[cur] = append(opts[cur], val)
				cur = ""
			}
			continue
		}
		if cur != "" {
			opts[cur] = append(opts[cur], a)
		}
	}
	return opts
}

// flagValue is a flag's value, or "" with a warning when it holds a shell
// variable the script does not set ($IMAGE_VERSION): that is not prod's value.
func (p *Profile) flagValue(opts map[string][]string, flag, src string) string {
	v := first(opts[flag])
	if strings.Contains(v, "$") {
		p.warn(fmt.Sprintf("%s: %s %s is a shell variable the script does not set; not read (set what it stands for in devenv.yaml)", src, flag, v))
		return ""
	}
	return v
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// readCloudCommands reads every cloud CLI command of a script.
func (p *Profile) readCloudCommands(cmds []cloudCommand) {
	addSteps := false
	for _, c := range cmds {
		opts := cliOptions(c.args)
		src := fmt.Sprintf("%s (line %d)", c.kind, c.line)
		switch c.kind {
		case cliEMRCreateCluster:
			p.readEMRCreateCluster(opts, src)
			p.readEMRCLISteps(opts["--steps"], src)
		case cliEMRAddSteps:
			p.Source.Platform, p.Source.Cloud, addSteps = "emr", "aws", true
			p.readEMRCLISteps(opts["--steps"], src)
		case cliDataprocCluster:
			p.readDataprocClusterCreate(opts, src)
		case cliDataprocJob:
			p.readDataprocJobSubmit(opts, src)
		case cliDataprocBatch:
			p.readDataprocJobSubmit(opts, src)
			if v := p.flagValue(opts, "--version", src); v != "" || first(opts["--version"]) == "" {
				p.applyServerlessVersion(v, src+" --version")
			}
		}
	}
	if addSteps && p.Runtime.Label == "" {
		p.warn(noStepsLabel)
	}
}

func (p *Profile) readEMRCreateCluster(opts map[string][]string, src string) {
	p.Source.Platform, p.Source.Cloud = "emr", "aws"
	for _, g := range emrCLIGroups(p, opts["--instance-groups"], src) {
		n, _ := strconv.Atoi(g["InstanceCount"])
		switch strings.ToUpper(g["InstanceGroupType"]) {
		case "MASTER":
			p.Topology.DriverType = g["InstanceType"]
		case "CORE", "TASK":
			p.Topology.Workers += n
			p.Topology.WorkersProvenance = src + " --instance-groups CORE/TASK InstanceCount"
			if p.Topology.WorkerType == "" {
				p.Topology.WorkerType = g["InstanceType"]
			}
		}
	}
	if t := first(opts["--instance-type"]); t != "" && p.Topology.WorkerType == "" {
		p.Topology.WorkerType, p.Topology.DriverType = t, t
		if n, err := strconv.Atoi(first(opts["--instance-count"])); err == nil && n > 1 {
			setInt(&p.Topology.Workers, &p.Topology.WorkersProvenance, n-1, src+" --instance-count (less the primary node)", false)
		}
	}
	if len(opts["--instance-fleets"]) > 0 {
		p.warn(src + ": --instance-fleets count capacity units, not nodes; the workers were not read")
	}
	if conf := first(opts["--configurations"]); conf != "" {
		if v, err := decodeJSON([]byte(conf)); err == nil {
			readEMRConfigurations(p, asList(v), "")
		} else {
			p.warn(fmt.Sprintf("%s: --configurations %s is a file, not read here: import it too to see its confs", src, conf))
		}
	}
	flag, label := "--release-label", p.flagValue(opts, "--release-label", src)
	if ami := first(opts["--ami-version"]); label == "" && emrLabelRe().MatchString(ami) {
		// --ami-version names AMIs 2.x/3.x; a release label given to it is
		// the release the author meant
		flag, label = "--ami-version", ami
		p.warn(fmt.Sprintf("%s: --ami-version %s is a release label (the flag takes AMI versions 2.x and 3.x; releases 4.0.0 and later go to --release-label): read as the release", src, ami))
	}
	if label != "" {
		setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, label, src+" "+flag, false)
		p.applyEMRLabel(label)
	}
}

// emrCLIGroups reads --instance-groups: a JSON array, or the shorthand
// InstanceGroupType=CORE,InstanceCount=2,InstanceType=m5.xlarge, one word
// a group.
func emrCLIGroups(p *Profile, words []string, src string) []map[string]string {
	if len(words) == 0 {
		return nil
	}
	var out []map[string]string
	if strings.HasPrefix(strings.TrimSpace(words[0]), "[") {
		v, err := decodeJSON([]byte(words[0]))
		if err != nil {
			p.warn(fmt.Sprintf("%s: --instance-groups is not JSON (%v); the workers were not read", src, err))
			return nil
		}
		for _, g := range asList(v) {
			gm := asMap(g)
			out = append(out, map[string]string{"InstanceGroupType": str(gm["InstanceGroupType"]),
				"InstanceType": str(gm["InstanceType"]), "InstanceCount": strconv.Itoa(num(gm["InstanceCount"]))})
		}
		return out
	}
	for _, w := range words {
		g := map[string]string{}
		for _, kv := range strings.Split(w, ",") {
			k, v, _ := strings.Cut(kv, "=")
			g[k] = v
		}
		out = append(out, g)
	}
	return out
}

func (p *Profile) readDataprocClusterCreate(opts map[string][]string, src string) {
	p.Source.Platform, p.Source.Cloud = "dataproc", "gcp"
	if n, err := strconv.Atoi(first(opts["--num-workers"])); err == nil {
		setInt(&p.Topology.Workers, &p.Topology.WorkersProvenance, n, src+" --num-workers", false)
	}
	for _, f := range []string{"--num-secondary-workers", "--num-preemptible-workers"} {
		if n, err := strconv.Atoi(first(opts[f])); err == nil && n > 0 {
			p.Topology.Workers += n
			p.Topology.WorkersProvenance += " + " + f
		}
	}
	setStr(&p.Topology.WorkerType, new(string), p.flagValue(opts, "--worker-machine-type", src), src, false)
	setStr(&p.Topology.DriverType, new(string), p.flagValue(opts, "--master-machine-type", src), src, false)
	_, single := opts["--single-node"]
	_, counted := opts["--num-workers"]
	switch {
	case single:
		p.setSingleNode(p.Topology.DriverType, src+" --single-node")
		// the one node runs the executors: its GPUs are theirs
		p.readGcloudAccelerator(first(opts["--master-accelerator"]), src+" --master-accelerator (the single node)")
	case !counted && !unreadCount(opts):
		// Dataproc's own default: a standard cluster has 2 primary workers
		p.Topology.Workers += dataprocDefaultWorkers
		p.Topology.WorkersProvenance = src + " (no --num-workers: Dataproc's default of 2 primary workers)" + p.Topology.WorkersProvenance
	}
	for _, f := range []string{"--worker-accelerator", "--secondary-worker-accelerator", "--preemptible-worker-accelerator"} {
		p.readGcloudAccelerator(first(opts[f]), src+" "+f)
	}
	props := map[string]any{}
	for _, v := range opts["--properties"] {
		for k, val := range gcloudDict(v) {
			props[k] = val
		}
	}
	readDataprocProperties(p, props)
	for _, ia := range gcloudList(first(opts["--initialization-actions"])) {
		if strings.Contains(ia, "spark-rapids") {
			p.GPU.RapidsEnabled = true
		}
		p.warn(fmt.Sprintf("initialization action %s is not run locally; what it adds to spark-defaults.conf shows only in an event log", ia))
	}
	if iv := p.flagValue(opts, "--image-version", src); iv != "" {
		setStr(&p.Runtime.Label, &p.Runtime.LabelProvenance, iv, src+" --image-version", false)
		p.applyDataprocImage(iv)
	}
}

// unreadCount: a secondary workers' count is a shell variable, so the
// cluster's size is not known whatever the primary workers' default.
func unreadCount(opts map[string][]string) bool {
	for _, f := range []string{"--num-secondary-workers", "--num-preemptible-workers"} {
		if strings.Contains(first(opts[f]), "$") {
			return true
		}
	}
	return false
}

// readGcloudAccelerator reads type=nvidia-tesla-t4,count=2 of a workers'
// accelerator flag; the first one read sets the GPUs per node.
func (p *Profile) readGcloudAccelerator(acc, src string) {
	if acc == "" {
		return
	}
	kv := gcloudDict(acc)
	if _, ok := kv["count"]; !ok {
		kv["count"] = "1" // gcloud's default: one accelerator of the type
	}
	n, err := strconv.Atoi(kv["count"])
	if err != nil {
		p.GPU.OnGPUNodes = src + " (count " + kv["count"] + ")"
		p.warn(fmt.Sprintf("%s: the workers have GPUs, but their count %q is not a number the script sets; set the GPUs per node in devenv.yaml", src, kv["count"]))
	}
	setInt(&p.GPU.PerNode, &p.GPU.PerNodeProvenance, n, src, false)
	if t := kv["type"]; !strings.Contains(t, "$") {
		if p.GPU.AcceleratorType == "" {
			p.GPU.AcceleratorType = t
		}
		setStr(&p.GPU.Model, &p.GPU.ModelProvenance, gpuModel(t), src, false)
	}
}

func (p *Profile) readDataprocJobSubmit(opts map[string][]string, src string) {
	p.Source.Platform, p.Source.Cloud = "dataproc", "gcp"
	for _, v := range opts["--properties"] { // repeated --properties add up
		for k, val := range gcloudDict(v) {
			p.addConf(k, val, src+" --properties")
		}
	}
	if jars := gcloudList(first(opts["--jars"])); len(jars) > 0 {
		p.addConf("spark.jars", strings.Join(jars, ","), src+" --jars")
	}
	if pf := first(opts["--properties-file"]); pf != "" {
		p.warn(fmt.Sprintf("%s: --properties-file %s: import that file too to see its confs", src, pf))
	}
}

// gcloudList splits a gcloud list flag: a,b,c, or ^#^a#b#c with an
// alternate delimiter.
func gcloudList(v string) []string {
	sep := ","
	if len(v) > 2 && v[0] == '^' {
		if end := strings.IndexByte(v[1:], '^'); end > 0 {
			sep, v = v[1:end+1], v[end+2:]
		}
	}
	var out []string
	for _, e := range strings.Split(v, sep) {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// gcloudDict splits a gcloud dict flag: k=v,k2=v2 (or ^#^k=v#k2=v2).
func gcloudDict(v string) map[string]string {
	out := map[string]string{}
	for _, e := range gcloudList(v) {
		if k, val, ok := strings.Cut(e, "="); ok {
			out[k] = val
		}
	}
	return out
}
