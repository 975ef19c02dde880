package sql

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// syntaxRun is a testdata/spark/<version>/syntax.json file written by oracle/syntaxcheck.py:
// which statements a real Spark's parser accepted.
type syntaxRun struct {
	SparkVersion string `json:"spark_version"`
	Command      string `json:"command"`
	Cases        []struct {
		Name     string `json:"name"`
		SQL      string `json:"sql"`
		Accepted bool   `json:"accepted"`
		Error    string `json:"error"`
	} `json:"cases"`
}

// syntaxFeatures names the feature each recorded case exercises; cases not listed use syntax
// every supported release accepts, or none does.
func syntaxFeatures() map[string]feature {
	return map[string]feature{
		"pipe_where": featPipe, "pipe_from_first": featPipe, "pipe_join": featPipe,
		"pipe_aggregate": featPipe, "pipe_extend": featPipe, "from_alone": featFromQuery,
		"collate_expression": featCollate, "collate_type": featCollate,
		"default_collation": featDefaultCollation,
		"star_except":       featStarExcept, "select_struct_star_except": featStarExcept,
		"view_with_schema_binding": featViewSchema, "view_with_schema_evolution": featViewSchema,
		"scripting_begin_end": featScripting,
		"declare_variable":    featVariables, "declare_short": featVariables, "set_variable": featVariables,
		"drop_temporary_variable": featVariables,
		"execute_immediate":       featExecuteImmediate,
		"qualify":                 featQualify,
		"create_cluster_by":       featClusterBy, "alter_cluster_by": featClusterBy,
		"insert_replace_using": featReplaceUsing,
		"variant_type":         featVariant,
		"time_type":            featTime, "time_literal": featTime,
		"double_colon_cast":    featDoubleColon,
		"shift_operator":       featShift,
		"with_recursive":       featWithRecursive,
		"describe_as_json":     featDescribeJSON,
		"sql_function_returns": featSQLFunction, "create_function_sql_table": featSQLFunction,
		"call_procedure":   featCall,
		"identity_column":  featIdentity,
		"table_argument":   featTableArgPartition,
		"relation_options": featRelationOptions, "relation_options_ident": featRelationOptions,
		"listagg_within_group": featWithinGroup, "mode_within_group": featWithinGroup,
		"merge_with_schema_evolution": featMergeSchemaEvolution,
		"bang_not_in":                 featBangNot, "bang_not_between": featBangNot, "bang_not_like": featBangNot,
		"is_bang_null": featBangNot, "named_argument": featNamedArgument, "identifier_create": featIdentifierName,
		"lateral_subquery": featLateralSubquery, "lateral_join": featLateralSubquery, "offset": featOffset,
		"unpivot": featUnpivot, "column_default": featColumnDefault, "alter_add_columns_default": featColumnDefault,
		"insert_by_name": featInsertByName, "insert_replace_where": featReplaceWhere,
		"timestamp_ntz_type": featTimestampNTZ, "ansi_interval_type": featIntervalType,
		"interval_day_to_second_type": featIntervalType, "named_parameter": featParameter,
		"positional_parameter": featPositionalParameter, "within_group": featPercentileWithinGroup,
		"percentile_disc_within_group": featPercentileWithinGroup, "try_cast": featTryCast, "ilike": featILike,
		"generated_column": featGeneratedColumn, "timestamp_as_of": featTimeTravel, "ignore_nulls": featNullsAfterCall,
		"grouping_sets_mixed": featMixedGroupingSets, "raw_string_literal": featRawString,
		"nested_bracketed_comment": featNestedComment, "json_path_colon": featJSONPath,
		"watermark_clause":     featWatermark,
		"timediff_string_unit": featTimediffUnitString, "timestampadd_string_unit": featUnitString,
		"datediff_string_unit": featUnitString, "values_rows_widths": featValuesWidth,
		"values_alias_width": featValuesWidth, "identifier_not_a_name": featIdentifierString,
		"identifier_empty": featIdentifierEmptyName, "temporary_view_qualified": featTempQualified,
		"temporary_view_identifier_qualified": featTempQualifiedIdentifier,
		"execute_immediate_not_a_statement":   featExecuteText,
		"identifier_lite_qualified":           featIdentifierLite, "identifier_lite_using": featIdentifierLite,
		"identifier_lite_column": featIdentifierLite, "pipe_drop_qualified": featPipeDropQualified,
		"collate_trim":          featTrimCollation,
		"interval_mixed_fields": featIntervalMixed, "interval_string_mixed_fields": featIntervalMixed,
		"interval_day_to_hour_out_of_range": featIntervalRange,
		"date_literal_field_overflow":       featDatetimeOverflow, "timestamp_literal_field_overflow": featDatetimeOverflow,
		"interval_signed_string": featIntervalSign, "interval_signed_string_to": featIntervalSign,
		"transform_argument_alias": featTransformAlias, "transform_distinct": featTransformAlias,
		"transform_lines_terminated": featLinesTerminated, "window_defined_twice": featWindowTwice,
		"like_any_empty": featLikeAnyEmpty, "float_literal_out_of_range": featFloatRange,
		"float_literal_fraction": featFloatFraction, "set_key_with_blank": featSetText,
		"reset_key": featResetKey, "interval_string_non_ascii": featIntervalNonASCII,
		"lateral_name_alias": featLateralFunction, "interval_year_to_month_min": featIntervalMinMonths, "interval_hour_to_minute_wide": featIntervalWideField,
	}
}

// syntaxDivergences are the recorded cases where the parser and Spark disagree whatever the
// version, with the reason; TestSyntaxVersions reports them and fails on any other.
func syntaxDivergences() map[string]string {
	return map[string]string{
		"scripting_if": "a statement of SQL scripting other than BEGIN … END is accepted only inside a BEGIN … END " +
			"block, which the statement splitter cuts at its semicolons: the parser reads it as scripting (4.1 and later) " +
			"wherever it stands",
		"create_temporary_function_python": "Spark's parser wants RETURN in a CREATE FUNCTION … LANGUAGE PYTHON; CREATE FUNCTION is kept as text " +
			"and only its name and RETURNS are checked",
	}
}

// seriesOf returns the release series of a pyspark version ("3.5.9" → 3.5).
func seriesOf(t *testing.T, v string) Version {
	t.Helper()
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		t.Fatalf("version %q", v)
	}
	maj, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		t.Fatalf("version %q", v)
	}
	return Version{Major: maj, Minor: minor}
}

// TestSyntaxVersions checks the version table against real Spark: for every statement
// oracle/syntaxcheck.py recorded with a release, the parser configured for that release's
// series accepts it exactly when that Spark's parser did, and a statement rejected for its
// version names the construct. Every gated feature has a recorded case.
func TestSyntaxVersions(t *testing.T) {
	files, _ := filepath.Glob("testdata/spark/*/syntax.json")
	if len(files) == 0 {
		t.Skip("no testdata/spark/*/syntax.json; run oracle/syntaxcheck.py")
	}
	base, err := New()
	if err != nil {
		t.Fatal(err)
	}
	feats, diverge := syntaxFeatures(), syntaxDivergences()
	covered := map[feature]bool{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var run syntaxRun
		if err := json.Unmarshal(data, &run); err != nil {
			t.Fatal(err)
		}
		v := seriesOf(t, run.SparkVersion)
		p := base.WithOptions(Options{Spark: v})
		for _, c := range run.Cases {
			_, errs := p.ParseFile(c.Name+".sql", []byte(c.SQL))
			got := len(errs) == 0
			f := feats[c.Name]
			covered[f] = true
			switch {
			case got == c.Accepted:
			case diverge[c.Name]+diverge[c.Name+"@"+v.String()] != "":
				t.Logf("Spark %s, %s: Spark accepted=%v, the parser %v: %s", run.SparkVersion, c.Name, c.Accepted, got, diverge[c.Name]+diverge[c.Name+"@"+v.String()])
				continue
			case c.Accepted:
				t.Errorf("Spark %s accepts %s %q; the parser configured for %s: %v", run.SparkVersion, c.Name, c.SQL, v, errs)
				continue
			default:
				t.Errorf("Spark %s rejects %s %q (%s); the parser configured for %s accepts it", run.SparkVersion, c.Name, c.SQL, c.Error, v)
				continue
			}
			// The error names the construct when it is what the release refuses (an
			// EXECUTE IMMEDIATE of a bad string is refused before 4.0 as EXECUTE IMMEDIATE).
			if f != featNone && !got && (Options{Spark: v}).refuses(f, false) != "" && !strings.Contains(errs[0].Msg, f.info().name) {
				t.Errorf("Spark %s, %s: the error %q does not name %q", run.SparkVersion, c.Name, errs[0].Msg, f.info().name)
			}
		}
	}
	for f := featNone + 1; f < featCount; f++ {
		if !covered[f] {
			t.Errorf("feature %q has no recorded case: its version is not established", f.info().name)
		}
	}
}

// TestVersionMessages checks the errors a construct of the wrong version gives, their
// positions, and the settings that change them.
func TestVersionMessages(t *testing.T) {
	base, err := New()
	if err != nil {
		t.Fatal(err)
	}
	v35, v40 := Options{Spark: Version{3, 5}}, Options{Spark: Version{4, 0}}
	v41, v42, v43 := Options{Spark: Version{4, 1}}, Options{Spark: Version{4, 2}}, Options{Spark: Version{4, 3}}
	dev41 := Options{Spark: Version{4, 1}, devSnapshot: true}
	const lite = "IDENTIFIER('…') where another name stands"
	cases := []struct {
		name string
		opts Options
		sql  string
		want string // "" for no error
	}{
		{"pipe on 3.5", v35, "SELECT *\nFROM t |> WHERE a > 1", "x.sql:2:8: pipe syntax |> needs Spark 4.0 or later (configured: 3.5)"},
		{"pipe on 4.0", v40, "SELECT * FROM t |> WHERE a > 1", ""},
		{"pipe unconfigured", Options{}, "FROM t |> WHERE a > 1", ""},
		{"default version: 4.x syntax read", Options{Spark: Version{3, 5}, SparkDefault: true}, "SELECT a::int FROM t |> WHERE a > 1", ""},
		{"default version: 3.x syntax read", Options{Spark: Version{3, 5}, SparkDefault: true}, "SELECT * FROM t WHERE a ! IN (1)", ""},
		{"first use reported", v35, "SELECT a COLLATE utf8_lcase FROM t |> WHERE a << 1 > 0", "x.sql:1:10: COLLATE needs Spark 4.0"},
		{"bang on 3.5", v35, "SELECT * FROM t WHERE a ! IN (1)", ""},
		{"bang on 4.0", v40, "SELECT * FROM t WHERE a ! IN (1)", "x.sql:1:25: ! for NOT before IN, BETWEEN, LIKE or NULL is not accepted since Spark 4.0 (configured: 4.0)"},
		{"bang with the legacy conf", v40, "SET spark.sql.legacy.bangEqualsNot=true;\nSELECT * FROM t WHERE a IS ! NULL", ""},
		{"bang with the legacy conf configured", Options{Spark: Version{4, 0}, LegacyBangNot: true}, "SELECT * FROM t WHERE a ! BETWEEN 1 AND 2", ""},
		{"prefix bang on 4.0", v40, "SELECT * FROM t WHERE !(a = 1)", ""},
		{"CTAS query", v35, "CREATE TABLE c USING parquet AS FROM t |> SELECT a", "x.sql:1:40: pipe syntax"},
		{"FROM alone", v35, "FROM t", "x.sql:1:1: a query of FROM alone"},
		{"column type", v35, "CREATE TABLE c (a INT, v VARIANT) USING parquet", "x.sql:1:26: the VARIANT type needs Spark 4.0"},
		{"cluster by", v35, "CREATE TABLE c (a INT) USING parquet CLUSTER BY (a)", "x.sql:1:38: CLUSTER BY of a table needs Spark 4.0"},
		{"view body", v35, "CREATE VIEW v AS SELECT * EXCEPT (a) FROM t", "x.sql:1:27: * EXCEPT (columns) needs Spark 4.0"},
		{"view schema", v35, "CREATE VIEW v WITH SCHEMA BINDING AS SELECT 1", "x.sql:1:15: WITH SCHEMA of a view needs Spark 4.0"},
		{"declare", v35, "DECLARE v INT", "x.sql:1:1: session variables"},
		{"execute immediate", v35, "EXECUTE IMMEDIATE 'SELECT 1'", "x.sql:1:1: EXECUTE IMMEDIATE needs Spark 4.0"},
		{"other statements still read", v35, "SELECT 1 |> WHERE true;\nCREATE TABLE k (a INT) USING parquet", "x.sql:1:10: pipe syntax"},
		{"IDENTIFIER part on 4.0", v40, "SELECT * FROM s.IDENTIFIER('t')", "x.sql:1:17: " + lite},
		{"IDENTIFIER part on 4.1", v41, "SELECT * FROM s.IDENTIFIER('t')", ""},
		{"IDENTIFIER first part on 4.1", v41, "SELECT * FROM IDENTIFIER('s').t", ""},
		{"IDENTIFIER part in the 4.1 snapshot", dev41, "SELECT * FROM IDENTIFIER('s').t", "x.sql:1:15: " + lite},
		{"IDENTIFIER call after a qualifier", v41, "SELECT * FROM s.IDENTIFIER('t')(1)", ""},
		{"IDENTIFIER field of a column on 4.0", v40, "SELECT IDENTIFIER('t').c1 FROM t", ""},
		{"IDENTIFIER field on 4.0", v40, "SELECT map('a', 1).IDENTIFIER('a')", "x.sql:1:20: " + lite},
		{"IDENTIFIER field on 4.1", v41, "SELECT map('a', 1).IDENTIFIER('a')", ""},
		{"IDENTIFIER column on 4.0", v40, "CREATE TABLE t (IDENTIFIER('a') INT) USING parquet", "x.sql:1:17: " + lite},
		{"IDENTIFIER column on 4.1", v41, "CREATE TABLE t (IDENTIFIER('a') INT) USING parquet", ""},
		{"IDENTIFIER CTE on 4.0", v40, "WITH IDENTIFIER('v') AS (SELECT 1) SELECT * FROM v", "x.sql:1:6: " + lite},
		{"IDENTIFIER CTE on 4.2", v42, "WITH IDENTIFIER('v')(IDENTIFIER('c')) AS (SELECT 1) SELECT * FROM v", ""},
		{"IDENTIFIER USING on 4.0", v40, "SELECT * FROM t JOIN u USING (IDENTIFIER('a'))", "x.sql:1:31: " + lite},
		{"IDENTIFIER window on 4.3", v43, "SELECT row_number() OVER IDENTIFIER('w') FROM t WINDOW IDENTIFIER('w') AS (ORDER BY a)", ""},
		{"IDENTIFIER of a qualified window name on 4.1", v41, "SELECT row_number() OVER IDENTIFIER('x.win') FROM t", "x.sql:1:26: syntax error: IDENTIFIER('x.win') names 2 parts where one name stands"},
		{"IDENTIFIER of a qualified name as a part on 4.1", v41, "SELECT * FROM IDENTIFIER('`a.b`.c').d", ""},
		{"IDENTIFIER window in the 4.1 snapshot", dev41, "SELECT row_number() OVER IDENTIFIER('w') FROM t", "x.sql:1:26: " + lite},
		{"IDENTIFIER insert columns on 4.1", v41, "INSERT INTO t (IDENTIFIER('a')) VALUES (1)", ""},
		{"IDENTIFIER view columns on 4.0", v40, "CREATE VIEW v (IDENTIFIER('a')) AS SELECT 1", "x.sql:1:16: " + lite},
		{"IDENTIFIER('') of a table on 4.1", v41, "SELECT * FROM IDENTIFIER('')", ""},
		{"IDENTIFIER('') of a table on 4.2", v42, "SELECT * FROM IDENTIFIER('')", "x.sql:1:26: IDENTIFIER('') naming a table or other object is not accepted since Spark 4.2 (configured: 4.2): name it"},
		{"IDENTIFIER('') of a column on 4.3", v43, "SELECT IDENTIFIER('') FROM t", ""},
		{"IDENTIFIER of a non-name on 4.3", v43, "SELECT IDENTIFIER('c 1') FROM t", ""},
		{"IDENTIFIER of a non-name in the 4.1 snapshot", dev41, "SELECT IDENTIFIER('c 1') FROM t", "x.sql:1:19: IDENTIFIER('…') of a string that is not a name is not accepted by Spark's 4.1 development snapshot"},
		{"EXECUTE IMMEDIATE of a bad string on 4.1", v41, "EXECUTE IMMEDIATE 'SELCT 1'", ""},
		{"EXECUTE IMMEDIATE of a bad string in the 4.1 snapshot", dev41, "EXECUTE IMMEDIATE 'SELCT 1'", "x.sql:1:19: EXECUTE IMMEDIATE of a string that does not parse"},
		{"qualified temporary IDENTIFIER view on 4.2", v42, "CREATE TEMPORARY VIEW IDENTIFIER('db.v') AS SELECT 1", ""},
		{"qualified temporary IDENTIFIER view in the 4.1 snapshot", dev41, "CREATE TEMPORARY VIEW IDENTIFIER('db.v') AS SELECT 1", "x.sql:1:23: a qualified IDENTIFIER"},
		{"|> DROP of a qualified column on 4.1", v41, "FROM t |> DROP t.a", "x.sql:1:16: a qualified column of |> DROP needs Spark 4.2 or later (configured: 4.1)"},
		{"|> DROP of a qualified column on 4.2", v42, "FROM t |> DROP t.a", ""},
		{"|> SET of a qualified column on 4.2", v42, "FROM t |> SET t.a = 1", "x.sql:1:15: syntax error: |> SET takes a column name, not the qualified t.a"},
		{"trimming collation on 4.0", v40, "SELECT a COLLATE UTF8_LCASE_RTRIM FROM t", "x.sql:1:18: a trimming collation (…_RTRIM) needs Spark 4.1"},
		{"trimming collation on 4.1", v41, "SELECT a COLLATE utf8_lcase_rtrim FROM t", ""},
		{"trimming collation of a type on 4.0", v40, "SELECT CAST(a AS STRING COLLATE UNICODE_RTRIM) FROM t", "x.sql:1:33: a trimming collation"},
		{"trimming collation of a column on 4.0", v40, "CREATE TABLE t (a STRING COLLATE UNICODE_RTRIM) USING parquet", "x.sql:1:34: a trimming collation"},
		{"trimming collation WITHIN GROUP on 4.0", v40, "SELECT listagg(a) WITHIN GROUP (ORDER BY a COLLATE unicode_rtrim) FROM t", "x.sql:1:52: a trimming collation"},
		{"trimming collation WITHIN GROUP on 4.1", v41, "SELECT listagg(a) WITHIN GROUP (ORDER BY a COLLATE unicode_rtrim) FROM t", ""},
		{"not a trimming collation on 4.0", v40, "SELECT a COLLATE RTRIM FROM t", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, errs := base.WithOptions(c.opts).ParseFile("x.sql", []byte(c.sql))
			got := ""
			if len(errs) > 0 {
				got = errs[0].Error()
			}
			if c.want == "" && got != "" || c.want != "" && !strings.HasPrefix(got, c.want) {
				t.Errorf("%q: error %q, want %q", c.sql, got, c.want)
			}
			if c.name == "other statements still read" && len(f.Tables) != 1 {
				t.Errorf("tables %d, want the one after the rejected statement", len(f.Tables))
			}
		})
	}
}

// ExampleParser_WithOptions shows the error a construct newer than the configured Spark gives.
func ExampleParser_WithOptions() {
	p, _ := New()
	p = p.WithOptions(Options{Spark: Version{Major: 3, Minor: 5}})
	_, errs := p.ParseFile("job.sql", []byte("FROM orders |> WHERE amount > 100"))
	fmt.Println(errs[0])
	// Output: job.sql:1:13: pipe syntax |> needs Spark 4.0 or later (configured: 3.5)
}

// TestIdentifierLiteNames checks the names IDENTIFIER('…') gives where 4.1 takes it for a name
// part: a table written, a column defined.
func TestIdentifierLiteNames(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	p = p.WithOptions(Options{Spark: Version{4, 1}})
	for _, tc := range []struct{ sql, want string }{
		{"INSERT INTO IDENTIFIER('db').t SELECT 1", "db.t"},
		{"INSERT INTO db.IDENTIFIER('t') SELECT 1", "db.t"},
		{"INSERT INTO IDENTIFIER('c.db').IDENTIFIER('t') SELECT 1", "c.db.t"},
		{"CREATE TABLE t (IDENTIFIER('a') INT, b INT) USING parquet", "a"},
		{"CREATE TABLE t (IDENTIFIER('`a b`') INT) USING parquet", "a b"},
	} {
		f, errs := p.ParseFile("x.sql", []byte(tc.sql))
		if len(errs) > 0 {
			t.Errorf("%q: %v", tc.sql, errs)
			continue
		}
		var got string
		switch {
		case len(f.Queries) == 1:
			got = f.Queries[0].Target
		case len(f.Tables) == 1 && len(f.Tables[0].Columns) > 0:
			got = f.Tables[0].Columns[0].Name
		}
		if got != tc.want {
			t.Errorf("%q: name %q, want %q", tc.sql, got, tc.want)
		}
	}
}
