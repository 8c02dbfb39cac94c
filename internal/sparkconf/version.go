package sparkconf

import (
	"fmt"
	"strconv"
	"strings"
)

// version is a dotted numeric version such as "3.5.1" or "25.06.0".
type version []int

// parseVersion reads a dotted numeric version with exactly parts parts.
func parseVersion(s string, parts int) (version, error) {
	fields := strings.Split(strings.TrimSpace(s), ".")
	if len(fields) != parts {
		return nil, fmt.Errorf("%q is not a %d-part version", s, parts)
	}
	v := make(version, parts)
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q is not a %d-part version", s, parts)
		}
		v[i] = n
	}
	return v, nil
}

// less reports whether v sorts before w.
func (v version) less(w version) bool {
	for i := 0; i < len(v) && i < len(w); i++ {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return len(v) < len(w)
}

// selfTunedConcurrencyFrom is the first plugin release that tunes
// spark.rapids.sql.concurrentGpuTasks at runtime (spark-rapids PR #12374).
var selfTunedConcurrencyFrom = version{25, 6, 0}

// ShuffleManagerClass returns the RAPIDS shuffle manager class for a Spark
// version: "3.5.1" gives com.nvidia.spark.rapids.spark351.RapidsShuffleManager.
func ShuffleManagerClass(spark string) (string, error) {
	v, err := parseVersion(spark, 3)
	if err != nil {
		return "", fmt.Errorf("spark version %w; the RAPIDS shuffle manager needs major.minor.patch, e.g. 3.5.1", err)
	}
	if v[0] > 9 || v[1] > 9 || v[2] > 9 {
		return "", fmt.Errorf("spark version %q has a part above 9, which no RAPIDS shim name can hold", spark)
	}
	return fmt.Sprintf("com.nvidia.spark.rapids.spark%d%d%d.RapidsShuffleManager", v[0], v[1], v[2]), nil
}
