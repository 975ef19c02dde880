"""Counting Exchanges and Sorts in a plan tree produced by plantree (pure, no Spark)."""
from __future__ import annotations

from typing import Any, Iterator


def walk(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Pre-order walk over `children` (an AdaptiveSparkPlan node is walked through its executedPlan)."""
    if node.get("class") == "AdaptiveSparkPlanExec" and node.get("executedPlan"):
        yield from walk(node["executedPlan"])
        return
    yield node
    for c in node.get("children", []):
        yield from walk(c)


def side_counts(node: dict[str, Any]) -> dict[str, int]:
    """Shuffles and sorts below one join input, not descending into nested joins."""
    out = {"shuffles": 0, "sorts": 0, "broadcasts": 0}

    def rec(n: dict[str, Any]) -> None:
        cls = n.get("class", "")
        if cls == "ShuffleExchangeExec":
            out["shuffles"] += 1
        elif cls == "SortExec":
            out["sorts"] += 1
        elif cls == "BroadcastExchangeExec":
            out["broadcasts"] += 1
        if "join" in n:
            return
        for c in n.get("children", []):
            rec(c)

    rec(node)
    return out


def count(root: dict[str, Any]) -> dict[str, Any]:
    """Totals and per-join-side counts for one plan tree."""
    total = {"shuffles": 0, "broadcastExchanges": 0, "reusedExchanges": 0, "sorts": 0,
             "scans": 0, "bucketedScans": 0}
    joins = []
    for n in walk(root):
        cls = n.get("class", "")
        if cls == "ShuffleExchangeExec":
            total["shuffles"] += 1
        elif cls == "BroadcastExchangeExec":
            total["broadcastExchanges"] += 1
        elif cls == "ReusedExchangeExec":
            total["reusedExchanges"] += 1
        elif cls == "SortExec":
            total["sorts"] += 1
        if "scan" in n:
            total["scans"] += 1
            total["bucketedScans"] += 1 if n["scan"].get("bucketed") else 0
        if "join" in n:
            ch = n.get("children", [])
            j = {"strategy": n["join"]["strategy"], "joinType": n["join"].get("joinType")}
            if len(ch) == 2:
                j["left"] = side_counts(ch[0])
                j["right"] = side_counts(ch[1])
            joins.append(j)
    total["joins"] = joins
    return total
