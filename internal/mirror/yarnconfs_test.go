package mirror

import "testing"

func TestPlatformFromYARNConfs(t *testing.T) {
	for _, tc := range []struct{ name, conf, want string }{
		{"history server address", "spark.yarn.historyServer.address = jh1:18080\nspark.eventLog.enabled = true\n", "yarn"},
		{"queue", "spark.yarn.queue default\n", "yarn"},
		{"master says kubernetes", "spark.master k8s://https://api:6443\nspark.yarn.queue q\n", "kubernetes"},
		{"master says local", "spark.master local[*]\nspark.yarn.queue q\n", "local"},
		{"kubernetes keys too", "spark.kubernetes.namespace spark\nspark.yarn.queue q\n", ""},
		{"no YARN key", "spark.sql.shuffle.partitions 200\nspark.executorEnv.YARN_CONF_DIR /etc\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := importBytes("spark-defaults.conf", FormatSparkDefaults, []byte(tc.conf))
			if err != nil {
				t.Fatal(err)
			}
			eq(t, "platform", p.Source.Platform, tc.want)
		})
	}
}
