"""Pure helpers (no Spark): id stripping, path/UUID normalisation, result checksums, JSON output."""
from __future__ import annotations

import datetime as _dt
import decimal
import hashlib
import json
import math
import re
from typing import Any, Iterable

EXPR_ID_RE = re.compile(r"#\d+L?")
OBJECT_HASH_RE = re.compile(r"(?<=[A-Za-z0-9_$])@[0-9a-f]{5,8}\b")
LAST_DDL_RE = re.compile(r"(transient_lastDdlTime'?\s*=\s*'?)\d{9,}")
# Iceberg's snapshot ids are random longs: "'current-snapshot-id' = '6801483865550000344'" in
# SHOW CREATE TABLE, "current-snapshot-id=…" in DESCRIBE, "snapshot-id=…" in scans.
SNAPSHOT_ID_RE = re.compile(r"((?:current-)?snapshot-id'?\s*[=:]\s*'?)-?\d{6,}")
UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
CHECKSUM_MOD = 1 << 64
NULL = "\\N"


def strip_ids(text: str) -> str:
    """Remove expression ids: ``customer_id#12L`` -> ``customer_id``."""
    return EXPR_ID_RE.sub("", text)


def key(raw: str) -> dict[str, str]:
    """A plan expression as {name: without ids, raw: as Spark prints it}."""
    return {"name": strip_ids(raw), "raw": raw}


def normalize_text(text: str, replacements: dict[str, str]) -> str:
    """Replace temp paths (longest first, with and without ``file:``), random UUIDs, Java
    identity hashes (``Serializer@313e03e9``) and Hive DDL times (``transient_lastDdlTime``)."""
    for path in sorted(replacements, key=len, reverse=True):
        token = replacements[path]
        text = text.replace("file://" + path, token).replace("file:" + path, token).replace(path, token)
    text = OBJECT_HASH_RE.sub("@{hash}", text)
    text = LAST_DDL_RE.sub(r"\1{time}", text)
    text = SNAPSHOT_ID_RE.sub(r"\1{snapshot}", text)
    return UUID_RE.sub("{uuid}", text)


def normalize_obj(obj: Any, replacements: dict[str, str]) -> Any:
    """normalize_text applied to every string inside a JSON-like value."""
    if isinstance(obj, str):
        return normalize_text(obj, replacements)
    if isinstance(obj, list):
        return [normalize_obj(v, replacements) for v in obj]
    if isinstance(obj, dict):
        return {k: normalize_obj(v, replacements) for k, v in obj.items()}
    return obj


def format_value(v: Any) -> str:
    """Canonical string of one result value (the 'string form' used by the checksum)."""
    if v is None:
        return NULL
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        if v == 0.0:
            return "0.0"
        return repr(v)
    if isinstance(v, decimal.Decimal):
        return format(v, "f")
    if isinstance(v, (bytes, bytearray)):
        return "0x" + bytes(v).hex()
    if isinstance(v, _dt.datetime):
        return v.isoformat(sep=" ")
    if isinstance(v, _dt.date):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(format_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(f"{format_value(k)}:{format_value(x)}" for k, x in sorted(v.items(), key=str)) + "}"
    return str(v)


def row_string(row: Iterable[Any]) -> str:
    """Canonical string of a row: values joined by U+001F."""
    return "\x1f".join(format_value(v) for v in row)


def row_hash(row: Iterable[Any]) -> int:
    """First 8 bytes (big-endian) of SHA-256 of the row string."""
    return int.from_bytes(hashlib.sha256(row_string(row).encode("utf-8")).digest()[:8], "big")


def checksum(rows: Iterable[Iterable[Any]]) -> dict[str, Any]:
    """Order-independent result summary: row count and sum of row hashes mod 2^64 (hex)."""
    n = 0
    total = 0
    for r in rows:
        n += 1
        total = (total + row_hash(r)) % CHECKSUM_MOD
    return {"rows": n, "checksum": f"{total:016x}"}


def dumps(obj: Any) -> str:
    """Deterministic compact JSON: sorted keys, no spaces, trailing newline."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def pretty(text: str) -> str:
    """Re-indent a JSON document for human-readable diffs."""
    return json.dumps(json.loads(text), sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def slug(name: str) -> str:
    """File-system safe name."""
    s = re.sub(r"[^A-Za-z0-9_.-]+", "-", name.strip()).strip("-")
    return s or "unnamed"
