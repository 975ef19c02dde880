"""Hive-format bucketed tables written by a real Spark, for engine/store's Hive layout.

Run under a pyspark venv (${BUCKETLINT_VENV_DIR:-~/.cache/bucketlint}/venv-<version>/bin/python):

    python oracle/hive_written.py --out engine/testdata/spark/hive-<version>

Spark runs with Hive support (enableHiveSupport(), the Hive 2.3.9 jars pip's pyspark ships)
on a scratch Derby metastore and warehouse in a temporary directory it removes. Each table is
created as a Hive table (``CREATE TABLE … STORED AS PARQUET CLUSTERED BY (…) INTO n BUCKETS``)
and filled with ``INSERT INTO … SELECT …`` from a view of spark.range with a fixed number of
partitions, so the number of write tasks is known. Since Spark 3.3 such writes put a row in
bucket pmod(HiveHash(bucket columns) & Int.MaxValue, n) and prefix the file name with the
bucket id as %05d_0_ (SPARK-32709).

The Parquet files are copied to --out/<table>/ (no .crc files) and --out/record.json states
the Spark version, the command, each table's DDL, schema, bucket columns, write tasks and
files, and the executed plan of a scan and of a self-join of one table: Spark does not read
Hive bucketed tables with a bucketed scan, so the join shuffles.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile

# The rows every table holds: ints, bigints beyond 32 bits, strings with NULLs and non-ASCII
# text, dates and timestamps (with microseconds) before and after the epoch, decimals with
# trailing zeros, doubles with -0.0 and NaN, and a unique double v that keeps the rows' order.
SOURCE = [
    "CAST((id * 7) % 61 - 20 AS INT) AS k",
    "(id * 4294967311) % 1000003 - 500000 AS b",
    "CASE WHEN id % 13 = 0 THEN NULL WHEN id % 5 = 0 THEN concat('é', CAST(id % 7 AS STRING)) "
    "ELSE concat('s', CAST(id % 29 AS STRING)) END AS s",
    "date_add(DATE'1969-12-01', CAST(id % 97 AS INT)) AS dt",
    "timestamp_micros(id * 3600123457 - 500000000000) AS ts",
    "CAST((id % 97 - 40) * 0.125 AS DECIMAL(10,3)) AS dec",
    "CASE WHEN id % 17 = 0 THEN CAST('-0.0' AS DOUBLE) WHEN id % 19 = 0 THEN CAST('NaN' AS DOUBLE) "
    "WHEN id % 23 = 0 THEN NULL ELSE (id % 41 - 20) / 3.0 END AS d",
    "CAST(id AS DOUBLE) / 8 AS v",
]
SCHEMA = "k int, b bigint, s string, dt date, ts timestamp, dec decimal(10,3), d double, v double"

# name, bucket columns, buckets, write tasks, sort columns.
TABLES = [
    ("hv_int", ["k"], 4, 1, []),
    ("hv_bigint", ["b"], 4, 1, []),
    ("hv_string", ["s"], 4, 1, []),
    ("hv_date", ["dt"], 4, 1, []),
    ("hv_timestamp", ["ts"], 4, 1, []),
    ("hv_decimal", ["dec"], 4, 1, []),
    ("hv_double", ["d"], 4, 1, []),
    ("hv_multi", ["s", "dt"], 4, 2, ["k"]),
]
ROWS = 400


def session(tmp: str):
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    derby = os.path.join(tmp, "metastore_db")
    spark = (SparkSession.builder.master("local[2]").appName("bucketlint-hive-written")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.warehouse.dir", os.path.join(tmp, "warehouse"))
             .config("spark.local.dir", os.path.join(tmp, "local"))
             .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={tmp} -Djava.io.tmpdir={tmp}")
             .config("spark.hadoop.javax.jdo.option.ConnectionURL", f"jdbc:derby:;databaseName={derby};create=true")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.sql.autoBroadcastJoinThreshold", "-1")
             .config("spark.sql.adaptive.enabled", "false")
             .enableHiveSupport()
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def write_table(spark, name, cols, n, tasks, sort) -> dict:
    spark.range(0, ROWS, 1, tasks).selectExpr(*SOURCE).createOrReplaceTempView(f"src_{name}")
    sorted_by = f" SORTED BY ({', '.join(sort)})" if sort else ""
    ddl = (f"CREATE TABLE {name} ({SCHEMA}) CLUSTERED BY ({', '.join(cols)}){sorted_by} "
           f"INTO {n} BUCKETS STORED AS PARQUET")
    spark.sql(ddl)
    insert = f"INSERT INTO {name} SELECT * FROM src_{name}"
    spark.sql(insert)
    meta = spark.sql(f"DESCRIBE FORMATTED {name}").collect()
    location = next(r.data_type for r in meta if r.col_name.strip() == "Location")
    provider = next((r.data_type for r in meta if r.col_name.strip() == "Provider"), "")
    path = location.removeprefix("file:")
    files = sorted(f for f in os.listdir(path) if not f.startswith((".", "_")))
    return {"name": name, "ddl": ddl, "insert": insert, "provider": provider, "schema": SCHEMA,
            "bucket_columns": cols, "sort_columns": sort, "buckets": n, "tasks": tasks,
            "rows": ROWS, "files": files, "path": path}


def executed_plan(spark, sql: str, warehouse: str) -> list[str]:
    """The executed plan's lines without expression ids, plan ids or the scratch path."""
    text = spark.sql(sql)._jdf.queryExecution().executedPlan().toString()
    text = text.replace("file:" + warehouse, "<warehouse>")
    text = re.sub(r"#\d+L?", "", text)
    return re.sub(r"plan_id=\d+", "plan_id=N", text).splitlines()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="empty or new directory for the record and files")
    args = ap.parse_args()
    if os.path.exists(args.out) and os.listdir(args.out):
        ap.error(f"{args.out} is not empty")
    tmp = tempfile.mkdtemp(prefix="bucketlint-hive-written-")
    try:
        import pyspark

        spark = session(tmp)
        warehouse = os.path.realpath(os.path.join(tmp, "warehouse"))
        tables = [write_table(spark, *t) for t in TABLES]
        for t in tables:
            dst = os.path.join(args.out, t["name"])
            os.makedirs(dst)
            for f in t["files"]:
                shutil.copyfile(os.path.join(t["path"], f), os.path.join(dst, f))
            del t["path"]
        record = {
            "spark_version": spark.version,
            "pyspark_version": pyspark.__version__,
            "command": "python oracle/hive_written.py --out engine/testdata/spark/hive-" + spark.version,
            "confs": {"spark.sql.catalogImplementation": "hive", "spark.sql.autoBroadcastJoinThreshold": "-1",
                      "spark.sql.adaptive.enabled": "false", "spark.sql.session.timeZone": "UTC"},
            "tables": tables,
            "scan_plan": executed_plan(spark, "SELECT * FROM hv_int", warehouse),
            "join_plan": executed_plan(spark, "SELECT * FROM hv_int a JOIN hv_int b ON a.k = b.k", warehouse),
        }
        spark.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    with open(os.path.join(args.out, "record.json"), "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
