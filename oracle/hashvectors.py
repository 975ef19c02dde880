"""Murmur3 (seed 42) / pmod bucket ids, and Hive hash, recorded from real Spark (needs pyspark).

`python -m oracle hashvectors --spark V OUT.yaml`. Values are written as a user types them
(`\\N` is NULL); `sql` is the exact expression Spark evaluated. Hive hash is not exposed in
SQL: it is evaluated by building `org.apache.spark.sql.catalyst.expressions.HiveHash` over
the analysed literal expressions through py4j; Hive bucket ids are then computed by Spark
SQL as `pmod(hivehash & 2147483647, n)`.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

NULL = "\\N"
BUCKET_COUNTS = (8, 16, 200)

SCALARS: dict[str, list[str]] = {
    "boolean": ["true", "false"],
    "tinyint": ["0", "1", "-1", "127", "-128"],
    "smallint": ["0", "-1", "32767", "-32768"],
    "int": ["0", "1", "-1", "42", "2147483647", "-2147483648"],
    "bigint": ["0", "1", "-1", "2147483648", "9223372036854775807", "-9223372036854775808"],
    "float": ["0.0", "-0.0", "1.5", "-1.5", "0.1", "NaN", "Infinity", "-Infinity", "3.4028235E38", "1.4E-45"],
    "double": ["0.0", "-0.0", "1.5", "0.1", "-123.456", "NaN", "Infinity", "-Infinity",
               "1.7976931348623157E308", "4.9E-324"],
    "decimal(10,2)": ["0.00", "12.50", "-12.50", "99999999.99", "0.01"],
    "decimal(18,0)": ["999999999999999999", "-1", "0"],
    "decimal(18,6)": ["123456789012.345678", "-0.000001"],
    "decimal(19,2)": ["12345678901234567.89", "0.00", "-1.00"],
    "decimal(38,10)": ["1234567890123456789012345678.1234567890", "-1.0000000001", "0E-10", "1.0000000000"],
    "string": ["", "a", "ab", "abc", "abcd", "abcde", "hello world", "é", "日本語", "😀", "ß",
               "abcdefghijklmnopqrstuvwxyz0123456789"],
    "binary": ["X''", "X'00'", "X'0102'", "X'616263'", "X'DEADBEEF01'"],
    "date": ["1970-01-01", "2024-02-29", "1900-01-01", "9999-12-31", "1969-12-31"],
    "timestamp": ["1970-01-01 00:00:00", "2024-01-31 12:34:56.789012", "1969-12-31 23:59:59.999999",
                  "2000-06-15 08:00:00"],
    "timestamp_ntz": ["1970-01-01 00:00:00", "2024-01-31 12:34:56.789012", "1969-12-31 23:59:59.999999"],
}

TUPLES: list[tuple[list[str], list[str]]] = [
    (["int", "int"], ["1", "2"]),
    (["int", "int"], ["2", "1"]),
    (["int", "string"], ["42", "abc"]),
    (["string", "int"], ["abc", "42"]),
    (["bigint", "date"], ["123456789012", "2024-02-29"]),
    (["string", "int", "double"], ["x", "-7", "2.5"]),
    (["int", "string"], [NULL, "abc"]),
    (["int", "string"], ["42", NULL]),
    (["int", "int"], [NULL, NULL]),
    (["decimal(10,2)", "decimal(38,10)"], ["1.50", "1.5000000000"]),
    (["boolean", "tinyint", "smallint"], ["true", "-1", "300"]),
    (["timestamp", "string"], ["2024-01-31 12:34:56.789012", "é"]),
    (["float", "double"], ["-0.0", "NaN"]),
]


def literal(typ: str, value: str) -> str:
    """SQL literal of `value` (as a user types it) of type `typ`."""
    t = typ.lower()
    if value == NULL:
        return f"CAST(NULL AS {t.upper()})"
    if t == "boolean":
        return value
    if t in ("tinyint", "smallint", "int", "bigint"):
        return f"CAST({value} AS {t.upper()})"
    if t in ("float", "double") or t.startswith("decimal"):
        return f"CAST('{value}' AS {t.upper()})"
    if t == "string":
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if t == "binary":
        return value
    if t == "date":
        return f"DATE'{value}'"
    if t == "timestamp":
        return f"TIMESTAMP'{value}'"
    if t == "timestamp_ntz":
        return f"TIMESTAMP_NTZ'{value}'"
    raise ValueError(t)


def cases() -> list[tuple[list[str], list[str]]]:
    """Every (types, values) vector: each scalar value, a NULL per type, then tuples."""
    out = []
    for typ, values in SCALARS.items():
        for v in values + [NULL]:
            out.append(([typ], [v]))
    return out + TUPLES


def scala_seq(jvm: Any, items: list[Any]) -> Any:
    """Python list of Java objects -> scala List."""
    jl = jvm.java.util.ArrayList()
    for x in items:
        jl.add(x)
    return jvm.scala.collection.JavaConverters.asScalaBufferConverter(jl).asScala().toList()


def hive_hash(spark: Any, lits: list[str]) -> int | None:
    """Spark's HiveHash over the analysed literals, or None where Spark refuses."""
    jvm = spark._jvm
    try:
        plan = spark.sql("SELECT " + ", ".join(f"{e} AS c{i}" for i, e in enumerate(lits)))._jdf \
            .queryExecution().analyzed()
        pl = plan.projectList()
        children = [pl.apply(i).child() for i in range(pl.size())]
        expr = jvm.org.apache.spark.sql.catalyst.expressions.HiveHash(scala_seq(jvm, children))
        return int(expr.eval(None))
    except Exception:  # noqa: BLE001 - type not supported by HiveHash
        return None


def record(spark: Any, types: list[str], values: list[str]) -> dict[str, Any]:
    """One vector."""
    lits = [literal(t, v) for t, v in zip(types, values)]
    h = "hash(" + ", ".join(lits) + ")"
    cols = [f"{h} AS h"] + [f"pmod({h}, {n}) AS b{n}" for n in BUCKET_COUNTS]
    row = spark.sql("SELECT " + ", ".join(cols)).collect()[0]
    out: dict[str, Any] = {"types": types, "values": values, "sql": h, "hash": int(row["h"]),
                           "buckets": {n: int(row[f"b{n}"]) for n in BUCKET_COUNTS}}
    hh = hive_hash(spark, lits)
    if hh is not None:
        out["hive"] = hh
        r2 = spark.sql("SELECT " + ", ".join(f"pmod({hh} & 2147483647, {n}) AS b{n}" for n in BUCKET_COUNTS)).collect()[0]
        out["hive_buckets"] = {n: int(r2[f"b{n}"]) for n in BUCKET_COUNTS}
    return out


def main(series: str, out: Path) -> None:
    """Record every vector into `out`."""
    from oracle import session  # noqa: PLC0415

    ws = session.Workspace()
    spark = session.build(ws)
    try:
        vectors = [record(spark, t, v) for t, v in cases()]
        doc = {
            "spark": spark.version,
            "session_time_zone": spark.conf.get("spark.sql.session.timeZone"),
            "generated_by": f"python -m oracle hashvectors --spark {series} {out}",
            "hive_hash": "org.apache.spark.sql.catalyst.expressions.HiveHash via py4j; hive_buckets = pmod(hive & 2147483647, n)",
            "vectors": vectors,
        }
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=200))
        print(f"{len(vectors)} vectors -> {out}", file=sys.stderr)
    finally:
        session.stop(spark)
