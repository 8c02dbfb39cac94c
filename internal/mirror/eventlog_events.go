package mirror

import "bytes"

// Event names read from event logs.
const (
	evLogStart    = "SparkListenerLogStart"
	evDBCMeta     = "DBCEventLoggingListenerMetadata"
	evEnv         = "SparkListenerEnvironmentUpdate"
	evRP          = "SparkListenerResourceProfileAdded"
	evExecAdded   = "SparkListenerExecutorAdded"
	evExecRemoved = "SparkListenerExecutorRemoved"
	evAppStart    = "SparkListenerApplicationStart"
	evBuildInfo   = "com.nvidia.spark.rapids.SparkRapidsBuildInfoEvent"
)

type logStartEvent struct {
	SparkVersion string `json:"Spark Version"`
}

type envEvent struct {
	JVM       map[string]any `json:"JVM Information"`
	Spark     map[string]any `json:"Spark Properties"`
	System    map[string]any `json:"System Properties"`
	Classpath map[string]any `json:"Classpath Entries"`
	// Long are the keys whose values were longer than maxEnvValue and
	// left out.
	Long []string `json:"-"`
}

type resourceRequest struct {
	Amount float64 `json:"Amount"`
}

type resourceProfileEvent struct {
	ID       int                        `json:"Resource Profile Id"` // 0 is the default profile
	Executor map[string]resourceRequest `json:"Executor Resource Requests"`
	Task     map[string]resourceRequest `json:"Task Resource Requests"`
}

type executorAddedEvent struct {
	ID   string `json:"Executor ID"`
	Info struct {
		Host       string            `json:"Host"`
		TotalCores int               `json:"Total Cores"`
		Profile    int               `json:"Resource Profile Id"`
		Attributes map[string]string `json:"Attributes"` // YARN: CONTAINER_ID, NM_HOST, ...
		Resources  map[string]struct {
			Addresses []string `json:"addresses"`
		} `json:"Resources"`
	} `json:"Executor Info"`
}

type executorRemovedEvent struct {
	ID     string `json:"Executor ID"`
	Reason string `json:"Removed Reason"`
}

type appStartEvent struct {
	AppID string `json:"App ID"`
}

type buildInfoEvent struct {
	Rapids map[string]any `json:"sparkRapidsBuildInfo"`
	Cudf   map[string]any `json:"cudfBuildInfo"`
}

var eventKey = []byte(`"Event"`)

// eventName finds the "Event" field near the start of a JSON line without
// decoding it (Spark writes it first). It returns nil when absent.
func eventName(line []byte) []byte {
	head := line
	if len(head) > 256 {
		head = head[:256]
	}
	i := bytes.Index(head, eventKey)
	if i < 0 {
		return nil
	}
	rest := line[i+len(eventKey):]
	j := 0
	for j < len(rest) && (rest[j] == ' ' || rest[j] == ':' || rest[j] == '\t') {
		j++
	}
	if j >= len(rest) || rest[j] != '"' {
		return nil
	}
	rest = rest[j+1:]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || end > 200 {
		return nil
	}
	return rest[:end]
}

// looksComplete reports whether a line could be a whole JSON object: it
// starts with '{' and ends with '}' (a cheap test for truncation).
func looksComplete(line []byte) bool {
	line = bytes.TrimSpace(line)
	return len(line) >= 2 && line[0] == '{' && line[len(line)-1] == '}'
}
