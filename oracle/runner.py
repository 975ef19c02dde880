"""Runs scenarios against a live Spark and writes the fixture files (needs pyspark)."""
from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from oracle import counts, datagen, plantree, session
from oracle.normalize import checksum, dumps, normalize_obj, normalize_text, row_string, slug
from oracle.scenarios import Scenario

EXPLAIN_MODES = ("simple", "extended", "formatted", "cost")
AFTER_MODES = ("simple", "formatted")
AQE_RUNS = (("aqe-off", "false"), ("aqe-on", "true"))
IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
TIME_ROWS = {"Created Time", "Last Access"}
HEAD_ROWS = 5


def log(msg: str) -> None:
    """Progress to stderr."""
    print(msg, file=sys.stderr, flush=True)


def error_info(e: BaseException) -> dict[str, Any]:
    """Exception class, Spark error class / SQLSTATE where available, and message."""
    info: dict[str, Any] = {"pyClass": type(e).__name__, "message": str(e).strip()}
    for attr, name in (("getCondition", "errorClass"), ("getErrorClass", "errorClass"), ("getSqlState", "sqlState")):
        if name in info and info[name]:
            continue
        fn = getattr(e, attr, None)
        if callable(fn):
            val = plantree.attempt(fn)
            if val:
                info[name] = str(val)
    origin = getattr(e, "_origin", None) or getattr(e, "java_exception", None)
    if origin is not None:
        info["javaClass"] = plantree.attempt(lambda: str(origin.getClass().getName()))
        info["javaMessage"] = plantree.attempt(lambda: str(origin.getMessage()).strip())
    return info


def explain(df: Any, mode: str) -> str:
    """What df.explain(mode) prints, as a string."""
    jvm = plantree.jvm_of(df)
    qe = df._jdf.queryExecution()
    try:
        return str(jvm.PythonSQLUtils.explainString(qe, mode))
    except Exception:  # noqa: BLE001 - fall back to the QueryExecution API
        em = jvm.org.apache.spark.sql.execution.ExplainMode.fromString(mode)
        return str(qe.explainString(em))


def table_text(rows: list[Any]) -> str:
    """Rows of a command (SHOW CREATE TABLE / DESCRIBE) as tab-separated lines."""
    lines = []
    for r in rows:
        vals = ["" if v is None else str(v) for v in r]
        if len(vals) >= 2 and vals[0].strip() in TIME_ROWS:
            vals[1] = "{time}"
        lines.append("\t".join(vals).rstrip())
    return "\n".join(lines) + "\n"


class ScenarioRun:
    """State of one scenario run: the session, collected text files and the JSON record."""

    def __init__(self, root: Any, ws: session.Workspace, sc: Scenario) -> None:
        self.sc = sc
        self.ws = ws
        self.spark = session.fresh(root, sc.confs)
        self.files: dict[str, str] = {}
        self.tmp = ws.tmp / slug(sc.group) / slug(sc.name)

    def text(self, rel: str, content: str) -> str:
        """Register a text file; returns its path relative to the scenario folder."""
        self.files[rel] = content
        return rel

    def create_table(self, name: str, spec: dict[str, Any]) -> dict[str, Any]:
        """Create and fill one table; records the DDL / writer code and any error."""
        rec: dict[str, Any] = {"name": name, "via": spec["via"], "rows": spec["rows"],
                               "columns": {c: str(t) for c, t in spec["columns"].items()},
                               "bucket": spec.get("bucket"), "partition": spec.get("partition", []),
                               "format": spec.get("format"), "inputPartitions": spec.get("input_partitions"),
                               "error": None}
        try:
            if self.sc.session == "iceberg":
                # A Hadoop catalog's tables are not listed by the session catalog: drop by name.
                self.spark.sql(f"DROP TABLE IF EXISTS {name}")
            if spec["via"] == "sql":
                rec["ddl"] = datagen.create_table_sql(name, spec)
                self.spark.sql(rec["ddl"])
                order = self.spark.table(name).columns
                hint = f"/*+ REPARTITION({int(spec['input_partitions'])}) */ " if spec.get("input_partitions") else ""
                rec["insert"] = (f"INSERT INTO {name} SELECT {hint}"
                                 + ", ".join(datagen.select_list(name, spec, self.sc.seed, order))
                                 + f" FROM range({int(spec['rows'])})")
                self.spark.sql(rec["insert"])
            else:
                exprs = datagen.select_list(name, spec, self.sc.seed)
                rec["select"] = exprs
                rec["code"] = datagen.writer_code(name, spec)
                df = self.spark.range(int(spec["rows"])).selectExpr(*exprs)
                if spec.get("input_partitions"):
                    df = df.repartition(int(spec["input_partitions"]))
                w = df.write.format(str(spec.get("format", "parquet")))
                if spec.get("partition"):
                    w = w.partitionBy(*spec["partition"])
                b = spec.get("bucket")
                if b:
                    w = w.bucketBy(int(b["buckets"]), *b["by"])
                    if b.get("sort"):
                        w = w.sortBy(*b["sort"])
                w.saveAsTable(name)
        except Exception as e:  # noqa: BLE001 - recorded as Spark's answer
            rec["error"] = error_info(e)
            return rec
        for label, sql in (("show-create", f"SHOW CREATE TABLE {name}"),
                           ("describe-extended", f"DESCRIBE TABLE EXTENDED {name}")):
            try:
                rec[label.replace("-", "_")] = self.text(f"tables/{slug(name)}.{label}.txt",
                                                         table_text(self.spark.sql(sql).collect()))
            except Exception as e:  # noqa: BLE001
                rec[label.replace("-", "_") + "_error"] = error_info(e)
        return rec

    def statement(self, sql: str) -> dict[str, Any]:
        """Run one SQL statement eagerly; record error if any."""
        try:
            self.spark.sql(sql).collect()
            return {"sql": sql, "error": None}
        except Exception as e:  # noqa: BLE001
            return {"sql": sql, "error": error_info(e)}

    def write(self, w: dict[str, Any]) -> dict[str, Any]:
        """Run one DataFrameWriter chain; record the code and Spark's error if any."""
        src = str(w["source"] or "")
        tmp = str(self.tmp / slug(w["name"]))
        chain = [[a.replace("{tmp}", tmp) if isinstance(a, str) else a for a in step] for step in w["chain"]]
        src_code = f"spark.table({src!r})" if IDENT_RE.match(src) else f"spark.sql({src!r})"
        code = src_code + ".write" + "".join(
            f".{s[0]}(" + ", ".join(repr(a) for a in s[1:]) + ")" for s in w["chain"])
        rec: dict[str, Any] = {"name": w["name"], "description": w["description"], "code": code, "error": None}
        try:
            df = self.spark.table(src) if IDENT_RE.match(src) else self.spark.sql(src)
            obj: Any = df.write
            for step in chain:
                obj = getattr(obj, step[0])(*step[1:])
        except Exception as e:  # noqa: BLE001
            rec["error"] = error_info(e)
        return rec

    def query(self, q: dict[str, str]) -> dict[str, Any]:
        """Explain (4 modes x AQE off/on), plan tree, counts, result checksum of one query."""
        rec: dict[str, Any] = {"name": q["name"], "sql": q["sql"], "description": q["description"], "runs": {},
                               "result": None}
        qdir = slug(q["name"])
        for label, aqe in AQE_RUNS:
            run: dict[str, Any] = {"error": None}
            rec["runs"][label] = run
            self.spark.conf.set("spark.sql.adaptive.enabled", aqe)
            try:
                df = self.spark.sql(q["sql"])
                run["explain"] = {m: self.text(f"{qdir}/{label}.{m}.txt", explain(df, m)) for m in EXPLAIN_MODES}
                before = None
                if aqe == "true":
                    before = plantree.initial_plan_before_execution(df)
                    # Executed once, with AQE on: the AQE-off plan is final without running it.
                    try:
                        rows = df.collect()
                        rec["result"] = checksum(rows)
                        rec["result"]["columns"] = list(df.columns)
                        rec["result"]["head"] = sorted(row_string(r) for r in rows)[:HEAD_ROWS]
                    except Exception as e:  # noqa: BLE001 - a runtime error is Spark's answer too
                        run["executionError"] = error_info(e)
                    run["explainAfterExecution"] = {
                        m: self.text(f"{qdir}/{label}.executed.{m}.txt", explain(df, m)) for m in AFTER_MODES}
                run["plan"] = plantree.executed_plan_tree(df)
                if before is not None and run["plan"].get("class") == "AdaptiveSparkPlanExec":
                    run["plan"]["initialPlan"] = before
                run["counts"] = counts.count(run["plan"])
                if run["plan"].get("initialPlan"):
                    run["countsInitial"] = counts.count(run["plan"]["initialPlan"])
            except Exception as e:  # noqa: BLE001
                run["error"] = error_info(e)
        self.spark.conf.unset("spark.sql.adaptive.enabled")
        if self.sc.confs.get("spark.sql.adaptive.enabled"):
            self.spark.conf.set("spark.sql.adaptive.enabled", self.sc.confs["spark.sql.adaptive.enabled"])
        return rec

    def run(self) -> dict[str, Any]:
        """The whole scenario; returns the normalised JSON record (files in self.files)."""
        sc = self.sc
        rec: dict[str, Any] = {
            "name": sc.name, "group": sc.group, "description": sc.description, "ref": sc.ref,
            "session": sc.session, "confs": sc.confs, "seed": sc.seed, "notes": sc.notes or None,
            "tables": [self.create_table(n, s) for n, s in sc.tables.items()],
        }
        rec["statements"] = [self.statement(s) for s in sc.statements]
        rec["writes"] = [self.write(w) for w in sc.writes]
        rec["queries"] = [self.query(q) for q in sc.queries]
        rep = self.ws.replacements()
        self.files = {k: normalize_text(v, rep) for k, v in self.files.items()}
        return normalize_obj(rec, rep)


def write_scenario(out: Path, sc: Scenario, rec: dict[str, Any], files: dict[str, str]) -> None:
    """Replace the scenario folder with scenario.json and its text files."""
    d = out / slug(sc.group) / slug(sc.name)
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    (d / "scenario.json").write_text(dumps(rec))
    for rel, content in files.items():
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(content)


def run_all(scenarios: list[Scenario], out: Path) -> dict[str, Any]:
    """Run scenarios grouped by session kind (one SparkContext per kind), writing into out."""
    ws = session.Workspace()
    stats: dict[str, Any] = {"scenarios": 0, "queries": 0, "seconds": 0.0}
    start = time.monotonic()
    try:
        for kind in ("in-memory", "hive", "iceberg"):
            group = [s for s in scenarios if s.session == kind]
            if not group:
                continue
            root = session.build(ws, kind)
            try:
                for i, sc in enumerate(group, 1):
                    t0 = time.monotonic()
                    r = ScenarioRun(root, ws, sc)
                    rec = r.run()
                    write_scenario(out, sc, rec, r.files)
                    stats["scenarios"] += 1
                    stats["queries"] += len(sc.queries)
                    log(f"[{kind} {i}/{len(group)}] {sc.key} ({time.monotonic() - t0:.1f}s)")
            finally:
                session.stop(root)
    finally:
        shutil.rmtree(ws.root, ignore_errors=True)
    stats["seconds"] = round(time.monotonic() - start, 1)
    return stats
