"""Engine throughput per core: bucketlint, DuckDB and pyspark on the very same Parquet files.

Run under a pyspark venv (oracle/setup.sh) from the repository root, with a Python that has
``duckdb`` for the DuckDB part:

    python -m venv /tmp/duckvenv && /tmp/duckvenv/bin/pip install duckdb
    ~/.cache/bucketlint/venv-3.5.9/bin/python oracle/bench_engine.py --duckdb-python /tmp/duckvenv/bin/python

What is measured, in one run, on the tables of engine/exec's benchmarks (written by bucketlint:
``ba`` 10,485,760 rows and ``bb`` 1,048,576 rows of (k BIGINT, v BIGINT), k drawn from 1M values,
both bucketed into 64 buckets on k), and on the same rows written again by the Spark this script
runs under (``bucketBy(64, "k").saveAsTable`` with Spark's defaults: dictionary-encoded pages,
nullable columns, several files per bucket), which is what users verify on:

* join: ``count(*), sum(a.v)`` of ba ⋈ bb on k (rows counted: both inputs);
* aggregation: ``GROUP BY k`` over ba with ``count(*), sum(v)`` (1M groups), then counted;
* scan: ``count(*), sum(k), sum(v)`` over ba (every row of both columns read);
* bucketed write: ba, held in memory, written as 64 buckets on k (bucketlint's files only).

bucketlint: ``go test -tags engine -bench 'BucketLocalJoin$|BucketLocalAggregate$|Scan$|WriteBucketed$' -cpu 1``
(engine/exec, with BUCKETLINT_BENCH_DIR so the tables stay for the others; Spark's files are read
untrusted, checked as any user's). DuckDB: one thread
(``SET threads=1``) over ``read_parquet`` of the same files; its write is a ``COPY … PARTITION_BY``
on ``hash(k) % 64`` (DuckDB has no Spark bucketing; the work is the same kind). pyspark: the
files adopted as bucketed tables (``CREATE TABLE … CLUSTERED BY (k) INTO 64 BUCKETS LOCATION``),
``--master`` (default ``local[2]``), the plan Spark chooses (a bucket-local sort-merge join, no
Exchange); its write is ``bucketBy(64, "k").saveAsTable`` of the cached table.

Every figure is rows per CPU-second of the engine's own process (bucketlint: the test binary;
DuckDB: the Python process it runs in; Spark: the driver JVM, which runs the local executors),
so a shared machine's load does not distort it; each is the best of --rounds runs after a
warm-up (bucketlint: the best of ``-count`` rounds of ``-benchtime 2x``). Wall seconds are printed
too. ``--peers duckdb`` leaves Spark's queries out (Spark still writes its copy of the tables).
``--keep DIR`` writes the tables into DIR (``bucketlint``, ``spark-<version>``) and keeps them;
a later run reuses them, so that runs under each Spark version, or other builds of the engine
(``BUCKETLINT_BENCH_DIR=DIR/spark-3.5.9 go test -tags engine -bench …``), read the same files.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JOIN_ROWS = 10 * 2**20 + 2**20
AGG_ROWS = 10 * 2**20
WRITE_ROWS = 10 * 2**20


def proc_cpu(pid: int | str = "self") -> float:
    """User plus system CPU seconds of a process, from /proc (children not included)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def best(fn, rounds: int) -> tuple[float, float]:
    """Runs fn once to warm up, then rounds times; the least (cpu, wall) seconds."""
    fn()
    cpu, wall = [], []
    for _ in range(rounds):
        c, w = fn()
        cpu.append(c)
        wall.append(w)
    return min(cpu), min(wall)


def run_duckdb(tables: str, rounds: int, write: bool) -> dict:
    import duckdb

    con = duckdb.connect()
    con.execute("SET threads=1")
    ba = os.path.join(tables, "ba", "*.parquet")
    bb = os.path.join(tables, "bb", "*.parquet")

    def timed(sql: str):
        def fn():
            c0, w0 = proc_cpu(), time.monotonic()
            con.execute(sql).fetchall()
            return proc_cpu() - c0, time.monotonic() - w0
        return fn

    out = {"version": duckdb.__version__}
    out["join"] = best(timed(f"SELECT count(*), sum(a.v) FROM read_parquet('{ba}') a JOIN read_parquet('{bb}') b ON a.k = b.k"), rounds)
    out["aggregate"] = best(timed(f"SELECT count(*), sum(k) FROM (SELECT k, count(*) AS n, sum(v) AS s FROM read_parquet('{ba}') GROUP BY k)"), rounds)
    out["scan"] = best(timed(f"SELECT count(*), sum(k), sum(v) FROM read_parquet('{ba}')"), rounds)
    if not write:
        return out
    con.execute(f"CREATE TABLE mem AS SELECT * FROM read_parquet('{ba}')")
    work = tempfile.mkdtemp(prefix="bench-duckdb-")
    n = [0]

    def write_once():
        n[0] += 1
        dst = os.path.join(work, str(n[0]))
        c0, w0 = proc_cpu(), time.monotonic()
        con.execute(f"COPY (SELECT k, v, hash(k) % 64 AS bucket FROM mem) TO '{dst}' "
                    "(FORMAT parquet, PARTITION_BY (bucket), COMPRESSION snappy)")
        took = proc_cpu() - c0, time.monotonic() - w0
        shutil.rmtree(dst, ignore_errors=True)
        return took

    out["write"] = best(write_once, rounds)
    shutil.rmtree(work, ignore_errors=True)
    return out


def spark_session(master: str, work: str, tables: str):
    """A session with bucketlint's files in tables adopted as the bucketed tables ba and bb."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master(master).appName("bucketlint-bench-engine")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.warehouse.dir", os.path.join(work, "warehouse"))
             .config("spark.local.dir", os.path.join(work, "local"))
             .config("spark.driver.memory", "4g")
             .config("spark.sql.autoBroadcastJoinThreshold", "-1")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    for name in ("ba", "bb"):
        spark.sql(f"CREATE TABLE {name} (k BIGINT, v BIGINT) USING parquet CLUSTERED BY (k) INTO 64 BUCKETS "
                  f"LOCATION '{os.path.join(tables, name)}'")
    return spark


def spark_write_copy(spark, dst: str) -> None:
    """Writes ba and bb again with Spark's bucketBy, with Spark's default Parquet settings."""
    for name in ("ba", "bb"):
        (spark.table(name).write.bucketBy(64, "k").option("path", os.path.join(dst, name))
         .saveAsTable(f"spark_{name}"))


def run_spark(spark, master: str, rounds: int) -> dict:
    jvm = spark.sparkContext._gateway.proc.pid

    def timed(sql: str):
        def fn():
            c0, w0 = proc_cpu(jvm), time.monotonic()
            spark.sql(sql).collect()
            return proc_cpu(jvm) - c0, time.monotonic() - w0
        return fn

    out = {"version": spark.version, "master": master}
    join = "SELECT count(*), sum(a.v) FROM ba a JOIN bb b ON a.k = b.k"
    plan = spark.sql(join)._jdf.queryExecution().executedPlan().toString()
    out["join_exchanges"] = plan.count("Exchange hashpartitioning")
    out["join"] = best(timed(join), rounds)
    out["aggregate"] = best(timed("SELECT count(*), sum(k) FROM (SELECT k, count(*) AS n, sum(v) AS s FROM ba GROUP BY k)"), rounds)
    out["scan"] = best(timed("SELECT count(*), sum(k), sum(v) FROM ba"), rounds)
    df = spark.table("ba").cache()
    df.count()
    n = [0]

    def write():
        n[0] += 1
        c0, w0 = proc_cpu(jvm), time.monotonic()
        df.write.bucketBy(64, "k").saveAsTable(f"bw{n[0]}")
        took = proc_cpu(jvm) - c0, time.monotonic() - w0
        spark.sql(f"DROP TABLE bw{n[0]}")
        return took

    out["write"] = best(write, rounds)
    df.unpersist()
    return out


def run_bucketlint(tables: str, rounds: int, write: bool) -> dict:
    env = dict(os.environ, BUCKETLINT_BENCH_DIR=tables)
    bench = "BucketLocalJoin$|BucketLocalAggregate$|Scan$" + ("|WriteBucketed$" if write else "")
    cmd = ["go", "test", "-tags", "engine", "-run", "^$", "-bench", bench,
           "-cpu", "1", "-benchtime", "2x", "-count", str(rounds), "./engine/exec"]
    p = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit("go test -bench failed")
    out = {}
    for line in p.stdout.splitlines():
        m = re.match(r"Benchmark(\w+)\s+\d+\s+(\d+) ns/op.*?([\d.]+) cpu-ms/op", line)
        if m:
            got = (float(m.group(3)) / 1e3, int(m.group(2)) / 1e9)
            had = out.get(m.group(1), got)
            out[m.group(1)] = (min(had[0], got[0]), min(had[1], got[1]))
    res = {"join": out["BucketLocalJoin"], "aggregate": out["BucketLocalAggregate"], "scan": out["Scan"]}
    if write:
        res["write"] = out["WriteBucketed"]
    return res


def run_duckdb_child(python: str, tables: str, rounds: int, write: bool) -> dict:
    cmd = [python, os.path.abspath(__file__), "--child", "duckdb", "--tables", tables, "--rounds", str(rounds)]
    if not write:
        cmd.append("--no-write")
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit("the DuckDB run failed")
    return json.loads(p.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duckdb-python", help="a Python with duckdb (default: this one)", default=sys.executable)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--peers", default="duckdb,spark", help="engines besides bucketlint: duckdb, spark or both")
    ap.add_argument("--child", choices=["duckdb"], help=argparse.SUPPRESS)
    ap.add_argument("--tables", help=argparse.SUPPRESS)
    ap.add_argument("--no-write", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--keep", metavar="DIR", help="write the tables into DIR and keep them there; tables "
                    "already there are reused (DIR/bucketlint, DIR/spark-VERSION), so runs under several "
                    "Spark versions, or of several engine builds, read the very same files")
    args = ap.parse_args()
    if args.child == "duckdb":
        json.dump(run_duckdb(args.tables, args.rounds, not args.no_write), sys.stdout)
        return 0
    peers = set(args.peers.split(","))
    root = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="bucketlint-bench-tables-")
    work = tempfile.mkdtemp(prefix="spark-work-", dir=root) if args.keep else os.path.join(root, "spark-work")
    mine = os.path.join(root, "bucketlint")
    results = {}
    try:
        results["bucketlint", "bucketlint"] = run_bucketlint(mine, args.rounds, True)
        spark = spark_session(args.master, work, mine)
        version = spark.version
        theirs = os.path.join(root, f"spark-{version}")
        if not os.path.isdir(os.path.join(theirs, "bb")):
            shutil.rmtree(theirs, ignore_errors=True)
            spark_write_copy(spark, theirs)
        if "spark" in peers:
            results["spark", "bucketlint"] = run_spark(spark, args.master, args.rounds)
        spark.stop()
        results["bucketlint", "spark"] = run_bucketlint(theirs, args.rounds, False)
        if "duckdb" in peers:
            results["duckdb", "bucketlint"] = run_duckdb_child(args.duckdb_python, mine, args.rounds, True)
            results["duckdb", "spark"] = run_duckdb_child(args.duckdb_python, theirs, args.rounds, False)
    finally:
        shutil.rmtree(work if args.keep else root, ignore_errors=True)
    rows = {"join": JOIN_ROWS, "aggregate": AGG_ROWS, "scan": AGG_ROWS, "write": WRITE_ROWS}
    names = {"bucketlint": "bucketlint (one core)", "spark": f"Spark {version} {args.master}"}
    if ("duckdb", "bucketlint") in results:
        names["duckdb"] = f"DuckDB {results['duckdb', 'bucketlint']['version']} (threads=1)"
    if ("spark", "bucketlint") in results:
        print(f"Spark's join plan has {results['spark', 'bucketlint']['join_exchanges']} Exchange(s)")
    whats = ("join", "aggregate", "scan", "write")
    for writer in ("bucketlint", "spark"):
        print(f"\nfiles written by {'bucketlint' if writer == 'bucketlint' else 'Spark ' + version + ' bucketBy'}"
              " (M rows per CPU-second, best wall seconds)")
        print(f"{'':34} " + " ".join(f"{w:>22}" for w in ("join", "aggregation", "scan", "bucketed write")))
        for eng in ("bucketlint", "duckdb", "spark"):
            res = results.get((eng, writer))
            if res is None:
                continue
            cells = []
            for what in whats:
                if what not in res:
                    cells.append("")
                    continue
                cpu, wall = res[what]
                cells.append(f"{rows[what] / cpu / 1e6:6.1f} M/cpu-s ({wall:5.2f} s)")
            print(f"{names[eng]:34} " + " ".join(f"{c:>22}" for c in cells))
        peer = results.get(("duckdb", writer))
        if peer:
            mine_ = results["bucketlint", writer]
            ratios = [f"{w} {peer[w][0] / mine_[w][0]:.2f}x" for w in whats if w in mine_ and w in peer]
            print("bucketlint / DuckDB per CPU-second: " + ", ".join(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
