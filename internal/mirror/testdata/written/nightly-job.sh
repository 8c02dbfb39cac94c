#!/usr/bin/env bash
# Nightly GPU ETL: creates the cluster, then submits the job.
set -euo pipefail

RAPIDS_VERSION=24.06.0
RAPIDS_JAR=/opt/sparkRapidsPlugin/rapids-4-spark_2.12-${RAPIDS_VERSION}.jar
export JAVA_HOME=/usr/lib/jvm/java-11-openjdk-amd64
PKGS="io.delta:delta-spark_2.12:3.2.0,org.apache.hadoop:hadoop-aws:3.3.4"

# The cluster definition the job runs on (posted with the databricks CLI).
cat > /tmp/cluster.json <<'JSON'
{
  "cluster_name": "nightly-gpu",
  "spark_version": "13.3.x-gpu-ml-scala2.12",
  "node_type_id": "g5.4xlarge",
  "num_workers": 4,
  "aws_attributes": {"availability": "ON_DEMAND"},
  "spark_conf": {
    "spark.rapids.sql.concurrentGpuTasks": "2",
    "spark.task.resource.gpu.amount": "0.25"
  }
}
JSON
databricks clusters create --json @/tmp/cluster.json

# spark.sql.shuffle.partitions is tuned per run
$SPARK_HOME/bin/spark-submit \
  --master yarn \
  --jars "${RAPIDS_JAR}" \
  --packages "$PKGS" \
  --conf spark.plugins=com.nvidia.spark.SQLPlugin \
  --conf spark.shuffle.manager=com.nvidia.spark.rapids.spark341.RapidsShuffleManager \
  --conf spark.pyspark.python=/usr/bin/python3.10 \
  --conf spark.executorEnv.JAVA_HOME=$JAVA_HOME \
  --conf spark.sql.shuffle.partitions=${PARTITIONS:-200} \
  etl.py --date "$(date +%F)"
