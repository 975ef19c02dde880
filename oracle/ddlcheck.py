"""Run CREATE TABLE statements through pyspark and record what Spark made of them.

For each statement: whether Spark accepted it (or the first line of its error), and for an
accepted one the DESCRIBE EXTENDED rows (also rendered in the spark-sql CLI layout), SHOW
CREATE TABLE, DESCRIBE EXTENDED ... AS JSON (4.x), and the bucket spec read from the session
catalog. parser/sql's TestSparkDDL checks that the parser agrees.

Usage (a venv made by oracle/setup.sh):
  ${BUCKETLINT_VENV_DIR:-$HOME/.cache/bucketlint}/venv-<version>/bin/python oracle/ddlcheck.py \
      parser/sql/testdata/spark/<version>/ddl.json

In-memory catalog, temporary warehouse, local[1]. Each statement uses its own table names.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile

CASES = [
    ("basic", "CREATE TABLE b_basic (a INT, b STRING) USING parquet CLUSTERED BY (a) INTO 4 BUCKETS"),
    ("sorted", "CREATE TABLE b_sorted (a INT, b STRING) USING parquet CLUSTERED BY (a) SORTED BY (b) INTO 8 BUCKETS"),
    ("sorted_asc", "CREATE TABLE b_sorted_asc (a INT, b STRING) USING parquet CLUSTERED BY (a) SORTED BY (b ASC, a) INTO 8 BUCKETS"),
    ("sorted_desc", "CREATE TABLE b_sorted_desc (a INT, b STRING) USING parquet CLUSTERED BY (a) SORTED BY (b DESC) INTO 8 BUCKETS"),
    ("partitioned", "CREATE TABLE b_part (a INT, b STRING, p STRING) USING parquet PARTITIONED BY (p) CLUSTERED BY (a) SORTED BY (a) INTO 2 BUCKETS"),
    ("multi_columns", "CREATE TABLE b_multi (a INT, b STRING, c BIGINT) USING parquet CLUSTERED BY (b, a) INTO 16 BUCKETS"),
    ("orc", "CREATE TABLE b_orc (a INT) USING orc CLUSTERED BY (a) INTO 4 BUCKETS"),
    ("csv_multipart_provider", "CREATE TABLE b_csv (a INT) USING org.apache.spark.sql.csv CLUSTERED BY (a) INTO 4 BUCKETS"),
    ("any_order", "CREATE TABLE b_order (a INT, b STRING) USING parquet COMMENT 'c' TBLPROPERTIES ('k' = 'v') CLUSTERED BY (a) INTO 4 BUCKETS OPTIONS (compression 'snappy')"),
    ("keyword_case", "create table b_case (a int, b string) using PARQUET clustered by (A) sorted by (B) into 2 buckets"),
    ("backticks", "CREATE TABLE `b_Odd Name` (`A` INT, `b``x` STRING) USING parquet CLUSTERED BY (`A`) INTO 2 BUCKETS"),
    ("three_part", "CREATE TABLE spark_catalog.default.b_three (a INT) USING parquet CLUSTERED BY (a) INTO 3 BUCKETS"),
    ("comments", "CREATE TABLE b_comments (a INT /* x */, b STRING) -- c\nUSING parquet CLUSTERED BY (a) INTO 5 BUCKETS"),
    ("ctas", "CREATE TABLE b_ctas USING parquet CLUSTERED BY (id) SORTED BY (v) INTO 4 BUCKETS AS SELECT id, id * 2 AS v FROM range(10)"),
    ("like", "CREATE TABLE b_like LIKE b_sorted"),
    ("not_bucketed", "CREATE TABLE b_none (a INT) USING parquet PARTITIONED BY (a)"),
    ("zero_buckets", "CREATE TABLE b_zero (a INT) USING parquet CLUSTERED BY (a) INTO 0 BUCKETS"),
    ("too_many_buckets", "CREATE TABLE b_many (a INT) USING parquet CLUSTERED BY (a) INTO 100001 BUCKETS"),
    ("max_buckets", "CREATE TABLE b_max (a INT) USING parquet CLUSTERED BY (a) INTO 100000 BUCKETS"),
    ("missing_column", "CREATE TABLE b_missing (a INT) USING parquet CLUSTERED BY (zz) INTO 4 BUCKETS"),
    ("bucket_is_partition", "CREATE TABLE b_bp (a INT, b INT) USING parquet PARTITIONED BY (a) CLUSTERED BY (a) INTO 4 BUCKETS"),
    ("no_schema", "CREATE TABLE b_noschema USING parquet CLUSTERED BY (a) INTO 4 BUCKETS"),
    ("long_literal", "CREATE TABLE b_long (a INT) USING parquet CLUSTERED BY (a) INTO 4L BUCKETS"),
    ("duplicate_clause", "CREATE TABLE b_dup (a INT, b INT) USING parquet CLUSTERED BY (a) INTO 4 BUCKETS CLUSTERED BY (b) INTO 8 BUCKETS"),
    ("hive_stored_as", "CREATE TABLE b_hive (a INT) CLUSTERED BY (a) INTO 4 BUCKETS STORED AS ORC"),
    ("no_provider", "CREATE TABLE b_noprov (a INT) CLUSTERED BY (a) INTO 4 BUCKETS"),
    ("transform_bucket", "CREATE TABLE b_transform (a INT, b STRING) USING parquet PARTITIONED BY (bucket(4, a))"),
    ("cluster_by", "CREATE TABLE b_clusterby (a INT, b STRING) USING parquet CLUSTER BY (a)"),
    ("replace", "CREATE OR REPLACE TABLE b_replace (a INT) USING parquet CLUSTERED BY (a) INTO 4 BUCKETS"),
    ("temporary", "CREATE TEMPORARY TABLE b_temp (a INT) USING parquet CLUSTERED BY (a) INTO 4 BUCKETS"),
    ("delta", "CREATE TABLE b_delta (a INT) USING delta CLUSTERED BY (a) INTO 4 BUCKETS"),
]


def cli_layout(rows) -> str:
    """DESCRIBE rows as the spark-sql CLI prints them: each cell padded to 20, tab-separated."""
    lines = []
    for r in rows:
        cells = ["" if c is None else str(c) for c in r]
        lines.append("\t".join(c.ljust(20) for c in cells).rstrip())
    return "\n".join(lines) + "\n"


def bucket_spec(spark, name: str):
    """The catalog's bucket spec of a table, read through the session catalog."""
    ident = spark._jvm.org.apache.spark.sql.catalyst.TableIdentifier(name)
    meta = spark._jsparkSession.sessionState().catalog().getTableMetadata(ident)
    spec = meta.bucketSpec()
    if not spec.isDefined():
        return None
    s = spec.get()
    return {
        "num_buckets": s.numBuckets(),
        "bucket_columns": [c for c in s.bucketColumnNames().mkString("\x00").split("\x00") if c],
        "sort_columns": [c for c in s.sortColumnNames().mkString("\x00").split("\x00") if c],
    }


def run_case(spark, name: str, sql: str) -> dict:
    rec = {"name": name, "sql": sql}
    before = {t.name for t in spark.catalog.listTables()}
    try:
        spark.sql(sql).collect()
    except Exception as e:  # noqa: BLE001 - any rejection is the answer
        rec["accepted"] = False
        rec["error_class"] = type(e).__name__
        msg = str(e).strip().splitlines()
        rec["error"] = msg[0] if msg else type(e).__name__
        return rec
    rec["accepted"] = True
    new = sorted({t.name for t in spark.catalog.listTables()} - before)
    if len(new) != 1:
        rec["table_error"] = f"tables created: {new}"
        return rec
    name = new[0]
    tab = "`" + name.replace("`", "``") + "`"
    steps = [
        ("describe_extended", lambda: cli_layout(
            [tuple(r) for r in spark.sql(f"DESCRIBE EXTENDED {tab}").collect()])),
        ("show_create", lambda: spark.sql(f"SHOW CREATE TABLE {tab}").collect()[0][0]),
        ("catalog_bucket", lambda: bucket_spec(spark, name)),
    ]
    if spark.version.startswith("4"):
        steps.append(("describe_json", lambda: spark.sql(
            f"DESCRIBE EXTENDED {tab} AS JSON").collect()[0][0]))
    for key, step in steps:
        try:
            rec[key] = step()
        except Exception as e:  # noqa: BLE001 - recorded, e.g. a temporary view has no metadata
            msg = str(e).strip().splitlines()
            rec[key + "_error"] = msg[0] if msg else type(e).__name__
    return rec


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    root = tempfile.mkdtemp(prefix="bucketlint-ddlcheck-")
    try:
        spark = (SparkSession.builder.master("local[1]").appName("bucketlint-ddlcheck")
                 .config("spark.ui.enabled", "false")
                 .config("spark.sql.warehouse.dir", os.path.join(root, "warehouse"))
                 .config("spark.sql.catalogImplementation", "in-memory")
                 .getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        out = {
            "spark_version": spark.version,
            "catalog": "in-memory",
            "command": "oracle/ddlcheck.py " + sys.argv[1],
            "cases": [run_case(spark, n, s) for n, s in CASES],
        }
        spark.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    out_text = json.dumps(out, indent=1, sort_keys=True).replace(root, "{root}")
    os.makedirs(os.path.dirname(os.path.abspath(sys.argv[1])), exist_ok=True)
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write(out_text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
