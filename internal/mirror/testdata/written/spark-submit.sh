#!/bin/bash
# Written from the documented spark-submit options.
$SPARK_HOME/bin/spark-submit \
  --master k8s://https://10.0.0.1:6443 \
  --deploy-mode cluster \
  --name "gpu etl" \
  --num-executors 6 \
  --executor-cores 8 \
  --executor-memory 32g \
  --driver-memory=8g \
  --jars /opt/jars/rapids-4-spark_2.12-25.02.0.jar,s3a://bucket/extra.jar \
  --packages io.delta:delta-spark_2.12:3.1.0 \
  --conf spark.plugins=com.nvidia.spark.SQLPlugin \
  --conf "spark.executor.resource.gpu.amount=1" \
  --conf 'spark.task.resource.gpu.amount=0.125' \
  --conf spark.sql.adaptive.enabled=true \
  --conf spark.kubernetes.container.image=registry/spark:3.5.1 \
  --conf "spark.driver.extraJavaOptions=-Dconfig.token=abc -Xss4m" \
  --conf spark.serializer=org.apache.spark.serializer.KryoSerializer \
  local:///opt/app/etl.py --date 2024-01-01
