"""devenv verify: run one query with the RAPIDS Accelerator on and off.

Usage: spark-submit verify.py [rows]   (default 10000000)

Builds spark.range(rows) with a random column, groups it with avg, stddev
and count, orders the groups, and collects the result twice: once with
spark.rapids.sql.enabled=true and once with false. For each run it prints
one JSON object (the executed plan text and the wall time) on its own line
between the DEVENV-VERIFY-BEGIN and DEVENV-VERIFY-END markers, for devenv
to parse. Everything else it prints goes to stderr.
"""
import json
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

BEGIN = "DEVENV-VERIFY-BEGIN"
END = "DEVENV-VERIFY-END"


def parse_rows(argv):
    if len(argv) < 2:
        return 10_000_000
    try:
        rows = int(argv[1])
    except ValueError:
        rows = 0
    if rows <= 0:
        sys.stderr.write("devenv verify: rows must be a positive whole number, got %r\n" % argv[1])
        sys.exit(2)
    return rows


def query(spark, rows):
    df = spark.range(rows).withColumn("r", F.rand(seed=7)).withColumn("k", F.col("id") % 1000)
    return (df.groupBy("k")
            .agg(F.avg("r").alias("avg_r"), F.stddev("r").alias("stddev_r"), F.count("*").alias("n"))
            .orderBy("k"))


def run(spark, rows, gpu):
    spark.conf.set("spark.rapids.sql.enabled", "true" if gpu else "false")
    # Build the DataFrame after setting the conf: plans are made per DataFrame.
    q = query(spark, rows)
    start = time.perf_counter()
    groups = len(q.collect())
    wall = time.perf_counter() - start
    # Read the plan of the DataFrame that ran, after the action, so that an
    # AdaptiveSparkPlan shows isFinalPlan=true and the operators that ran.
    plan = q._jdf.queryExecution().executedPlan().toString()
    return {"rapids_enabled": gpu, "rows": rows, "groups": groups,
            "wall_seconds": wall, "plan": plan}


def main():
    rows = parse_rows(sys.argv)
    spark = SparkSession.builder.appName("devenv-verify").getOrCreate()
    query(spark, 1000).collect()  # warm up the JVM and the GPU before timing
    results = [run(spark, rows, True), run(spark, rows, False)]
    spark.conf.set("spark.rapids.sql.enabled", "true")
    print(BEGIN)
    for r in results:
        print(json.dumps(r, sort_keys=True))
    print(END)
    sys.stdout.flush()
    spark.stop()


if __name__ == "__main__":
    main()
