"""Command line: run, check, random, hashvectors, eventlog, list."""
from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys
import tempfile
import time
from pathlib import Path

from oracle import versions

REPO = Path(__file__).resolve().parent.parent
SPARK_COMMANDS = {"run", "check", "hashvectors", "icebergvectors", "eventlog"}


def ensure_interpreter(version: str, argv: list[str]) -> None:
    """Re-exec under the pinned venv unless this interpreter already has pyspark==version."""
    try:
        have = importlib.metadata.version("pyspark")
    except importlib.metadata.PackageNotFoundError:
        have = None
    if have == version:
        return
    py = versions.venv_python(version)
    if os.environ.get("BUCKETLINT_ORACLE_REEXEC") or not py.exists():
        raise SystemExit(f"pyspark {version} not available (have {have}); run oracle/setup.sh "
                         f"(expected interpreter {py})")
    env = dict(os.environ, BUCKETLINT_ORACLE_REEXEC="1")
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    os.execve(str(py), [str(py), "-m", "oracle", *argv], env)


def add_selection(p: argparse.ArgumentParser) -> None:
    """--subset / --sample options."""
    p.add_argument("--subset", action="append", help="only scenarios whose <group>/<name> contains this (repeatable)")
    p.add_argument("--sample", type=int, help="deterministic sample of N scenarios (after --subset)")
    p.add_argument("--sample-seed", type=int, default=0)


def parser() -> argparse.ArgumentParser:
    """Argument parser."""
    ap = argparse.ArgumentParser(prog="python -m oracle", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="regenerate fixtures for one Spark version")
    r.add_argument("--spark", required=True)
    r.add_argument("scenarios", type=Path)
    r.add_argument("out", type=Path)
    add_selection(r)
    r.add_argument("--recorded-only", action="store_true",
                   help="only the scenarios the output folder already holds (re-record a sampled folder)")
    c = sub.add_parser("check", help="re-run live and diff against committed fixtures (exit 1 on difference)")
    c.add_argument("--spark", required=True)
    c.add_argument("scenarios", type=Path)
    c.add_argument("fixtures", type=Path)
    add_selection(c)
    c.add_argument("--recorded-only", action="store_true",
                   help="choose only among the scenarios the fixture folder holds (a folder recorded with --sample)")
    g = sub.add_parser("random", help="write seeded random scenarios (YAML) for differential testing")
    g.add_argument("--seed", type=int, required=True)
    g.add_argument("--count", type=int, required=True)
    g.add_argument("out", type=Path)
    h = sub.add_parser("hashvectors", help="record Murmur3/pmod (and Hive hash) vectors from real Spark")
    h.add_argument("--spark", required=True)
    h.add_argument("out", type=Path)
    iv = sub.add_parser("icebergvectors", help="record Iceberg bucket transform vectors from the real iceberg-spark-runtime jar")
    iv.add_argument("--spark", required=True)
    iv.add_argument("out", type=Path)
    e = sub.add_parser("eventlog", help="record real event logs (plain, rolled, lz4, snappy, zstd) of scenarios")
    e.add_argument("--spark", required=True)
    e.add_argument("--variant", action="append", help="only this variant (repeatable)")
    e.add_argument("scenarios", type=Path)
    e.add_argument("out", type=Path)
    add_selection(e)
    ls = sub.add_parser("list", help="list scenario keys")
    ls.add_argument("scenarios", type=Path)
    add_selection(ls)
    return ap


def main(argv: list[str]) -> int:
    """CLI entry point; returns the exit code."""
    args = parser().parse_args(argv)
    if args.cmd in SPARK_COMMANDS:
        series, version = versions.resolve(args.spark)
        ensure_interpreter(version, argv)
        versions.use_venv_java()
    from oracle.scenarios import load_dir, select  # noqa: PLC0415 - needs PyYAML (the venv has it)
    if args.cmd == "list":
        for s in select(load_dir(args.scenarios), args.subset, args.sample, args.sample_seed):
            print(f"{s.key}\t{s.description}")
        return 0
    if args.cmd == "random":
        from oracle import randomgen  # noqa: PLC0415

        for p in randomgen.write(args.seed, args.count, args.out):
            print(p)
        return 0
    if args.cmd == "hashvectors":
        from oracle import hashvectors  # noqa: PLC0415

        hashvectors.main(series, args.out)
        return 0
    if args.cmd == "icebergvectors":
        from oracle import icebergvectors  # noqa: PLC0415

        icebergvectors.main(series, args.out)
        return 0
    if args.cmd == "eventlog":
        from oracle import eventlog  # noqa: PLC0415

        eventlog.main(select(load_dir(args.scenarios), args.subset, args.sample, args.sample_seed),
                      args.out, version, args.variant)
        return 0
    from oracle import fixtures, runner  # noqa: PLC0415

    all_sc = load_dir(args.scenarios)
    base = all_sc
    if args.recorded_only:
        folder = args.fixtures if args.cmd == "check" else args.out
        base = [s for s in all_sc if (folder / fixtures.rel_dir(s) / "scenario.json").exists()]
    chosen = select(base, args.subset, args.sample, args.sample_seed)
    partial = len(chosen) != len(all_sc)
    if args.cmd == "run":
        args.out.mkdir(parents=True, exist_ok=True)
        stats = runner.run_all(chosen, args.out)
        if not partial:
            fixtures.prune(args.out, all_sc)
        fixtures.write_index(args.out, series, version)
        rel = os.path.relpath(args.scenarios.resolve(), REPO) if REPO in args.scenarios.resolve().parents \
            else str(args.scenarios)
        out_rel = os.path.relpath(args.out.resolve(), REPO) if REPO in args.out.resolve().parents else str(args.out)
        iceberg = versions.iceberg_version(series) if any(s.session == "iceberg" for s in all_sc) else None
        fixtures.write_readme(args.out, series, version, rel.rstrip("/") + "/", len(fixtures.scenario_dirs(args.out)),
                              len(all_sc), iceberg=iceberg, out_dir=out_rel.rstrip("/") + "/")
        print(f"ran {stats['scenarios']} scenarios, {stats['queries']} queries in {stats['seconds']}s -> {args.out}")
        return 0
    # check
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bucketlint-check-") as tmp:
        live = Path(tmp)
        runner.run_all(chosen, live)
        problems = fixtures.compare(args.fixtures, live, chosen)
    if not partial:
        on_disk = {str(d.relative_to(args.fixtures)) for d in fixtures.scenario_dirs(args.fixtures)}
        from oracle.normalize import slug  # noqa: PLC0415

        wanted = {f"{slug(s.group)}/{slug(s.name)}" for s in all_sc}
        problems += [f"{p}: committed but no such scenario" for p in sorted(on_disk - wanted)]
    for p in problems:
        print(p)
    secs = time.monotonic() - t0
    print(f"check: {len(chosen)} scenarios, {len(problems)} differences, {secs:.1f}s", file=sys.stderr)
    return 1 if problems else 0
