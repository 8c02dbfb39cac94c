package mirror

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// logScan accumulates what an event log says.
type logScan struct {
	full bool
	lim  limits

	lines, events, bad, tooLong int
	tooManyObjects              int // events not decoded (eventlog_objects.go)
	cappedProps                 bool
	firstBad                    int
	lastPartialBad              bool
	linesAfterEnv               int
	codecs                      map[string]bool

	sawVersion, sawEnv bool
	versionSrc         string
	sparkBuild         string
	env                envEvent
	rps                map[int]*resourceProfileEvent // by id, as added
	appID              string
	buildRapids        string
	buildCudf          string
	failures           failureLog

	executors   map[string]string // executor id -> host (non-driver)
	shapes      executorShapes
	live, peak  int
	execGPUs    int
	firstExec   bool
	hosts       map[string]bool
	driverCores int
	yarnAttrs   bool // executors carry NodeManager attributes
}

func newLogScan(full bool) *logScan {
	return &logScan{full: full, codecs: map[string]bool{}, executors: map[string]string{}, hosts: map[string]bool{},
		rps: map[int]*resourceProfileEvent{}}
}

// done reports whether an early read has what it needs.
func (s *logScan) done() bool {
	if s.full || !s.sawVersion || !s.sawEnv {
		return false
	}
	return s.firstExec || s.linesAfterEnv > earlyBudget
}

func (s *logScan) badLine(line []byte) {
	s.bad++
	if s.firstBad == 0 {
		s.firstBad = s.lines
	}
}

// handle looks at one line: the event name first, and decodes only the
// events that carry environment facts.
func (s *logScan) handle(line []byte, last bool) {
	s.countLine()
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if !looksComplete(line) {
		s.badLine(line)
		s.lastPartialBad = last
		return
	}
	name := eventName(line)
	if name == nil {
		return
	}
	switch string(name) {
	case evLogStart, evDBCMeta:
		var e logStartEvent
		if s.decodeInto(line, &e) && e.SparkVersion != "" && !s.sawVersion {
			s.sawVersion, s.sparkBuild, s.versionSrc = true, e.SparkVersion, "eventlog:"+string(name)
		}
	case evEnv:
		if !s.sawEnv {
			s.readEnv(line)
		}
	case evRP:
		s.resourceProfileAdded(line)
	case evExecAdded:
		s.executorAdded(line)
	case evExecRemoved:
		var e executorRemovedEvent
		if s.full && s.decodeInto(line, &e) {
			if _, ok := s.executors[e.ID]; ok {
				s.live--
			}
			s.executorLost(e.ID, e.Reason)
		}
	case evJobEnd, evStageDone, evTaskEnd, evSQLStart, evSQLAdaptive:
		if s.full {
			s.failureEvent(string(name), line)
		}
	case evAppStart:
		var e appStartEvent
		if s.decodeInto(line, &e) {
			s.appID = e.AppID
		}
	case evBuildInfo:
		var e buildInfoEvent
		if s.decodeInto(line, &e) {
			s.buildRapids, s.buildCudf = str(e.Rapids["version"]), str(e.Cudf["version"])
		}
	}
}

func (s *logScan) countLine() {
	s.lines++
	if s.sawEnv {
		s.linesAfterEnv++
	}
}

// readEnv decodes the environment event with its entries capped.
func (s *logScan) readEnv(line []byte) {
	s.readEnvFrom(bytes.NewReader(line), line)
}

func (s *logScan) readEnvFrom(r io.Reader, line []byte) {
	e, capped, err := decodeEnvFrom(r)
	if err != nil {
		s.badLine(line)
		return
	}
	s.events++
	s.sawEnv, s.env, s.cappedProps = true, e, capped
}

// decoded are the events handle decodes; others are only counted.
var decoded = map[string]bool{evLogStart: true, evDBCMeta: true, evEnv: true, evRP: true, evExecAdded: true,
	evExecRemoved: true, evAppStart: true, evBuildInfo: true}

// longLine decides about a line longer than the read buffer from its head:
// the environment event is decoded as a stream, other needed events are
// buffered, the rest skipped unread.
func (s *logScan) longLine(head []byte, rest io.Reader) longLine {
	name := eventName(head)
	switch {
	case name != nil && string(name) == evEnv && !s.sawEnv:
		s.countLine()
		s.readEnvFrom(io.MultiReader(bytes.NewReader(head), rest), head)
		return streamedLine
	case name != nil && s.wants(string(name)):
		return bufferLine
	case name == nil:
		s.countLine()
		s.badLine(head)
		return skipLine
	}
	s.countLine()
	return skipLine
}

// wants reports whether handle decodes events of this name.
func (s *logScan) wants(name string) bool {
	return decoded[name] || s.full && failureEvents[name]
}

// apply writes what the scan found into p.
func (s *logScan) apply(p *Profile) {
	s.applyWarnings(p)
	if s.sawVersion {
		p.setSpark(s.sparkBuild, s.versionSrc, true)
	}
	s.applyEnv(p)
	s.applyResources(p)
	if s.buildRapids != "" {
		p.GPU.Rapids, p.GPU.RapidsProvenance = s.buildRapids, "eventlog:"+evBuildInfo
		p.GPU.Cudf = s.buildCudf
	}
	s.applyPlatform(p)
	if s.full {
		p.Failures = s.failures.sorted()
		if s.failures.more > 0 {
			p.warn(fmt.Sprintf("%d more kinds of failure past the first %d were not listed", s.failures.more, maxFailureKinds))
		}
	}
}

func (s *logScan) applyWarnings(p *Profile) {
	if s.bad > 0 {
		msg := fmt.Sprintf("%d of %d lines are not complete JSON events and were skipped (first at line %d)", s.bad, s.lines, s.firstBad)
		if s.lastPartialBad {
			msg += "; the log ends mid-line, so it was probably cut off while being written"
		}
		p.warn(msg)
	}
	if s.tooLong > 0 {
		p.warn(fmt.Sprintf("%d lines longer than %d MB were skipped (devenv reads events up to that size; such lines are usually huge SQL plans)", s.tooLong, maxLineSize>>20))
	}
	if s.tooManyObjects > 0 {
		p.warn(objectsWarning(s.tooManyObjects))
	}
	if len(s.env.Long) > 0 {
		p.warn(fmt.Sprintf("the environment event (%s) holds values longer than %d MB, left out: %s", evEnv, maxEnvValue>>20, strings.Join(s.env.Long, ", ")))
	}
	if s.cappedProps {
		p.warn(fmt.Sprintf("the environment event lists more than %d entries in one section: the entries past that, and the sections after it, were left out", maxProps))
	}
	if !s.sawEnv {
		p.warn("no readable " + evEnv + " event: Java, Scala and Spark confs are unknown")
	}
	if !s.sawVersion {
		p.warn("no " + evLogStart + " event: the Spark version is unknown")
	}
	codecs := slices.Sorted(maps.Keys(s.codecs))
	if len(codecs) > 0 {
		p.Source.Format = FormatEventLog + "+" + strings.Join(codecs, "+")
	}
}

func (s *logScan) applyEnv(p *Profile) {
	if !s.sawEnv {
		return
	}
	src := "eventlog:" + evEnv
	major, full, vendor := parseJava(str(s.env.JVM["Java Version"]))
	setStr(&p.Runtime.Java, &p.Runtime.JavaProvenance, major, src, true)
	p.Runtime.JavaFull, p.Runtime.JavaVendor = full, vendor
	if bin, fullScala := parseScala(str(s.env.JVM["Scala Version"])); bin != "" {
		p.Runtime.Scala, p.Runtime.ScalaFull, p.Runtime.ScalaProvenance = bin, fullScala, src
	}
	for _, k := range slices.Sorted(maps.Keys(s.env.Spark)) {
		p.addConf(k, str(s.env.Spark[k]), src)
	}
	s.applyClasspath(p)
}

var cudfJarRe = lazy.Regexp(`cudf-(\d+\.\d+(?:\.\d+)?)(?:-SNAPSHOT)?(?:-(cuda\d+(?:-\d+)?))?\.jar$`)

func (s *logScan) applyClasspath(p *Profile) {
	src := "eventlog:Classpath Entries"
	for _, entry := range slices.Sorted(maps.Keys(s.env.Classpath)) {
		if j, ok := findRapidsJar(entry); ok {
			p.setRapidsJar(j, src)
		}
		if m := cudfJarRe().FindStringSubmatch(path.Base(entry)); m != nil && p.GPU.Cudf == "" {
			p.GPU.Cudf = m[1]
			if m[2] != "" {
				setStr(&p.GPU.CUDA, &p.GPU.CUDAProvenance, strings.TrimPrefix(m[2], "cuda"), src+" (cudf jar classifier)", false)
			}
		}
	}
}

// applyPlatform recognizes the platform from fingerprints in confs,
// versions and paths.
func (s *logScan) applyPlatform(p *Profile) {
	c := p.Conf
	label := c["spark.databricks.clusterUsageTags.effectiveSparkVersion"]
	if label == "" {
		label = c["spark.databricks.clusterUsageTags.sparkVersion"]
	}
	switch {
	case label != "" || s.versionSrc == "eventlog:"+evDBCMeta || hasPrefixKey(c, "spark.databricks.clusterUsageTags.") || s.classpathHas("/databricks/jars"):
		p.Source.Platform = "databricks"
		p.Source.Cloud = strings.ToLower(c["spark.databricks.clusterUsageTags.cloudProvider"])
		if label != "" {
			p.applyDatabricksLabel(label, "eventlog:spark.databricks.clusterUsageTags.sparkVersion")
		} else {
			p.warn("the event log names no Databricks runtime (no spark.databricks.clusterUsageTags.sparkVersion); it is Databricks by its cluster tags and /databricks/jars paths, and Spark, Scala and Java come from the log itself; set the runtime's versions in devenv.yaml if they differ")
		}
		setInt(&p.Topology.Workers, &p.Topology.WorkersProvenance, num(c["spark.databricks.clusterUsageTags.clusterWorkers"]),
			"eventlog:spark.databricks.clusterUsageTags.clusterWorkers", true)
		p.Topology.WorkerType = firstNonEmpty(c["spark.databricks.clusterUsageTags.clusterNodeType"],
			firstNonEmpty(c["spark.databricks.clusterUsageTags.workerNodeTypeId"], c["spark.databricks.workerNodeTypeId"]))
		p.Topology.DriverType = c["spark.databricks.clusterUsageTags.driverNodeType"]
	case strings.Contains(s.sparkBuild, "-amzn-") || hasPrefixKey(c, "spark.emr.") || s.classpathHas("/usr/share/aws/emr"):
		p.Source.Platform, p.Source.Cloud = "emr", "aws"
	case hasPrefixKey(c, "spark.dataproc.") || s.classpathHas("/usr/local/share/google/dataproc"):
		p.Source.Platform, p.Source.Cloud = "dataproc", "gcp"
	case s.systemHasEMRCluster():
		p.Source.Platform, p.Source.Cloud = "emr", "aws"
	case dataprocByHosts(s.hosts, c["spark.driver.host"]):
		p.Source.Platform, p.Source.Cloud = "dataproc", "gcp"
	default:
		p.platformFromMaster()
		if p.Source.Platform == "" && (s.yarnAttrs || yarnAppRe().MatchString(s.appID)) {
			p.Source.Platform = "yarn"
		}
	}
	if p.Source.Cloud == "" {
		p.Source.Cloud = s.cloudFromHosts()
	}
}

// systemHasEMRCluster reports whether a system property names an EMR
// cluster id (j-...), as EMR's JVM options do.
func (s *logScan) systemHasEMRCluster() bool {
	for k, v := range s.env.System {
		sv := str(v)
		if (strings.Contains(strings.ToLower(k), "emr") || strings.Contains(strings.ToLower(sv), "emr")) && emrClusterRe().MatchString(sv) {
			return true
		}
	}
	return false
}

// cloudFromHosts names the cloud from the executors' internal host names.
func (s *logScan) cloudFromHosts() string {
	for _, h := range slices.Sorted(maps.Keys(s.hosts)) {
		switch {
		case strings.HasSuffix(h, ".ec2.internal") || strings.HasSuffix(h, ".compute.internal"):
			return "aws"
		case strings.Contains(h, ".c.") && strings.HasSuffix(h, ".internal"):
			return "gcp"
		case strings.HasSuffix(h, ".internal.cloudapp.net"):
			return "azure"
		}
	}
	return ""
}

func hasPrefixKey(m map[string]string, prefix string) bool {
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

func (s *logScan) classpathHas(fragment string) bool {
	keys := slices.Sorted(maps.Keys(s.env.Classpath))
	i := sort.SearchStrings(keys, fragment)
	return i < len(keys) && strings.HasPrefix(keys[i], fragment)
}
