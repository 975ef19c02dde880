"""Fixture folder bookkeeping: index.json, README.md, and comparison for `check` (no Spark)."""
from __future__ import annotations

import difflib
import json
import re
import platform
import shutil
import subprocess
from pathlib import Path
from typing import Any

from oracle.normalize import dumps, pretty, slug
from oracle.scenarios import Scenario

# Spark 3.0-3.2 print each exchange's id ("Exchange hashpartitioning(a#68, 200),
# ENSURE_REQUIREMENTS, [id=#567]"): a counter of the session, which a run of a sample of the
# scenarios advances differently from the full recording.
EXCHANGE_ID_RE = re.compile(r"\[id=#\d+\]")

GENERATED = ("index.json", "README.md")


def java_version() -> str:
    """First line of `java -version`."""
    try:
        out = subprocess.run(["java", "-version"], capture_output=True, text=True, check=False)
        return (out.stderr or out.stdout).splitlines()[0].strip()
    except OSError:
        return "unknown"


def scenario_dirs(out: Path) -> list[Path]:
    """Every <group>/<scenario>/ folder holding a scenario.json."""
    return sorted(p.parent for p in out.glob("*/*/scenario.json"))


def build_index(out: Path, series: str, version: str) -> dict[str, Any]:
    """Summary of every scenario on disk: shuffles/sorts per query and AQE mode, errors."""
    entries = []
    for d in scenario_dirs(out):
        rec = json.loads((d / "scenario.json").read_text())
        queries = {}
        for q in rec.get("queries", []):
            entry: dict[str, Any] = {
                label: ({"error": run["error"]["pyClass"]} if run.get("error") else
                        {"shuffles": run["counts"]["shuffles"], "sorts": run["counts"]["sorts"],
                         "bucketedScans": run["counts"]["bucketedScans"]})
                for label, run in q["runs"].items()}
            entry["rows"] = q["result"]["rows"] if q.get("result") else None
            queries[q["name"]] = entry
        errors = [t["name"] for t in rec.get("tables", []) if t.get("error")]
        errors += [s["sql"] for s in rec.get("statements", []) if s.get("error")]
        errors += [w["name"] for w in rec.get("writes", []) if w.get("error")]
        entries.append({"path": str(d.relative_to(out)), "name": rec["name"], "group": rec["group"],
                        "ref": rec.get("ref"), "description": rec["description"],
                        "queries": queries, "errors": errors})
    return {"spark": {"series": series, "version": version}, "scenarios": entries}


def rel_dir(sc: Scenario) -> Path:
    """A scenario's folder below a fixture root: <group>/<name>."""
    return Path(slug(sc.group)) / slug(sc.name)


def write_readme(out: Path, series: str, version: str, scenario_dir: str, n: int, total: int = 0,
                 iceberg: str | None = None, out_dir: str = "") -> None:
    """Provenance README of one fixture folder (n of the total scenarios recorded); iceberg is
    the iceberg-spark-runtime release the Iceberg scenarios ran with, out_dir the folder as
    the command names it (default fixtures/spark/<series>/)."""
    import pyspark  # noqa: PLC0415

    from oracle import versions  # noqa: PLC0415

    scenarios = str(n)
    run = check = ""
    if n < total:
        sample = versions.options().get(series, {}).get("sample", "N")
        scenarios = (f"{n} of the {total}: first recorded with `--sample {sample} --sample-seed 0`, more added "
                     "with `--subset`; `--recorded-only` re-records or checks exactly these")
        run = check = " --recorded-only"

    out_dir = out_dir or f"fixtures/spark/{series}/"
    master = ("local[2], in-memory catalog (Hive scenarios: Hive catalog with a Derby metastore), UI off, "
              "session time zone UTC")
    extra = ""
    if iceberg:
        scala = "2.12" if series.startswith("3.") else "2.13"
        master = ("local[2], Iceberg's SparkSessionCatalog as spark_catalog over a Hadoop catalog in a temp "
                  "warehouse, Iceberg SQL extensions, UI off, session time zone UTC")
        extra = f"| Iceberg | iceberg-spark-runtime-{series}_{scala} {iceberg} (Maven Central) |\n"
    text = f"""# Spark {version} oracle fixtures

Recorded from real Spark by `oracle/` (test tooling; see `oracle/README.md` for the JSON schema).
Do not edit by hand: regenerate.

| | |
|---|---|
| Spark (pyspark) | {pyspark.__version__} |
| Python | {platform.python_version()} |
| Java | {java_version()} |
{extra}| Master | {master} |
| Scenarios | {scenarios} |

Command (from the repository root, after `oracle/setup.sh`):

    python -m oracle run --spark {series} {scenario_dir} {out_dir}{run}

Check against a live Spark (exit 1 on any difference):

    python -m oracle check --spark {series} {scenario_dir} {out_dir}{check}
"""
    (out / "README.md").write_text(text)


def write_index(out: Path, series: str, version: str) -> None:
    """index.json at the fixture root."""
    (out / "index.json").write_text(dumps(build_index(out, series, version)))


def prune(out: Path, keep: list[Scenario]) -> None:
    """Remove scenario folders (and empty group folders) that are not in `keep`."""
    wanted = {f"{slug(s.group)}/{slug(s.name)}" for s in keep}
    for d in scenario_dirs(out):
        if str(d.relative_to(out)) not in wanted:
            shutil.rmtree(d)
    for g in out.iterdir() if out.exists() else []:
        if g.is_dir() and not any(g.iterdir()):
            g.rmdir()


def files_of(d: Path) -> dict[str, Path]:
    """Relative path -> file, for every file below d."""
    return {str(p.relative_to(d)): p for p in sorted(d.rglob("*")) if p.is_file()}


def compare(expected: Path, actual: Path, scenarios: list[Scenario], max_lines: int = 40) -> list[str]:
    """Differences between committed and freshly generated scenario folders (empty = identical)."""
    problems: list[str] = []
    for sc in scenarios:
        rel = Path(slug(sc.group)) / slug(sc.name)
        e, a = files_of(expected / rel), files_of(actual / rel)
        for name in sorted(set(e) | set(a)):
            if name not in e:
                problems.append(f"{rel}/{name}: not in committed fixtures")
                continue
            if name not in a:
                problems.append(f"{rel}/{name}: not produced by this run")
                continue
            et, at = e[name].read_text(), a[name].read_text()
            if et != at and EXCHANGE_ID_RE.sub("[id=#N]", et) == EXCHANGE_ID_RE.sub("[id=#N]", at):
                continue  # only Spark's exchange ids differ: a session counter, not the plan
            if et != at:
                if name.endswith(".json"):
                    et, at = pretty(et), pretty(at)
                diff = list(difflib.unified_diff(et.splitlines(), at.splitlines(), f"committed/{rel}/{name}",
                                                 f"live/{rel}/{name}", lineterm="", n=1))
                problems.append("\n".join(diff[:max_lines]) + ("\n..." if len(diff) > max_lines else ""))
    return problems
