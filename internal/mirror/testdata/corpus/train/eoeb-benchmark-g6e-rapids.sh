#!/bin/bash
# Benchmark script for g6e.8xlarge instances with RAPIDS GPU acceleration
# This script will:
# 1. Scale g6e node group to 8 nodes
# 2. Run TPC-DS benchmark with RAPIDS enabled
# 3. Scale back to 0 after completion

set -e

INSTANCE_TYPE="g6e-8xlarge"
NODE_GROUP="g6e-8xl-ng"
NUM_NODES=8
EXECUTORS=8  # 1 GPU per node, 1 executor per GPU

export AWS_PROFILE=aws-emr-bda-admin
export EMRCLUSTER_NAME=emr-on-eks-nvme
export AWS_REGION=us-east-1
export ACCOUNTID=$(aws sts get-caller-identity --query Account --output text)
export VIRTUAL_CLUSTER_ID=$(aws emr-containers list-virtual-clusters --query "virtualClusters[?name == '$EMRCLUSTER_NAME' && state == 'RUNNING'].id" --output text)
export EMR_ROLE_ARN=arn:aws:iam::$ACCOUNTID:role/$EMRCLUSTER_NAME-execution-role
export S3BUCKET=$EMRCLUSTER_NAME-$ACCOUNTID-$AWS_REGION
export ECR_URL="$ACCOUNTID.dkr.ecr.$AWS_REGION.amazonaws.com"

echo "=== Scaling $NODE_GROUP to $NUM_NODES nodes ==="
eksctl scale nodegroup --cluster=eks-nvme --name=$NODE_GROUP --nodes=$NUM_NODES --region=$AWS_REGION

echo "=== Waiting for nodes to be ready ==="
sleep 60
kubectl wait --for=condition=Ready nodes -l instance-type=$INSTANCE_TYPE --timeout=300s

echo "=== Starting TPC-DS benchmark on $INSTANCE_TYPE with RAPIDS ==="
JOB_ID=$(aws emr-containers start-job-run \
--virtual-cluster-id $VIRTUAL_CLUSTER_ID \
--name tpcds-benchmark-$INSTANCE_TYPE-rapids \
--execution-role-arn $EMR_ROLE_ARN \
--release-label emr-7.12.0-spark-rapids-latest \
--job-driver '{
  "sparkSubmitJobDriver": {
      "entryPoint": "s3://'$S3BUCKET'/app_code/job/eks-spark-benchmark-assembly-1.0.jar",
      "entryPointArguments":["s3://blogpost-sparkoneks-us-east-1/blog/BLOG_TPCDS-TEST-3T-partitioned","s3://'$S3BUCKET'/EMRONEKS_TPCDS-TEST-3T-RESULT-'$INSTANCE_TYPE'-rapids","/opt/tpcds-kit/tools","parquet","3000","1","false","q1-v2.4,q10-v2.4,q11-v2.4,q12-v2.4,q13-v2.4,q14a-v2.4,q14b-v2.4,q15-v2.4,q16-v2.4,q17-v2.4,q18-v2.4,q19-v2.4,q2-v2.4,q20-v2.4,q21-v2.4,q22-v2.4,q23a-v2.4,q23b-v2.4,q24a-v2.4,q24b-v2.4,q25-v2.4,q26-v2.4,q27-v2.4,q28-v2.4,q29-v2.4,q3-v2.4,q30-v2.4,q31-v2.4,q32-v2.4,q33-v2.4,q34-v2.4,q35-v2.4,q36-v2.4,q37-v2.4,q38-v2.4,q39a-v2.4,q39b-v2.4,q4-v2.4,q40-v2.4,q41-v2.4,q42-v2.4,q43-v2.4,q44-v2.4,q45-v2.4,q46-v2.4,q47-v2.4,q48-v2.4,q49-v2.4,q5-v2.4,q50-v2.4,q51-v2.4,q52-v2.4,q53-v2.4,q54-v2.4,q55-v2.4,q56-v2.4,q57-v2.4,q58-v2.4,q59-v2.4,q6-v2.4,q60-v2.4,q61-v2.4,q62-v2.4,q63-v2.4,q64-v2.4,q65-v2.4,q66-v2.4,q67-v2.4,q68-v2.4,q69-v2.4,q7-v2.4,q70-v2.4,q71-v2.4,q72-v2.4,q73-v2.4,q74-v2.4,q75-v2.4,q76-v2.4,q77-v2.4,q78-v2.4,q79-v2.4,q8-v2.4,q80-v2.4,q81-v2.4,q82-v2.4,q83-v2.4,q84-v2.4,q85-v2.4,q86-v2.4,q87-v2.4,q88-v2.4,q89-v2.4,q9-v2.4,q90-v2.4,q91-v2.4,q92-v2.4,q93-v2.4,q94-v2.4,q95-v2.4,q96-v2.4,q97-v2.4,q98-v2.4,q99-v2.4,ss_max-v2.4","true"],
      "sparkSubmitParameters": "--class com.amazonaws.eks.tpcds.BenchmarkSQL --conf spark.driver.cores=4 --conf spark.driver.memory=40g --conf spark.executor.cores=16 --conf spark.executor.memory=20g --conf spark.executor.instances='$EXECUTORS' --conf spark.executor.resource.gpu.amount=1 --conf spark.task.resource.gpu.amount=0.0625"}}' \
--configuration-overrides '{
    "applicationConfiguration": [
      {
        "classification": "spark-defaults", 
        "properties": {
          "spark.rapids.sql.enabled": "true",
          "spark.rapids.sql.explain": "ALL",
          "spark.rapids.perfio.s3.enabled": "false",
          "spark.plugins": "com.nvidia.spark.SQLPlugin",
          "spark.rapids.memory.pinnedPool.size": "6g",
          "spark.rapids.memory.host.spillStorageSize": "48G",
          "spark.rapids.sql.concurrentGpuTasks": "3",
          "spark.rapids.filecache.enabled": "true",
          "spark.rapids.shuffle.multiThreaded.writer.threads": "32",
          "spark.rapids.shuffle.multiThreaded.reader.threads": "32",
          "spark.rapids.sql.multiThreadedRead.numThreads": "100",
          "spark.locality.wait": "0s",
          "spark.scheduler.minRegisteredResourcesRatio": "1.0",
          "spark.sql.files.maxPartitionBytes": "2gb",
          "spark.dynamicAllocation.enabled": "false",
          "spark.network.timeout": "2000s",
          "spark.executor.heartbeatInterval": "300s",
          "spark.kubernetes.executor.limit.cores": "16.3",
          "spark.kubernetes.driver.limit.cores": "4.1",
          "spark.driver.memoryOverhead": "2G",
          "spark.executor.memoryOverhead": "24G",
          "spark.kubernetes.executor.podNamePrefix": "emr-eks-tpcds-'$INSTANCE_TYPE'-rapids",
          "spark.executor.defaultJavaOptions": "-verbose:gc -XX:+UseParallelGC -XX:InitiatingHeapOccupancyPercent=70",
          "spark.kubernetes.node.selector.instance-type": "'$INSTANCE_TYPE'",
          "spark.kubernetes.driver.node.selector.instance-type": "'$INSTANCE_TYPE'",
          "spark.kubernetes.executor.node.selector.instance-type": "'$INSTANCE_TYPE'"
         }}
    ], 
    "monitoringConfiguration": {
      "s3MonitoringConfiguration": {"logUri": "s3://'$S3BUCKET'/elasticmapreduce/emr-containers/'$INSTANCE_TYPE'-rapids"}}}' \
--query 'id' --output text)

echo "=== Job submitted: $JOB_ID ==="
echo "=== Monitor with: kubectl get pods -n emr | grep $INSTANCE_TYPE-rapids ==="
