"""The 10-million-row verify benchmark: bucketlint verify against the same check in pyspark.

Run under a pyspark venv (oracle/setup.sh), from the repository root, with a binary built with
the engine (``go build -tags engine -o bucketlint ./cmd/bucketlint``):

    ~/.cache/bucketlint/venv-3.5.9/bin/python oracle/bench_verify.py \
        --bucketlint ./bucketlint --master 'local[2]' --rounds 2

The check, done both ways on the transactions ⋈ accounts workload of
engine/verify's BenchmarkVerify10M (9,000,000 transactions bucketed by a BIGINT
account_id into 64 buckets, 1,000,000 accounts bucketed by an INT account_id into 16
buckets; the advice: accounts' key as BIGINT in 64 buckets, sorted):

1. make the data (transactions once, accounts in both layouts);
2. write the current layout and the advised one as bucketed tables;
3. run the query on both and count the shuffle Exchanges in each executed plan;
4. compare the two results as multisets (row count and an order-independent checksum).

bucketlint does it with ``bucketlint verify`` on a scenario file written here. pyspark does it
in one fresh session in ``--master`` mode: data from ``spark.range`` (the same row counts and key
cardinalities), ``bucketBy(...).saveAsTable`` for both layouts, the query on both, and the
comparison as a Spark aggregate (``count(*)``, ``sum(xxhash64(...))``), so no rows travel to
Python. Each round times both, interleaved, wall clock from process start to exit (the JVM's
start is part of what a user waits for), and the CPU time (user + system) of each child (for
pyspark, its Python process plus the driver JVM, read from /proc before the session stops), which
a loaded machine distorts far less. Peak RSS of each child
is reported too.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

SQL = """CREATE TABLE finance.transactions (txn_id BIGINT, account_id BIGINT, amount DECIMAL(18,2), day DATE)
USING parquet CLUSTERED BY (account_id) INTO 64 BUCKETS;
CREATE TABLE finance.accounts (account_id INT, status STRING) USING parquet CLUSTERED BY (account_id) INTO 16 BUCKETS;
SELECT t.account_id, count(*) AS txn_count, sum(t.amount) AS net
FROM finance.transactions t JOIN finance.accounts a ON t.account_id = a.account_id
WHERE a.status <> 'CLOSED' GROUP BY t.account_id;
"""

QUERY = SQL.split(";")[2].strip()

SCENARIO = """name: verify-10m
sql: [bench.sql]
tables:
  finance.transactions:
    rows: {txns}
    columns:
      account_id: {{cardinality: {accounts}}}
      day: {{cardinality: 30}}
  finance.accounts:
    rows: {accounts}
    columns:
      status: {{cardinality: 3}}
"""


def spark_check(master: str, txns: int, accounts: int, work: str) -> dict:
    """The verification in pyspark; runs in a child process (see main)."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    spark = (SparkSession.builder.master(master).appName("bucketlint-bench-verify")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.warehouse.dir", os.path.join(work, "warehouse"))
             .config("spark.local.dir", os.path.join(work, "local"))
             .config("spark.driver.memory", "4g")
             .config("spark.sql.session.timeZone", "UTC")
             # As in verify_spark.py: the layouts are compared with the join shuffled or
             # bucketed, not broadcast (1M accounts fit under the default 10 MB threshold).
             .config("spark.sql.autoBroadcastJoinThreshold", "-1")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    phases = {}
    t0 = time.monotonic()
    spark.sql("CREATE DATABASE IF NOT EXISTS before_db")
    spark.sql("CREATE DATABASE IF NOT EXISTS after_db")
    txn = (spark.range(txns)
           .select(F.col("id").alias("txn_id"),
                   F.pmod(F.xxhash64("id"), F.lit(accounts)).cast("bigint").alias("account_id"),
                   (F.pmod(F.xxhash64("id", F.lit(1)), F.lit(10_000_000)) / 100).cast("decimal(18,2)").alias("amount"),
                   F.date_add(F.lit("2024-06-01").cast("date"), F.pmod(F.col("id"), F.lit(30)).cast("int")).alias("day")))
    acc = (spark.range(accounts)
           .select(F.col("id").cast("int").alias("account_id"),
                   F.element_at(F.array(F.lit("OPEN"), F.lit("CLOSED"), F.lit("FROZEN")),
                                (F.pmod(F.col("id"), F.lit(3)) + 1).cast("int")).alias("status")))
    txn.write.bucketBy(64, "account_id").saveAsTable("before_db.transactions")
    acc.write.bucketBy(16, "account_id").saveAsTable("before_db.accounts")
    (acc.select(F.col("account_id").cast("bigint").alias("account_id"), "status")
        .write.bucketBy(64, "account_id").sortBy("account_id").saveAsTable("after_db.accounts"))
    phases["write_s"] = time.monotonic() - t0
    out = {}
    for side in ("before", "after"):
        t1 = time.monotonic()
        # transactions keeps its layout: both sides read the one table.
        df = spark.sql(QUERY.replace("finance.transactions", "before_db.transactions")
                       .replace("finance.accounts", side + "_db.accounts"))
        check = df.select(F.count(F.lit(1)).alias("n"),
                          F.sum(F.xxhash64(*df.columns).cast("decimal(38,0)")).alias("sum")).collect()[0]
        plan = df._jdf.queryExecution().executedPlan()
        text = plan.toString()
        # AQE wraps the plan: the final plan is what ran.
        exchanges = text.count("Exchange hashpartitioning")
        out[side] = {"rows": check["n"], "checksum": str(check["sum"]), "exchanges": exchanges,
                     "query_s": time.monotonic() - t1}
    rss = {"python_mib": vm_hwm_mib("self")}
    jvm_cpu = 0.0
    try:
        jvm = str(spark.sparkContext._gateway.proc.pid)
        rss["jvm_mib"] = vm_hwm_mib(jvm)
        jvm_cpu = proc_cpu(jvm)  # the JVM is not this process's waited-for child: read it here
    except (AttributeError, OSError):
        pass
    spark.stop()
    same = out["before"]["rows"] == out["after"]["rows"] and out["before"]["checksum"] == out["after"]["checksum"]
    return {"spark": spark.version, "phases": phases, "rss": rss, "sides": out, "identical": same, "jvm_cpu_s": jvm_cpu}


def proc_cpu(pid: str) -> float:
    """User plus system CPU seconds of a live process, from /proc."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def vm_hwm_mib(pid: str) -> float:
    """A process's peak resident set size (VmHWM) in MiB, from /proc."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise OSError("no VmHWM")


def child_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def children_cpu() -> float:
    """User plus system CPU seconds of the children (and their descendants) waited for so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def timed(cmd: list, env=None) -> tuple[float, float, str]:
    """Runs cmd; its wall and CPU seconds, and its output."""
    start, cpu0 = time.monotonic(), children_cpu()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    took = time.monotonic() - start
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"{cmd[0]} exited {p.returncode}")
    return took, children_cpu() - cpu0, p.stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bucketlint", required=True, help="the bucketlint binary")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--transactions", type=int, default=9_000_000)
    ap.add_argument("--accounts", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        json.dump(spark_check(args.master, args.transactions, args.accounts, args.child), sys.stdout)
        return 0
    work = tempfile.mkdtemp(prefix="bucketlint-bench-verify-")
    try:
        with open(os.path.join(work, "bench.sql"), "w", encoding="utf-8") as f:
            f.write(SQL)
        scen = os.path.join(work, "v.verify.yaml")
        with open(scen, "w", encoding="utf-8") as f:
            f.write(SCENARIO.format(txns=args.transactions, accounts=args.accounts))
        bl_times, sp_times, bl_cpus, sp_cpus = [], [], [], []
        bl_rss = sp_rss = 0.0
        for r in range(args.rounds):
            # bucketlint: its own process; ru_maxrss of children is a high-water mark, so it is
            # read after bucketlint's first run and before Spark's.
            took, cpu, out = timed([args.bucketlint, "verify", "--format", "json", scen])
            res = json.loads(out)
            v = res["scenarios"][0]
            bl_times.append(took)
            bl_cpus.append(cpu)
            if r == 0:
                bl_rss = child_rss_mib()
            print(f"round {r + 1}: bucketlint verify {took:.2f} s ({cpu:.2f} s CPU) "
                  f"(exchanges {v['before']['exchanges']} -> {v['after']['exchanges']}, identical {v['identical']})",
                  flush=True)
            sw = os.path.join(work, f"spark-{r}")
            os.makedirs(sw)
            took, cpu, out = timed([sys.executable, os.path.abspath(__file__), "--bucketlint", args.bucketlint,
                               "--master", args.master, "--transactions", str(args.transactions),
                               "--accounts", str(args.accounts), "--child", sw])
            shutil.rmtree(sw, ignore_errors=True)
            s = json.loads(out.strip().splitlines()[-1])
            cpu += s.get("jvm_cpu_s", 0.0)
            sp_times.append(took)
            sp_cpus.append(cpu)
            sp_rss = max(sp_rss, sum(s["rss"].values()))
            sb, sa = s["sides"]["before"], s["sides"]["after"]
            print(f"round {r + 1}: pyspark {s['spark']} {args.master} {took:.2f} s ({cpu:.2f} s CPU) "
                  f"(writing {s['phases']['write_s']:.1f} s, query {sb['query_s']:.1f} s -> {sa['query_s']:.1f} s, "
                  f"exchanges {sb['exchanges']} -> {sa['exchanges']}, identical {s['identical']})", flush=True)
        b, s = min(bl_times), min(sp_times)
        print(f"best of {args.rounds}: bucketlint {b:.2f} s, pyspark {s:.2f} s: {s / b:.1f}x")
        bc, sc = min(bl_cpus), min(sp_cpus)
        print(f"CPU, best of {args.rounds}: bucketlint {bc:.2f} s, pyspark {sc:.2f} s: {sc / bc:.1f}x")
        print(f"peak RSS: bucketlint {bl_rss:.0f} MiB; pyspark {sp_rss:.0f} MiB (driver JVM and Python together)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
