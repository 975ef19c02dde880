"""Records real Spark event logs of small scenarios, with what Spark itself reported (needs pyspark).

`python -m oracle eventlog --spark 3.5 oracle/eventlogs/scenarios.yaml fixtures/eventlog/3.5/` runs the
scenarios once per variant (plain, rolled (zstd), and compressed with lz4, snappy and zstd), each variant in a
SparkContext of its own with `spark.eventLog.enabled=true`, and copies the log Spark wrote into
`<out>/<variant>/`. Next to each log, `<variant>/reported.json` holds what the running application
reported for the same run, read through py4j before the context stopped:

- per SQL execution, the query it ran, and per SQL metric (by accumulator id) the operator, the metric's
  name and type, the raw value of the driver's SQLMetric in the executed plan, and the string the SQL tab
  shows (SQLAppStatusStore.executionMetrics);
- per stage, the figures of the status store (what /api/v1/.../stages serves).

A Go test reads the logs and compares its figures with these.
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from oracle import session
from oracle.runner import ScenarioRun, log
from oracle.scenarios import Scenario

# Rolling is set either way: Spark 4 rolls by default, Spark 3 does not.
VARIANTS: dict[str, dict[str, str]] = {
    "plain": {"spark.eventLog.compress": "false", "spark.eventLog.rolling.enabled": "false"},
    "rolled": {"spark.eventLog.compress": "true", "spark.eventLog.compression.codec": "zstd",
               "spark.eventLog.rolling.enabled": "true"},
    "lz4": {"spark.eventLog.compress": "true", "spark.eventLog.compression.codec": "lz4",
            "spark.eventLog.rolling.enabled": "false"},
    "snappy": {"spark.eventLog.compress": "true", "spark.eventLog.compression.codec": "snappy",
               "spark.eventLog.rolling.enabled": "false"},
    "zstd": {"spark.eventLog.compress": "true", "spark.eventLog.compression.codec": "zstd",
             "spark.eventLog.rolling.enabled": "false"},
}
STAGE_FIELDS = ("numTasks", "numCompleteTasks", "inputBytes", "inputRecords", "outputBytes", "outputRecords",
                "shuffleReadBytes", "shuffleReadRecords", "shuffleWriteBytes", "shuffleWriteRecords",
                "memoryBytesSpilled", "diskBytesSpilled", "executorRunTime")


def it(coll: Any) -> list[Any]:
    """A Scala collection (Seq, Map, Iterable) as a Python list, through its iterator."""
    i = coll.iterator()
    out = []
    while i.hasNext():
        out.append(i.next())
    return out


def plan_metrics(node: Any, out: dict[int, dict[str, Any]]) -> None:
    """Raw SQLMetric values of every operator under node, by accumulator id (AQE stages followed)."""
    cls = str(node.getClass().getSimpleName()).rstrip("$")
    for kv in it(node.metrics()):
        m = kv._2()
        out[int(m.id())] = {"node": str(node.nodeName()), "metric": str(kv._1()),
                            "type": str(m.metricType()), "value": int(m.value())}
    if cls == "AdaptiveSparkPlanExec":
        plan_metrics(node.executedPlan(), out)
        return
    if cls.endswith("QueryStageExec"):
        plan_metrics(node.plan(), out)
        return
    for c in it(node.children()):
        plan_metrics(c, out)


def sql_store(spark: Any) -> Any:
    """The SQL status store of the session's shared state (the SQL tab's data)."""
    return spark._jsparkSession.sharedState().statusStore()


def execution_record(spark: Any, eid: int, raw: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """One SQL execution: its description and every metric, raw and as the SQL tab shows it."""
    store = sql_store(spark)
    data = store.execution(eid).get()
    shown = {int(kv._1()): str(kv._2()) for kv in it(store.executionMetrics(eid))}
    metrics = {}
    for node in it(store.planGraph(eid).allNodes()):
        for m in it(node.metrics()):
            aid = int(m.accumulatorId())
            rec = {"node": str(node.name()), "nodeId": int(node.id()), "metric": str(m.name()),
                   "type": str(m.metricType()), "shown": shown.get(aid)}
            if aid in raw:
                rec["value"] = raw[aid]["value"]
            metrics[str(aid)] = rec
    return {"executionId": eid, "description": str(data.description()), "metrics": metrics}


def stage_records(spark: Any) -> list[dict[str, Any]]:
    """The last attempt of every stage of a job, as the application's status store holds it."""
    store = spark.sparkContext._jsc.sc().statusStore()
    ids = sorted({int(i) for j in it(store.jobsList(None)) for i in it(j.stageIds())})
    out = []
    for s in (store.lastStageAttempt(i) for i in ids):
        rec = {"stageId": int(s.stageId()), "attemptId": int(s.attemptId()), "status": str(s.status())}
        for f in STAGE_FIELDS:
            rec[f] = int(getattr(s, f)())
        out.append(rec)
    return sorted(out, key=lambda r: (r["stageId"], r["attemptId"]))


def run_queries(spark: Any, sc: Scenario) -> list[dict[str, Any]]:
    """Collect each query once (AQE at its default, on); returns the executions each one started."""
    store = sql_store(spark)
    seen = {int(e.executionId()) for e in it(store.executionsList())}
    out = []
    for q in sc.queries:
        df = spark.sql(q["sql"])
        df.collect()
        raw: dict[int, dict[str, Any]] = {}
        plan_metrics(df._jdf.queryExecution().executedPlan(), raw)
        now = sorted(int(e.executionId()) for e in it(store.executionsList()))
        new = [e for e in now if e not in seen]
        seen.update(new)
        out.append({"query": q["name"], "sql": q["sql"],
                    "executions": [execution_record(spark, e, raw) for e in new]})
    return out


def record_variant(scenarios: list[Scenario], variant: str, out: Path, version: str) -> None:
    """One SparkContext with event logging in the variant's form; its log and reported figures to out."""
    ws = session.Workspace()
    logs = ws.root / "eventlogs"
    logs.mkdir()
    extra = {"spark.eventLog.enabled": "true", "spark.eventLog.dir": logs.as_uri(), **VARIANTS[variant]}
    t0 = time.monotonic()
    try:
        root = session.build(ws, "in-memory", extra)
        try:
            app_id = str(root.sparkContext.applicationId)
            queries = []
            for sc in scenarios:
                run = ScenarioRun(root, ws, sc)
                for db in sorted({n.split(".")[0] for n in sc.tables if "." in n}):
                    run.spark.sql(f"CREATE DATABASE IF NOT EXISTS {db}")
                for n, s in sc.tables.items():
                    if run.create_table(n, s)["error"]:
                        raise SystemExit(f"{sc.key}: table {n} not created")
                queries.append({"scenario": sc.key, "queries": run_queries(run.spark, sc)})
            stages = stage_records(root)
        finally:
            session.stop(root)
        dest = out / variant
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        for p in logs.iterdir():
            (shutil.copytree if p.is_dir() else shutil.copy)(p, dest / p.name)
        doc = {"spark": version, "variant": variant, "confs": extra | {"spark.eventLog.dir": "{root}/eventlogs"},
               "appId": app_id, "scenarios": queries, "stages": stages}
        (dest / "reported.json").write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    finally:
        shutil.rmtree(ws.root, ignore_errors=True)
    log(f"[eventlog {variant}] {time.monotonic() - t0:.1f}s -> {out / variant}")


def main(scenarios: list[Scenario], out: Path, version: str, variants: list[str] | None) -> None:
    """Record every variant (or the chosen ones) into out."""
    for v in variants or list(VARIANTS):
        if v not in VARIANTS:
            raise SystemExit(f"unknown variant {v!r}; known: {', '.join(VARIANTS)}")
        record_variant(scenarios, v, out, version)
