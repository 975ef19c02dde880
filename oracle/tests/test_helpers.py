"""Tests for the Spark-free helpers: YAML loading, normalisation, checksums, counting."""
from __future__ import annotations

from pathlib import Path

import pytest

from oracle import counts, datagen, randomgen, versions
from oracle.normalize import checksum, normalize_text, row_string, strip_ids
from oracle.scenarios import ScenarioError, load_dir, parse_file, select

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"

DOC = """
group: g
defaults: {rows: 10, confs: {spark.sql.autoBroadcastJoinThreshold: -1}}
tables:
  t: {columns: {a: int, s: string}, bucket: [4, [a]]}
scenarios:
  - name: one
    description: first
    confs: {spark.sql.adaptive.enabled: false}
    tables: {t: {}, u: {like: t, bucket: {buckets: 8, by: [a], sort: [a]}}}
    queries: ["SELECT * FROM t", {name: j, sql: "SELECT *\\n FROM t JOIN u ON t.a = u.a"}]
"""


def test_parse_file_resolves_templates_and_defaults() -> None:
    [sc] = parse_file(DOC, "x.yaml")
    assert sc.key == "g/one"
    assert sc.confs == {"spark.sql.autoBroadcastJoinThreshold": "-1", "spark.sql.adaptive.enabled": "false"}
    assert sc.tables["t"]["bucket"] == {"buckets": 4, "by": ["a"], "sort": []}
    assert sc.tables["u"]["bucket"]["buckets"] == 8
    assert sc.tables["u"]["rows"] == 10
    assert [q["name"] for q in sc.queries] == ["q1", "j"]
    assert sc.queries[1]["sql"] == "SELECT * FROM t JOIN u ON t.a = u.a"


@pytest.mark.parametrize("bad", [
    "scenarios: [{name: x}]",
    "scenarios: [{name: x, description: d, bogus: 1}]",
    "scenarios: [{name: x, description: d, tables: {t: {columns: {a: nope}}}}]",
    "scenarios: [{name: x, description: d, tables: [missing]}]",
])
def test_parse_file_rejects_malformed(bad: str) -> None:
    with pytest.raises(ScenarioError):
        parse_file(bad, "bad.yaml")


def test_committed_scenarios_load() -> None:
    scs = load_dir(SCENARIOS)
    assert len(scs) >= 150
    assert len({s.key for s in scs}) == len(scs)
    assert all(s.description for s in scs)


def test_select_is_deterministic() -> None:
    scs = load_dir(SCENARIOS)
    a = [s.key for s in select(scs, sample=10, sample_seed=3)]
    assert a == [s.key for s in select(scs, sample=10, sample_seed=3)]
    assert len(a) == 10
    assert all("joins/" in s.key for s in select(scs, subset=["joins/"]))


def test_strip_ids_and_normalize() -> None:
    assert strip_ids("hashpartitioning(customer_id#12L, 200)") == "hashpartitioning(customer_id, 200)"
    text = "Location: InMemoryFileIndex(1 paths)[file:/tmp/w/t1] 123e4567-e89b-12d3-a456-426614174000"
    assert normalize_text(text, {"/tmp/w": "{warehouse}"}) == "Location: InMemoryFileIndex(1 paths)[{warehouse}/t1] {uuid}"
    assert normalize_text("DefaultCachedBatchSerializer@313e03e9,", {}) == "DefaultCachedBatchSerializer@{hash},"
    assert normalize_text("[transient_lastDdlTime=1796045358]", {}) == "[transient_lastDdlTime={time}]"
    assert normalize_text("'transient_lastDdlTime' = '1796045358'", {}) == "'transient_lastDdlTime' = '{time}'"
    assert normalize_text("'current-snapshot-id' = '6801483865550000344'", {}) == "'current-snapshot-id' = '{snapshot}'"
    assert normalize_text("[current-snapshot-id=-680148386555000034,format", {}) == "[current-snapshot-id={snapshot},format"


def test_checksum_is_order_independent() -> None:
    rows = [(1, "a", None), (2, "b", 1.5), (3, None, float("nan"))]
    assert checksum(rows) == checksum(list(reversed(rows)))
    assert checksum(rows)["rows"] == 3
    assert checksum(rows) != checksum(rows[:2])
    assert row_string((None, -0.0, True)) == "\\N\x1f0.0\x1ftrue"


def test_datagen_is_deterministic() -> None:
    spec = {"columns": {"a": "int", "s": "string"}, "card": {"a": 5}, "nulls": {"s": 10}, "exprs": {}}
    assert datagen.select_list("t", spec, 42) == datagen.select_list("t", spec, 42)
    assert datagen.select_list("t", spec, 42) != datagen.select_list("t", spec, 43)
    ddl = datagen.create_table_sql("t", {**spec, "bucket": {"buckets": 4, "by": ["a"], "sort": ["a"]}, "partition": []})
    assert ddl == "CREATE TABLE t (a INT, s STRING) USING parquet CLUSTERED BY (a) SORTED BY (a) INTO 4 BUCKETS"


def test_counts_per_join_side() -> None:
    scan = {"class": "FileSourceScanExec", "scan": {"bucketed": True}, "children": []}
    shuffle = {"class": "ShuffleExchangeExec", "children": [dict(scan, scan={"bucketed": False})]}
    left = {"class": "SortExec", "children": [scan]}
    right = {"class": "SortExec", "children": [shuffle]}
    join = {"class": "SortMergeJoinExec", "join": {"strategy": "SortMergeJoin", "joinType": "Inner"},
            "children": [left, right]}
    root = {"class": "AdaptiveSparkPlanExec", "executedPlan": join, "children": []}
    c = counts.count(root)
    assert (c["shuffles"], c["sorts"], c["scans"], c["bucketedScans"]) == (1, 2, 2, 1)
    assert c["joins"][0]["left"] == {"shuffles": 0, "sorts": 1, "broadcasts": 0}
    assert c["joins"][0]["right"] == {"shuffles": 1, "sorts": 1, "broadcasts": 0}


def test_random_generator_is_seeded(tmp_path: Path) -> None:
    assert randomgen.generate(5, 4) == randomgen.generate(5, 4)
    assert randomgen.generate(5, 4) != randomgen.generate(6, 4)
    [path] = randomgen.write(5, 4, tmp_path)
    assert len(load_dir(path)) == 4


def test_versions_resolve() -> None:
    table = {"3.5": "3.5.9", "4.3": "4.3.0"}
    assert versions.resolve("3.5", table) == ("3.5", "3.5.9")
    assert versions.resolve("4.x", table) == ("4.3", "4.3.0")
    assert versions.resolve("4.3.0", table) == ("4.3", "4.3.0")
    with pytest.raises(SystemExit):
        versions.resolve("2.4", table)
    assert set(versions.pinned()) >= {"3.5"}


def test_iceberg_scenarios_and_jars(tmp_path: Path) -> None:
    scs = load_dir(SCENARIOS.parent / "iceberg")
    assert scs and all(s.session == "iceberg" for s in scs)
    assert not {s.key for s in scs} & {s.key for s in load_dir(SCENARIOS)}
    ddl = datagen.create_table_sql("a", scs[0].tables["a"])
    assert ddl.endswith("USING iceberg PARTITIONED BY (bucket(8, a))")
    vt = tmp_path / "versions.txt"
    vt.write_text("3.5 3.5.9 iceberg=1.12.0\n4.1 4.1.4 iceberg=1.12.0\n4.3 4.3.0\n")
    assert versions.iceberg_version("3.5", vt) == "1.12.0"
    assert versions.iceberg_jar("4.3", vt) is None
    assert str(versions.iceberg_jar("3.5", vt)).endswith(
        "org/apache/iceberg/iceberg-spark-runtime-3.5_2.12/1.12.0/iceberg-spark-runtime-3.5_2.12-1.12.0.jar")
    assert "runtime-4.1_2.13" in str(versions.iceberg_jar("4.1", vt))


def test_compare_ignores_exchange_ids(tmp_path: Path) -> None:
    """Spark 3.0-3.2's [id=#N] of an exchange is a session counter: a sampled run numbers it
    differently from the full recording, and that alone is no difference; a changed plan is."""
    from types import SimpleNamespace

    from oracle.fixtures import compare

    sc = SimpleNamespace(group="g", name="one")
    line = "+- Exchange hashpartitioning(a#68, 200), ENSURE_REQUIREMENTS, [id=#{}]\n"
    for folder, ident in (("committed", 567), ("same", 577)):
        (tmp_path / folder / "g" / "one").mkdir(parents=True)
        (tmp_path / folder / "g" / "one" / "plan.txt").write_text(line.format(ident))
    assert compare(tmp_path / "committed", tmp_path / "same", [sc]) == []
    (tmp_path / "changed" / "g" / "one").mkdir(parents=True)
    (tmp_path / "changed" / "g" / "one" / "plan.txt").write_text(line.format(567).replace("200", "8"))
    assert len(compare(tmp_path / "committed", tmp_path / "changed", [sc])) == 1
