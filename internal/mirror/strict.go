package mirror

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/exitcode"
	"go.yaml.in/yaml/v3"
)

// Strict types for the cluster importers. The importers read decoded trees
// loosely (asMap, num, str), so a value of the wrong type would read as
// empty; checkTypes walks the same bytes against the shape of what the
// importer reads (the types below) and refuses the first mismatch at its
// line:col (exit 2), naming the field, the type found and the type wanted. Keys the
// shapes do not name are not checked; null is accepted everywhere.

// number is a field read with num: a JSON number or a string holding one.
type number struct{}

// scalar is a field read with str: anything but an object or an array.
type scalar struct{}

type (
	dbCluster struct {
		SparkVersion          scalar `json:"spark_version"`
		EffectiveSparkVersion scalar `json:"effective_spark_version"`
		RuntimeEngine         scalar `json:"runtime_engine"`
		NodeTypeID            scalar `json:"node_type_id"`
		DriverNodeTypeID      scalar `json:"driver_node_type_id"`
		NumWorkers            number `json:"num_workers"`
		Autoscale             struct {
			MinWorkers number `json:"min_workers"`
			MaxWorkers number `json:"max_workers"`
		} `json:"autoscale"`
		SparkConf    map[string]scalar `json:"spark_conf"`
		SparkEnvVars map[string]scalar `json:"spark_env_vars"`
		InitScripts  []map[string]struct {
			Destination scalar `json:"destination"`
		} `json:"init_scripts"`
		AWSAttributes   map[string]any `json:"aws_attributes"`
		AzureAttributes map[string]any `json:"azure_attributes"`
		GCPAttributes   map[string]any `json:"gcp_attributes"`
		DockerImage     struct {
			URL scalar `json:"url"`
		} `json:"docker_image"`
	}
	dbLibrary struct {
		Maven struct {
			Coordinates scalar   `json:"coordinates"`
			Exclusions  []scalar `json:"exclusions"`
		} `json:"maven"`
	}
	dbSpec struct {
		dbCluster
		Settings    *dbSpec    `json:"settings"`
		NewCluster  *dbCluster `json:"new_cluster"`
		JobClusters []struct {
			JobClusterKey scalar     `json:"job_cluster_key"`
			NewCluster    *dbCluster `json:"new_cluster"`
		} `json:"job_clusters"`
		Tasks []struct {
			NewCluster *dbCluster  `json:"new_cluster"`
			Libraries  []dbLibrary `json:"libraries"`
		} `json:"tasks"`
	}

	// EMR keys are matched case-insensitively, as the importer reads them.
	emrConfiguration struct {
		Classification scalar             `json:"Classification"`
		Properties     map[string]scalar  `json:"Properties"`
		Configurations []emrConfiguration `json:"Configurations"`
	}
	emrConfigurations struct {
		Configurations []emrConfiguration `json:"Configurations"`
	}
	emrDescribe struct {
		Cluster struct {
			ReleaseLabel scalar `json:"ReleaseLabel"`
			Applications []struct {
				Name    scalar `json:"Name"`
				Version scalar `json:"Version"`
			} `json:"Applications"`
			Configurations []emrConfiguration `json:"Configurations"`
			InstanceGroups []struct {
				InstanceGroupType      scalar             `json:"InstanceGroupType"`
				InstanceType           scalar             `json:"InstanceType"`
				RequestedInstanceCount number             `json:"RequestedInstanceCount"`
				RunningInstanceCount   number             `json:"RunningInstanceCount"`
				Configurations         []emrConfiguration `json:"Configurations"`
			} `json:"InstanceGroups"`
			InstanceFleets []struct {
				InstanceFleetType      scalar `json:"InstanceFleetType"`
				TargetOnDemandCapacity number `json:"TargetOnDemandCapacity"`
				TargetSpotCapacity     number `json:"TargetSpotCapacity"`
			} `json:"InstanceFleets"`
		} `json:"Cluster"`
	}

	dataprocNode struct {
		MachineTypeURI scalar `json:"machineTypeUri"`
		NumInstances   number `json:"numInstances"`
		Accelerators   []struct {
			AcceleratorCount   number `json:"acceleratorCount"`
			AcceleratorTypeURI scalar `json:"acceleratorTypeUri"`
		} `json:"accelerators"`
	}
	dataprocDescribe struct {
		Config struct {
			SoftwareConfig struct {
				ImageVersion scalar            `json:"imageVersion"`
				Properties   map[string]scalar `json:"properties"`
			} `json:"softwareConfig"`
			MasterConfig          dataprocNode `json:"masterConfig"`
			WorkerConfig          dataprocNode `json:"workerConfig"`
			SecondaryWorkerConfig dataprocNode `json:"secondaryWorkerConfig"`
			GCEClusterConfig      struct {
				Metadata map[string]scalar `json:"metadata"`
			} `json:"gceClusterConfig"`
			InitializationActions []struct {
				ExecutableFile scalar `json:"executableFile"`
			} `json:"initializationActions"`
		} `json:"config"`
		VirtualClusterConfig struct {
			KubernetesClusterConfig struct {
				KubernetesSoftwareConfig struct {
					Properties       map[string]scalar `json:"properties"`
					ComponentVersion map[string]scalar `json:"componentVersion"`
				} `json:"kubernetesSoftwareConfig"`
			} `json:"kubernetesClusterConfig"`
		} `json:"virtualClusterConfig"`
	}
	toolsGPU struct {
		Count number `json:"count"`
		Name  scalar `json:"name"`
	}
	toolsCluster struct {
		System struct {
			NumWorkers number `json:"numWorkers"`
		} `json:"system"`
		GPU                toolsGPU          `json:"gpu"`
		SoftwareProperties map[string]scalar `json:"softwareProperties"`
		WorkerInfo         struct {
			InstanceType scalar   `json:"instanceType"`
			GPU          toolsGPU `json:"gpu"`
			CPUCores     number   `json:"cpuCores"`
			MemoryGB     number   `json:"memoryGB"`
		} `json:"workerInfo"`
		SparkProperties struct {
			TuningDefinitions []any             `json:"tuningDefinitions"`
			Enforced          map[string]scalar `json:"enforced"`
		} `json:"sparkProperties"`
		Config struct {
			WorkerConfig struct {
				NumWorkers number `json:"numWorkers"`
			} `json:"workerConfig"`
		} `json:"config"`
	}
	sparkPodEnv []struct {
		Name  scalar `json:"name"`
		Value scalar `json:"value"`
	}
	sparkPod struct {
		Cores          scalar `json:"cores"`
		Memory         scalar `json:"memory"`
		MemoryOverhead scalar `json:"memoryOverhead"`
		Instances      scalar `json:"instances"`
		GPU            struct {
			Name     scalar `json:"name"`
			Quantity number `json:"quantity"`
		} `json:"gpu"`
		Env      sparkPodEnv `json:"env"`
		Template struct {
			Spec struct {
				Containers []struct {
					Env sparkPodEnv `json:"env"`
				} `json:"containers"`
			} `json:"spec"`
		} `json:"template"`
	}
	sparkAppSpec struct {
		SparkVersion        scalar            `json:"sparkVersion"`
		Image               scalar            `json:"image"`
		PythonVersion       scalar            `json:"pythonVersion"`
		MainApplicationFile scalar            `json:"mainApplicationFile"`
		Driver              sparkPod          `json:"driver"`
		Executor            sparkPod          `json:"executor"`
		SparkConf           map[string]scalar `json:"sparkConf"`
		HadoopConf          map[string]scalar `json:"hadoopConf"`
		Deps                struct {
			Jars     []scalar `json:"jars"`
			Packages []scalar `json:"packages"`
		} `json:"deps"`
		DynamicAllocation map[string]scalar `json:"dynamicAllocation"`
	}
	sparkApplication struct {
		Spec sparkAppSpec `json:"spec"`
	}
	scheduledSparkApplication struct {
		Spec struct {
			Schedule scalar       `json:"schedule"`
			Template sparkAppSpec `json:"template"`
		} `json:"spec"`
	}
)

// typeError is a value of the wrong type in an imported file.
type typeError struct {
	path, field, found, want string
	line, col                int
	hint                     string
}

func (e *typeError) Error() string {
	return fmt.Sprintf("mirror: %s:%d:%d: %s is %s, want %s; %s", e.path, e.line, e.col, e.field, e.found, e.want, e.hint)
}

// checkTypes checks data (JSON or YAML) against shape, a value of one of the
// types above; keys match case-insensitively when fold is set. A file that
// does not parse here is left to the importer's own decoder.
func checkTypes(path string, data []byte, shape any, fold bool, hint string) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(stripTrailingCommas(data), &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	return checkNodeTypes(path, doc.Content[0], shape, fold, hint)
}

// checkNodeTypes is checkTypes on one decoded document.
func checkNodeTypes(path string, root *yaml.Node, shape any, fold bool, hint string) error {
	c := typeChecker{fold: fold, seen: map[*yaml.Node]bool{}}
	if e := c.walk(root, reflect.TypeOf(shape), ""); e != nil {
		e.path, e.hint = path, hint
		return exitcode.With(exitcode.Usage, e)
	}
	return nil
}

type typeChecker struct {
	fold bool
	seen map[*yaml.Node]bool // aliases are checked once
}

var (
	numberType = reflect.TypeOf(number{})
	scalarType = reflect.TypeOf(scalar{})
)

func (c typeChecker) walk(n *yaml.Node, t reflect.Type, at string) *typeError {
	for n.Kind == yaml.AliasNode {
		if c.seen[n.Alias] {
			return nil
		}
		c.seen[n.Alias] = true
		n = n.Alias
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	wantKind, want, checked := wanted(t)
	if !checked {
		return nil
	}
	if n.Kind != wantKind || (t == numberType && !isNumber(n)) {
		return &typeError{field: strings.TrimPrefix(at, "."), found: nodeType(n), want: want, line: n.Line, col: n.Column}
	}
	return c.children(n, t, at)
}

// wanted is the node kind a shape type wants, and its name; any is not checked.
func wanted(t reflect.Type) (yaml.Kind, string, bool) {
	switch {
	case t == numberType:
		return yaml.ScalarNode, "a number", true
	case t == scalarType:
		return yaml.ScalarNode, "a string", true
	case t.Kind() == reflect.Struct, t.Kind() == reflect.Map:
		return yaml.MappingNode, "an object", true
	case t.Kind() == reflect.Slice:
		return yaml.SequenceNode, "an array", true
	}
	return 0, "", false
}

// children walks the elements of an array or the values of an object.
func (c typeChecker) children(n *yaml.Node, t reflect.Type, at string) *typeError {
	if t.Kind() == reflect.Slice {
		for i, e := range n.Content {
			if err := c.walk(e, t.Elem(), fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, elem := n.Content[i].Value, t
		if t.Kind() == reflect.Map {
			elem = t.Elem()
		} else if f, ok := c.field(t, key); ok {
			elem = f.Type
		} else {
			continue
		}
		if err := c.walk(n.Content[i+1], elem, at+"."+key); err != nil {
			return err
		}
	}
	return nil
}

// field finds the struct field (embedded structs included) named key.
func (c typeChecker) field(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			if g, ok := c.field(f.Type, key); ok {
				return g, true
			}
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == key || (c.fold && strings.EqualFold(name, key)) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func isNumber(n *yaml.Node) bool {
	if n.Tag == "!!int" || n.Tag == "!!float" {
		return true
	}
	_, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64)
	return n.Tag == "!!str" && err == nil
}

func nodeType(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "an object"
	case yaml.SequenceNode:
		return "an array"
	}
	switch n.Tag {
	case "!!int", "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!str":
		return "a string"
	}
	return "a " + strings.TrimPrefix(n.Tag, "!!")
}
