"""Spark compatibility check of bucketlint's engine (engine/store and engine/exec).

Run by the opt-in Go test engine/exec TestSparkCompatLive (BUCKETLINT_SPARK=1), once per
pyspark venv (${BUCKETLINT_VENV_DIR:-~/.cache/bucketlint}/venv-<version>/bin/python):

    python oracle/engine_compat.py --manifest M.json --out R.json --spark-written DIR

Forward direction: the manifest lists tables engine/store wrote (Parquet files named
part-NNNNN-<uuid>_BBBBB.c000.snappy.parquet). Each is adopted with
``CREATE TABLE … USING parquet CLUSTERED BY (…) INTO n BUCKETS LOCATION '…'``; each query
is planned (broadcasts and AQE off) and run; the result records how many shuffle Exchanges
and bucketed scans Spark's executed plan has, and an order-independent checksum of the rows
computed exactly as the Go engine computes it (exec.AppendCanonical: values joined by 0x1f,
NULL as \\N, doubles as %.17g, decimals in plain notation with their scale's digits, dates
ISO, FNV-1a 64 per row, summed mod 2^64).

Reverse direction: Spark writes two tables with bucketBy/sortBy (three write tasks, so
tasks x buckets files) under --spark-written, runs the join over them, and records their
layout and the join's checksum; the Go side validates those files with engine/store.
"""
from __future__ import annotations

import argparse
import datetime
import decimal
import json
import os
import re
import shutil
import sys
import tempfile

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK = (1 << 64) - 1


def canonical(v) -> str:
    """One value as exec.AppendCanonical writes it."""
    if v is None:
        return "\\N"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "%.17g" % v
    if isinstance(v, decimal.Decimal):
        return format(v, "f")  # plain notation with the scale's digits: 0E-10 is 0.0000000000
    if isinstance(v, datetime.datetime):
        raise ValueError("timestamps are not compared")
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).decode("latin-1")
    return str(v)


def checksum(rows) -> dict:
    """Order-independent checksum of a multiset of rows."""
    total = 0
    n = 0
    for r in rows:
        text = "\x1f".join(canonical(v) for v in r).encode("utf-8")
        h = FNV_OFFSET
        for b in text:
            h ^= b
            h = (h * FNV_PRIME) & MASK
        total = (total + h) & MASK
        n += 1
    return {"rows": n, "sum": total}


def plan_facts(df) -> dict:
    """Shuffle Exchanges and bucketed scans of the executed plan."""
    text = df._jdf.queryExecution().executedPlan().toString()
    lines = text.splitlines()
    shuffles = [l for l in lines if re.search(r"\bExchange (hashpartitioning|rangepartitioning|SinglePartition|RoundRobin)", l)]
    return {
        "exchanges": len(shuffles),
        # A bucketed scan prints "Bucketed: true" (3.3+) or, before, only its
        # "SelectedBucketsCount: n out of m" (3.0-3.2 print no "Bucketed:" field at all).
        "bucketed_scans": len([l for l in lines if re.search(r"Bucketed: true|SelectedBucketsCount: ", l)]),
        "plan": [re.sub(r"#\d+L?", "", l.rstrip()) for l in lines if l.strip()],
        # The executed plan as explain prints it, ids included, for the Go engine to run.
        "physical_plan": "== Physical Plan ==\n" + text,
    }


def session(tmp: str):
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    # Spark before 3.3 needs the Java 11 runtime its venv carries (oracle/versions.txt).
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import versions  # noqa: PLC0415 - the oracle's own module, beside this script

    versions.use_venv_java()
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("bucketlint-engine-compat")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.warehouse.dir", os.path.join(tmp, "warehouse"))
             .config("spark.sql.catalogImplementation", "in-memory")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.sql.autoBroadcastJoinThreshold", "-1")
             .config("spark.sql.adaptive.enabled", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def adopt(spark, t: dict) -> None:
    sort = f" SORTED BY ({', '.join(t['sort_columns'])})" if t.get("sort_columns") else ""
    parts = t.get("partition_columns") or []
    part = f" PARTITIONED BY ({', '.join(parts)})" if parts else ""
    spark.sql(f"CREATE TABLE {t['name']} ({t['schema']}) USING parquet{part} "
              f"CLUSTERED BY ({', '.join(t['bucket_columns'])}){sort} INTO {t['buckets']} BUCKETS "
              f"LOCATION '{t['location']}'")
    if parts:
        spark.sql(f"ALTER TABLE {t['name']} RECOVER PARTITIONS")


def run_query(spark, q: dict) -> dict:
    df = spark.sql(q["sql"])
    facts = plan_facts(df)
    facts["name"] = q["name"]
    facts["sql"] = q["sql"]
    facts["checksum"] = checksum(df.collect())
    return facts


def spark_written(spark, out_dir: str) -> dict:
    """Tables Spark writes with bucketBy, for engine/store's layout validation."""
    src = spark.range(0, 1200).selectExpr(
        "(id * 7) % 113 AS k",
        "CAST(id % 17 AS INT) AS x",
        "CASE WHEN id % 13 = 0 THEN NULL ELSE concat('s', CAST(id % 23 AS STRING)) END AS s",
        "CASE WHEN id % 11 = 0 THEN NULL ELSE CAST(id AS DOUBLE) / 4 END AS d",
        "date_add(DATE'2020-01-01', CAST(id % 50 AS INT)) AS dt")
    other = spark.range(0, 500).selectExpr("(id * 3) % 97 AS k", "concat('o', CAST(id % 9 AS STRING)) AS o")
    # Decimals wider than 18 digits: a decimal(20,2) bucket key whose unscaled values pass
    # 2^63 (Spark hashes BigInteger.toByteArray), and a decimal(38,6) value column.
    dec = spark.range(0, 900).selectExpr(
        "CAST(concat(CAST((id * 7) % 113 - 56 AS STRING), '0000000000000000.', CAST(id % 100 AS STRING)) "
        "AS DECIMAL(20,2)) AS k",
        "CASE WHEN id % 10 = 0 THEN NULL ELSE CAST(concat(CAST(id - 450 AS STRING), "
        "'123456789012345678901.123456') AS DECIMAL(38,6)) END AS amt")
    tables = []
    for name, df, cols, n, sort in (("sw_a", src, ["k"], 4, ["x"]), ("sw_b", other, ["k"], 4, []),
                                    ("sw_s", src, ["s"], 5, []), ("sw_d", dec, ["k"], 6, [])):
        path = os.path.join(out_dir, name)
        w = df.repartition(3).write.format("parquet").option("path", path).bucketBy(n, *cols)
        if sort:
            w = w.sortBy(*sort)
        w.saveAsTable(name)
        tables.append({"name": name, "schema": ", ".join(f"{f.name} {f.dataType.simpleString()}" for f in df.schema.fields),
                       "bucket_columns": cols, "sort_columns": sort, "buckets": n,
                       "files": sorted(f for f in os.listdir(path) if f.endswith(".parquet"))})
    q = {"name": "spark_written_join", "sql": "SELECT * FROM sw_a JOIN sw_b ON sw_a.k = sw_b.k"}
    return {"tables": tables, "queries": [run_query(spark, q)]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--spark-written", required=True, help="empty directory for Spark-written tables")
    args = ap.parse_args()
    with open(args.manifest, encoding="utf-8") as f:
        manifest = json.load(f)
    tmp = tempfile.mkdtemp(prefix="bucketlint-engine-compat-")
    try:
        import pyspark

        spark = session(tmp)
        for t in manifest["tables"]:
            adopt(spark, t)
        result = {
            "spark_version": spark.version,
            "pyspark_version": pyspark.__version__,
            "command": "python oracle/engine_compat.py --manifest M.json --out R.json --spark-written DIR",
            "confs": {"spark.sql.autoBroadcastJoinThreshold": "-1", "spark.sql.adaptive.enabled": "false"},
            "queries": [run_query(spark, q) for q in manifest["queries"]],
            "spark_written": spark_written(spark, args.spark_written),
        }
        spark.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
