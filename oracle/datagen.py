"""Deterministic, seeded test data as Spark SQL expressions over ``range(rows)`` (no Spark needed).

Every generated column is a pure function of the row id and a seed derived from
(scenario seed, table, column): ``v = pmod(hash(id, seed), card)``, converted to the
column type. ``hash`` is Spark's Murmur3, identical in every Spark version, so the same
scenario produces the same rows in 3.5 and 4.x.
"""
from __future__ import annotations

import zlib
from typing import Any

DEFAULT_CARD = 50


def column_seed(seed: int, table: str, column: str) -> int:
    """Stable per-column seed (fits a Spark INT literal)."""
    return (zlib.crc32(f"{table}.{column}".encode()) ^ seed) & 0x7FFFFFFF


def typed(base: str, typ: str) -> str:
    """Convert an integer expression `base` (0 <= base < card) to a value of `typ`."""
    t = typ.strip().lower()
    if t in ("tinyint", "smallint", "int", "bigint"):
        return f"CAST({base} AS {t.upper()})"
    if t == "boolean":
        return f"(({base}) % 2 = 0)"
    if t == "float":
        return f"CAST(({base}) / 4 AS FLOAT)"
    if t == "double":
        return f"CAST(({base}) / 4 AS DOUBLE)"
    if t.startswith("decimal("):
        return f"CAST(({base}) / 4 AS {t.upper()})"
    if t == "string":
        return f"concat('v', CAST({base} AS STRING))"
    if t == "binary":
        return f"CAST(concat('b', CAST({base} AS STRING)) AS BINARY)"
    if t == "date":
        return f"date_add(DATE'2024-01-01', CAST({base} AS INT))"
    if t == "timestamp":
        return f"timestamp_seconds(1704067200 + ({base}) * 3600)"
    if t == "timestamp_ntz":
        return f"CAST(timestamp_seconds(1704067200 + ({base}) * 3600) AS TIMESTAMP_NTZ)"
    raise ValueError(f"unsupported type {typ}")


def column_expr(table: str, column: str, typ: str, spec: dict[str, Any], seed: int) -> str:
    """SQL expression (over column `id` of range(rows)) producing this column, aliased."""
    override = spec.get("exprs", {}).get(column)
    if override is not None:
        body = f"CAST(({override}) AS {typ.upper()})"
    else:
        card = int(spec.get("card", {}).get(column, DEFAULT_CARD))
        s = column_seed(seed, table, column)
        body = typed(f"pmod(hash(id, {s}), {card})", typ)
    pct = int(spec.get("nulls", {}).get(column, 0))
    if pct:
        s2 = column_seed(seed + 1, table, column)
        body = f"CASE WHEN pmod(hash(id, {s2}), 100) < {pct} THEN NULL ELSE {body} END"
    return f"{body} AS `{column}`"


def select_list(table: str, spec: dict[str, Any], seed: int, order: list[str] | None = None) -> list[str]:
    """Expressions for every column of the table, in `order` (default: declaration order)."""
    cols: dict[str, str] = spec["columns"]
    names = order if order is not None else list(cols)
    return [column_expr(table, c, str(cols[c]), spec, seed) for c in names]


def create_table_sql(table: str, spec: dict[str, Any]) -> str:
    """CREATE TABLE statement for `via: sql` tables."""
    cols = ", ".join(f"{c} {str(t).upper()}" for c, t in spec["columns"].items())
    fmt = str(spec.get("format", "parquet")).lower()
    parts = [f"CREATE TABLE {table} ({cols})"]
    hive = fmt.startswith("hive-")
    if not hive:
        parts.append(f"USING {fmt}")
    if spec.get("partition"):
        if hive:
            raise ValueError("hive-format partitioned tables are not supported by the generator")
        parts.append(f"PARTITIONED BY ({', '.join(spec['partition'])})")
    b = spec.get("bucket")
    if b:
        clause = f"CLUSTERED BY ({', '.join(b['by'])})"
        if b.get("sort"):
            clause += f" SORTED BY ({', '.join(b['sort'])})"
        clause += f" INTO {b['buckets']} BUCKETS"
        parts.append(clause)
    if hive:
        parts.append(f"STORED AS {fmt[len('hive-'):].upper()}")
    return " ".join(parts)


def writer_code(table: str, spec: dict[str, Any]) -> str:
    """PySpark code (as a user would write it) for `via: dataframe` tables."""
    code = "df"
    if spec.get("input_partitions"):
        code += f".repartition({int(spec['input_partitions'])})"
    code += ".write"
    fmt = str(spec.get("format", "parquet"))
    code += f".format({fmt!r})"
    if spec.get("partition"):
        code += ".partitionBy(" + ", ".join(repr(c) for c in spec["partition"]) + ")"
    b = spec.get("bucket")
    if b:
        code += f".bucketBy({b['buckets']}, " + ", ".join(repr(c) for c in b["by"]) + ")"
        if b.get("sort"):
            code += ".sortBy(" + ", ".join(repr(c) for c in b["sort"]) + ")"
    code += f".saveAsTable({table!r})"
    return code
