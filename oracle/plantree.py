"""Spark's physical plan read through py4j, as a JSON-able tree (needs a live JVM).

The tree mirrors what the explain printer shows: WholeStageCodegenExec and InputAdapter
nodes are skipped and their stage id is recorded as `codegenStage` on the nodes inside;
query stages (AQE) show their plan as the only child; ReusedExchange is a leaf.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from oracle.normalize import key

AGGREGATES = {"HashAggregateExec", "ObjectHashAggregateExec", "SortAggregateExec"}
SCANS = {"FileSourceScanExec", "HiveTableScanExec", "BatchScanExec", "RowDataSourceScanExec",
         "InMemoryTableScanExec", "LocalTableScanExec", "RangeExec"}
PART_KIND = {"HashPartitioning": "hashpartitioning", "RangePartitioning": "rangepartitioning"}


def jvm_of(df: Any) -> Any:
    """The py4j JVM view of df's session (DataFrame.sparkSession exists only from pyspark 3.3)."""
    from pyspark import SparkContext  # noqa: PLC0415

    return SparkContext._jvm  # type: ignore[attr-defined]


def seq(s: Any) -> list[Any]:
    """Scala Seq -> list."""
    return [s.apply(i) for i in range(s.size())]


def opt(o: Any) -> Any:
    """Scala Option -> value or None."""
    return o.get() if o.isDefined() else None


def simple_name(obj: Any) -> str:
    """Java simple class name without Scala's trailing `$`."""
    return str(obj.getClass().getSimpleName()).rstrip("$")


def attempt(fn: Callable[[], Any], default: Any = None) -> Any:
    """Call fn; on any py4j / attribute error return default (fields differ across versions)."""
    try:
        return fn()
    except Exception:  # noqa: BLE001
        return default


def keys(exprs: Any) -> list[dict[str, str]]:
    """Scala Seq of expressions -> [{name, raw}]."""
    return [key(str(e.toString())) for e in seq(exprs)]


def partitioning(p: Any) -> dict[str, Any]:
    """outputPartitioning / exchange partitioning as {kind, keys, numPartitions[, members]}."""
    cls = simple_name(p)
    out: dict[str, Any] = {"kind": PART_KIND.get(cls, cls), "numPartitions": attempt(lambda: int(p.numPartitions()))}
    if cls == "PartitioningCollection":
        out["members"] = [partitioning(m) for m in seq(p.partitionings())]
        out["keys"] = []
    elif cls == "KeyGroupedPartitioning":
        out["keys"] = attempt(lambda: keys(p.expressions()), [])
        out["partitionValues"] = attempt(lambda: len(seq(p.partitionValues())))
    elif cls.startswith("Coalesced"):
        out["keys"] = attempt(lambda: keys(p.children()), []) or attempt(lambda: keys(getattr(p, "from")().children()), [])
    else:
        out["keys"] = attempt(lambda: keys(p.children()), [])
    return out


def java_map(jvm: Any, m: Any) -> dict[str, str]:
    """Scala Map[String,String] -> dict."""
    jm = attempt(lambda: jvm.scala.collection.JavaConverters.mapAsJavaMapConverter(m).asJava())
    if jm is None:
        return {}
    return {str(k): str(jm.get(k)) for k in list(jm.keySet().toArray())}


def scan_info(jvm: Any, n: Any, cls: str) -> dict[str, Any]:
    """Scan details: table, format, bucketing, filters."""
    info: dict[str, Any] = {}
    if cls == "FileSourceScanExec":
        rel = n.relation()
        spec = attempt(lambda: opt(rel.bucketSpec()))
        bset = attempt(lambda: opt(n.optionalBucketSet()))
        meta = java_map(jvm, n.metadata())
        total = int(spec.numBuckets()) if spec is not None else None
        info.update({
            "table": attempt(lambda: str(opt(n.tableIdentifier()).unquotedString())),
            "format": str(rel.fileFormat().toString()),
            "bucketed": attempt(lambda: bool(n.bucketedScan())),
            "bucketSpec": None if spec is None else {
                "numBuckets": total, "bucketColumns": [str(c) for c in seq(spec.bucketColumnNames())],
                "sortColumns": [str(c) for c in seq(spec.sortColumnNames())]},
            "totalBuckets": total,
            "bucketPruned": bset is not None,
            "selectedBuckets": int(bset.cardinality()) if bset is not None else total,
            "coalescedTo": attempt(lambda: opt(n.optionalNumCoalescedBuckets())),
            "partitionFilters": attempt(lambda: keys(n.partitionFilters()), []),
            "dataFilters": attempt(lambda: keys(n.dataFilters()), []),
            "pushedFilters": meta.get("PushedFilters"),
        })
        if info["coalescedTo"] is not None:
            info["coalescedTo"] = int(info["coalescedTo"])
    elif cls == "HiveTableScanExec":
        info.update({
            "table": attempt(lambda: str(n.relation().tableMeta().identifier().unquotedString())),
            "format": "hive", "bucketed": False,
            "partitionFilters": attempt(lambda: keys(n.partitionPruningPred()), []),
        })
    elif cls == "BatchScanExec":
        info.update({
            "table": attempt(lambda: str(n.table().name())),
            "format": cls, "bucketed": False,
            "keyGrouped": attempt(lambda: simple_name(n.outputPartitioning()) == "KeyGroupedPartitioning", False),
            "runtimeFilters": attempt(lambda: keys(n.runtimeFilters()), []),
        })
    else:
        info["format"] = cls
    return info


def node_details(jvm: Any, n: Any, cls: str, out: dict[str, Any]) -> None:
    """Add the operator-specific sections (exchange, join, scan, sort, aggregate, ...)."""
    if cls == "ShuffleExchangeExec":
        out["exchange"] = {"type": "shuffle", **partitioning(n.outputPartitioning()),
                           "origin": attempt(lambda: str(n.shuffleOrigin().toString()))}
    elif cls == "BroadcastExchangeExec":
        out["exchange"] = {"type": "broadcast", "mode": attempt(lambda: str(n.mode().toString()))}
    elif cls.endswith("JoinExec") or cls == "CartesianProductExec":
        out["join"] = {
            "strategy": str(n.nodeName()),
            "joinType": attempt(lambda: str(n.joinType().toString())),
            "leftKeys": attempt(lambda: keys(n.leftKeys()), []),
            "rightKeys": attempt(lambda: keys(n.rightKeys()), []),
            "buildSide": attempt(lambda: str(n.buildSide().toString())),
            "condition": attempt(lambda: (lambda c: None if c is None else key(str(c.toString())))(opt(n.condition()))),
            "isSkewJoin": attempt(lambda: bool(n.isSkewJoin())),
        }
    elif cls in SCANS:
        out["scan"] = scan_info(jvm, n, cls)
    elif cls == "SortExec":
        out["sort"] = {"keys": keys(n.sortOrder()), "global": attempt(lambda: bool(getattr(n, "global")()))}
    elif cls in AGGREGATES:
        out["aggregate"] = {"keys": keys(n.groupingExpressions()), "functions": keys(n.aggregateExpressions())}
    elif cls == "WindowExec":
        out["window"] = {"partitionKeys": keys(n.partitionSpec()), "orderKeys": keys(n.orderSpec()),
                         "functions": keys(n.windowExpression())}
    elif cls == "FilterExec":
        out["filter"] = key(str(n.condition().toString()))
    elif cls == "ProjectExec":
        out["project"] = keys(n.projectList())


def is_final(n: Any) -> bool:
    """AdaptiveSparkPlanExec's private isFinalPlan flag, read from its simpleString."""
    return bool(re.search(r"isFinalPlan=true", str(n.simpleString(25))))


def private_field(n: Any, name: str) -> Any:
    """Read a private field by reflection (walks up superclasses)."""
    cls = n.getClass()
    while cls is not None:
        f = attempt(lambda: cls.getDeclaredField(name))
        if f is not None:
            f.setAccessible(True)
            return f.get(n)
        cls = cls.getSuperclass()
    return None


def tree(jvm: Any, n: Any, stage: int | None = None) -> dict[str, Any]:
    """Recursive conversion of one SparkPlan node."""
    cls = simple_name(n)
    if cls == "WholeStageCodegenExec":
        return tree(jvm, n.child(), int(n.codegenStageId()))
    if cls == "InputAdapter":
        return tree(jvm, n.child(), None)
    out: dict[str, Any] = {
        "class": cls,
        "nodeName": str(n.nodeName()),
        "codegenStage": stage,
        "outputPartitioning": attempt(lambda: partitioning(n.outputPartitioning())),
        "outputOrdering": attempt(lambda: keys(n.outputOrdering()), []),
    }
    children = seq(n.children())
    if cls == "AdaptiveSparkPlanExec":
        out["isFinalPlan"] = is_final(n)
        out["executedPlan"] = tree(jvm, n.executedPlan())
        # 3.1+: initialPlan is inputPlan after the query-stage preparation rules
        # (EnsureRequirements). 3.0 has no inputPlan: its initialPlan field is the input, before
        # EnsureRequirements; the runner then records the plan as it was before execution.
        init = private_field(n, "initialPlan") if private_field(n, "inputPlan") is not None else None
        out["initialPlan"] = tree(jvm, init) if init is not None else None
        children = []
    elif cls.endswith("QueryStageExec"):
        out["stageId"] = attempt(lambda: int(n.id()))
        children = [n.plan()]
    elif cls == "ReusedExchangeExec":
        out["reused"] = tree(jvm, n.child())["class"]
        children = []
    node_details(jvm, n, cls, out)
    out["children"] = [tree(jvm, c, stage) for c in children]
    return out


def executed_plan_tree(df: Any) -> dict[str, Any]:
    """`df._jdf.queryExecution().executedPlan()` as a tree."""
    jvm = jvm_of(df)
    return tree(jvm, df._jdf.queryExecution().executedPlan())


def initial_plan_before_execution(df: Any) -> dict[str, Any] | None:
    """Spark 3.0 only: the adaptive plan's current plan before execution, as a tree.

    3.0's AdaptiveSparkPlanExec keeps no field with the plan after EnsureRequirements and
    before execution (its initialPlan is the input plan; 3.1 renamed that inputPlan), so it is
    read before the query runs. None on 3.1+ and for plans that are not adaptive.
    """
    jvm = jvm_of(df)
    n = df._jdf.queryExecution().executedPlan()
    if simple_name(n) != "AdaptiveSparkPlanExec" or private_field(n, "inputPlan") is not None:
        return None
    return tree(jvm, n.executedPlan())
