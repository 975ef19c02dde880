"""Scenario YAML loading and validation (no Spark needed).

File format (see README.md, "Scenario files"):

    group: joins                  # optional, default: file stem
    session: in-memory            # or "hive" (enableHiveSupport, Derby metastore), or "iceberg"
                                  # (Iceberg's SparkSessionCatalog over a Hadoop warehouse)
    defaults: {rows: 300, confs: {...}}
    tables: {t1: {...}, ...}      # templates scenarios may use by name or with `like:`
    scenarios:
      - name: ...
        description: ...
        ref: BR-01                # optional id in shared/reference/spark-planner.md §4
        confs: {...}
        tables: [t1, t2] | {t1: {like: t1, bucket: {...}}, t9: {...}}
        statements: [SQL, ...]    # run in order after tables; errors recorded
        writes: [{name, source, chain}]
        queries: [{name, sql, description}] | [SQL, ...]
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

SCALAR_TYPES = {
    "boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "string",
    "date", "timestamp", "timestamp_ntz", "binary",
}
TABLE_KEYS = {
    "like", "rows", "columns", "card", "exprs", "nulls", "bucket", "partition", "via",
    "format", "input_partitions", "seed", "comment",
}
SCENARIO_KEYS = {
    "name", "description", "ref", "confs", "tables", "statements", "writes", "queries",
    "notes", "seed",
}
WRITE_KEYS = {"name", "source", "chain", "description"}
VIA = {"dataframe", "sql"}
SESSIONS = {"in-memory", "hive", "iceberg"}


class ScenarioError(ValueError):
    """A scenario file is malformed."""


@dataclass
class Scenario:
    """One scenario, with templates resolved and defaults applied."""

    name: str
    group: str
    session: str
    description: str
    ref: str | None
    confs: dict[str, str]
    tables: dict[str, dict[str, Any]]
    statements: list[str]
    writes: list[dict[str, Any]]
    queries: list[dict[str, str]]
    seed: int
    source: str = ""
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """Unique id "<group>/<name>"."""
        return f"{self.group}/{self.name}"


def conf_value(v: Any) -> str:
    """Spark conf values as strings (YAML booleans become "true"/"false")."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def is_valid_type(t: str) -> bool:
    """Column types the generator supports."""
    t = t.strip().lower()
    return t in SCALAR_TYPES or (t.startswith("decimal(") and t.endswith(")"))


def normalize_table(name: str, spec: dict[str, Any], defaults: dict[str, Any], where: str) -> dict[str, Any]:
    """Validate one table spec and fill in defaults."""
    unknown = set(spec) - TABLE_KEYS
    if unknown:
        raise ScenarioError(f"{where}: table {name}: unknown keys {sorted(unknown)}")
    t = dict(spec)
    t.pop("like", None)
    t.setdefault("rows", defaults.get("rows", 300))
    t.setdefault("via", "dataframe")
    t.setdefault("format", "parquet")
    t.setdefault("card", {})
    t.setdefault("exprs", {})
    t.setdefault("nulls", {})
    t.setdefault("partition", [])
    cols = t.get("columns")
    if not isinstance(cols, dict) or not cols:
        raise ScenarioError(f"{where}: table {name}: `columns` must be a non-empty mapping name: type")
    for c, typ in cols.items():
        if not is_valid_type(str(typ)):
            raise ScenarioError(f"{where}: table {name}: column {c}: unsupported type {typ!r}")
    if t["via"] not in VIA:
        raise ScenarioError(f"{where}: table {name}: via must be one of {sorted(VIA)}")
    b = t.get("bucket")
    if b is not None:
        if isinstance(b, list):  # [n, [cols]] shorthand
            b = {"buckets": b[0], "by": b[1]}
        if not isinstance(b, dict) or "buckets" not in b or "by" not in b:
            raise ScenarioError(f"{where}: table {name}: bucket needs buckets and by")
        b = {"buckets": b["buckets"], "by": list(b["by"]), "sort": list(b.get("sort", []))}
        t["bucket"] = b
    for k in ("card", "exprs", "nulls"):
        if not isinstance(t[k], dict):
            raise ScenarioError(f"{where}: table {name}: {k} must be a mapping")
    return t


def resolve_tables(raw: Any, templates: dict[str, Any], defaults: dict[str, Any], where: str) -> dict[str, dict[str, Any]]:
    """Scenario `tables:` (list of template names or mapping) -> resolved specs."""
    if raw is None:
        return {}
    if isinstance(raw, list):
        raw = {n: {"like": n} for n in raw}
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: tables must be a list or mapping")
    out: dict[str, dict[str, Any]] = {}
    for name, spec in raw.items():
        spec = dict(spec or {})
        base_name = spec.get("like", name if name in templates and not spec.get("columns") else None)
        if base_name is not None:
            if base_name not in templates:
                raise ScenarioError(f"{where}: table {name}: unknown template {base_name!r}")
            merged = copy.deepcopy(templates[base_name])
            merged.update({k: v for k, v in spec.items() if k != "like"})
            spec = merged
        out[str(name)] = normalize_table(str(name), spec, defaults, where)
    return out


def normalize_queries(raw: Any, where: str) -> list[dict[str, str]]:
    """Queries as [{name, sql, description}] with unique names."""
    out: list[dict[str, str]] = []
    for i, q in enumerate(raw or []):
        if isinstance(q, str):
            q = {"sql": q}
        if not isinstance(q, dict) or "sql" not in q:
            raise ScenarioError(f"{where}: query {i}: needs sql")
        out.append({"name": str(q.get("name", f"q{i + 1}")), "sql": " ".join(str(q["sql"]).split()),
                    "description": str(q.get("description", ""))})
    names = [q["name"] for q in out]
    if len(names) != len(set(names)):
        raise ScenarioError(f"{where}: duplicate query names {names}")
    return out


def normalize_writes(raw: Any, where: str) -> list[dict[str, Any]]:
    """Writes as [{name, source, chain: [[method, *args], ...]}]."""
    out = []
    for i, w in enumerate(raw or []):
        unknown = set(w) - WRITE_KEYS
        if unknown:
            raise ScenarioError(f"{where}: write {i}: unknown keys {sorted(unknown)}")
        chain = w.get("chain")
        if not isinstance(chain, list) or not all(isinstance(s, list) and s for s in chain):
            raise ScenarioError(f"{where}: write {i}: chain must be a list of [method, args...]")
        out.append({"name": str(w.get("name", f"w{i + 1}")), "source": w.get("source", ""),
                    "chain": chain, "description": str(w.get("description", ""))})
    return out


def parse_file(text: str, source: str = "<string>") -> list[Scenario]:
    """Parse one YAML scenario file."""
    doc = yaml.safe_load(text) or {}
    if not isinstance(doc, dict) or not isinstance(doc.get("scenarios"), list):
        raise ScenarioError(f"{source}: top level needs a `scenarios:` list")
    group = str(doc.get("group") or Path(source).stem)
    session = str(doc.get("session", "in-memory"))
    if session not in SESSIONS:
        raise ScenarioError(f"{source}: session must be one of {sorted(SESSIONS)}")
    defaults = doc.get("defaults") or {}
    templates = doc.get("tables") or {}
    file_confs = {k: conf_value(v) for k, v in (defaults.get("confs") or {}).items()}
    out = []
    seen = set()
    for i, s in enumerate(doc["scenarios"]):
        where = f"{source}: scenario {i} ({s.get('name', '?')})"
        unknown = set(s) - SCENARIO_KEYS
        if unknown:
            raise ScenarioError(f"{where}: unknown keys {sorted(unknown)}")
        if not s.get("name") or not s.get("description"):
            raise ScenarioError(f"{where}: name and description are required")
        if s["name"] in seen:
            raise ScenarioError(f"{where}: duplicate name")
        seen.add(s["name"])
        confs = dict(file_confs)
        confs.update({k: conf_value(v) for k, v in (s.get("confs") or {}).items()})
        out.append(Scenario(
            name=str(s["name"]), group=group, session=session,
            description=" ".join(str(s["description"]).split()),
            ref=str(s["ref"]) if s.get("ref") else None, confs=confs,
            tables=resolve_tables(s.get("tables"), templates, defaults, where),
            statements=[" ".join(str(x).split()) for x in s.get("statements") or []],
            writes=normalize_writes(s.get("writes"), where),
            queries=normalize_queries(s.get("queries"), where),
            seed=int(s.get("seed", defaults.get("seed", 42))), source=source,
            notes=str(s.get("notes", "")),
        ))
    return out


def load_dir(path: Path) -> list[Scenario]:
    """All scenarios of every *.yaml file under path (or one file), sorted by key."""
    files = [path] if path.is_file() else sorted(path.rglob("*.yaml"))
    out: list[Scenario] = []
    for f in files:
        out.extend(parse_file(f.read_text(), str(f)))
    keys = [s.key for s in out]
    dupes = {k for k in keys if keys.count(k) > 1}
    if dupes:
        raise ScenarioError(f"duplicate scenario keys: {sorted(dupes)}")
    return sorted(out, key=lambda s: s.key)


def select(scenarios: list[Scenario], subset: list[str] | None = None, sample: int | None = None,
           sample_seed: int = 0) -> list[Scenario]:
    """Filter by substring match on key (--subset) and/or a deterministic sample (--sample N)."""
    out = scenarios
    if subset:
        out = [s for s in out if any(p in s.key for p in subset)]
    if sample is not None and sample < len(out):
        rng = random.Random(sample_seed)
        picked = set(rng.sample(range(len(out)), sample))
        out = [s for i, s in enumerate(out) if i in picked]
    return out
