"""Iceberg bucket transform vectors, recorded from the real iceberg-spark-runtime jar (needs
pyspark and the jar pinned by `iceberg=` in versions.txt).

`python -m oracle icebergvectors --spark V OUT.yaml`. Each value (written as a user types it)
is evaluated by Iceberg's own SQL function `ice.system.bucket(n, literal)` (an Iceberg SparkCatalog registered as `ice`) for
several bucket counts n, and its 32-bit hash by Iceberg's `org.apache.iceberg.util.BucketUtil`
through py4j, on the literal as Spark analysed it: ints and dates are hashed as longs, strings
by their UTF-8 bytes, decimals by their unscaled value's big-endian two's complement bytes,
timestamps by their microseconds (Murmur3 x86 32-bit, seed 0; bucket = (hash & MAX_INT) % n).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

from oracle.hashvectors import literal

BUCKET_COUNTS = (1, 8, 16, 100, 1024)

VALUES: dict[str, list[str]] = {
    "int": ["0", "1", "-1", "34", "100042", "2147483647", "-2147483648"],
    "bigint": ["0", "34", "-1", "1234567890123", "9223372036854775807", "-9223372036854775808"],
    "string": ["", "a", "ab", "abc", "abcd", "abcde", "iceberg", "SAV-100042", "é", "日本語", "😀"],
    "decimal(9,2)": ["14.20", "-14.20", "0.00", "0.01", "1270000.00"],
    "decimal(38,10)": ["1234567890123456789012345678.1234567890", "-1.0000000001"],
    "date": ["2017-11-16", "1970-01-01", "1969-12-31", "2024-02-29"],
    "timestamp": ["2017-11-16 22:31:08", "1970-01-01 00:00:00", "1969-12-31 23:59:59.999999",
                  "2024-01-31 12:34:56.789012"],
    "timestamp_ntz": ["2017-11-16 22:31:08", "1969-12-31 23:59:59.999999"],
    "binary": ["X''", "X'00010203'", "X'DEADBEEF01'"],
}


def java_value(spark: Any, typ: str, lit: str) -> Any:
    """The literal as Spark evaluates it, converted to what BucketUtil.hash takes, through py4j."""
    jvm = spark._jvm
    row = spark.sql(f"SELECT {lit} AS v").collect()[0]
    v = row["v"]
    if typ == "int":
        return jvm.org.apache.iceberg.util.BucketUtil.hash(int(v))
    if typ in ("bigint", "date", "timestamp", "timestamp_ntz"):
        n = int(spark.sql(f"SELECT {internal(typ, lit)} AS n").collect()[0]["n"])
        return jvm.org.apache.iceberg.util.BucketUtil.hash(n)  # py4j sends an int that fits 32 bits as Integer: Iceberg hashes ints as longs
    if typ == "string":
        return jvm.org.apache.iceberg.util.BucketUtil.hash(v)
    if typ.startswith("decimal"):
        return jvm.org.apache.iceberg.util.BucketUtil.hash(jvm.java.math.BigDecimal(str(v)))
    if typ == "binary":
        return jvm.org.apache.iceberg.util.BucketUtil.hash(jvm.java.nio.ByteBuffer.wrap(bytearray(v)))
    raise ValueError(typ)


def internal(typ: str, lit: str) -> str:
    """SQL for the long Iceberg hashes: days of a date, microseconds of a timestamp."""
    if typ == "date":
        return f"unix_date({lit})"
    if typ == "timestamp":
        return f"unix_micros({lit})"
    if typ == "timestamp_ntz":
        return f"unix_micros(CAST({lit} AS TIMESTAMP))"
    return lit


def record(spark: Any, typ: str, value: str) -> dict[str, Any]:
    """One vector."""
    lit = literal(typ, value)
    cols = [f"ice.system.bucket({n}, {lit}) AS b{n}" for n in BUCKET_COUNTS]
    row = spark.sql("SELECT " + ", ".join(cols)).collect()[0]
    return {"type": typ, "value": value, "sql": f"ice.system.bucket(n, {lit})",
            "hash": int(java_value(spark, typ, lit)),
            "buckets": {n: int(row[f"b{n}"]) for n in BUCKET_COUNTS}}


def main(series: str, out: Path) -> None:
    """Record every vector into `out`."""
    from oracle import session, versions  # noqa: PLC0415

    ws = session.Workspace()
    spark = session.build(ws, "iceberg")
    # Iceberg's functions live in its SparkCatalog (the session catalog wrapper serves none).
    spark.conf.set("spark.sql.catalog.ice", "org.apache.iceberg.spark.SparkCatalog")
    spark.conf.set("spark.sql.catalog.ice.type", "hadoop")
    spark.conf.set("spark.sql.catalog.ice.warehouse", str(ws.root / "ice"))
    try:
        vectors = [record(spark, t, v) for t, vs in VALUES.items() for v in vs]
        doc = {
            "spark": spark.version,
            "iceberg": versions.iceberg_version(series),
            "session_time_zone": spark.conf.get("spark.sql.session.timeZone"),
            "generated_by": f"python -m oracle icebergvectors --spark {series} {out}",
            "buckets": "ice.system.bucket(n, value), Iceberg's own function (ice: an Iceberg SparkCatalog)",
            "hash": "org.apache.iceberg.util.BucketUtil.hash via py4j",
            "vectors": vectors,
        }
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=200))
        print(f"{len(vectors)} vectors -> {out}", file=sys.stderr)
    finally:
        session.stop(spark)
