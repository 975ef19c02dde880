package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/workload"
)

// TestResolvedJoinKeys lints the join queries oracle recorded from real Spark 3.5 for name
// resolution (fixtures/spark/3.5/resolution/: unqualified keys in either order, two keys in
// opposite orders, USING, views over bucketed tables), each from its recorded DDL, views and
// query alone. The finding must be the one named, about the table Spark shuffled, and its
// fix must bucket that table on its own columns; where Spark shuffled nothing, no join rule
// may fire. Keys were attributed by their position in the ON clause before: "ON i_item =
// s_item" gave no finding while "ON s_item = i_item" gave BL302, and two reversed keys made
// BL303 propose bucketing a table on the other table's columns.
func TestResolvedJoinKeys(t *testing.T) {
	for _, tc := range []struct {
		scenario, query string
		// rule is the finding expected ("" for none); fix a text its fix holds.
		rule, fix string
	}{
		{"unqualified_keys_one_side_bucketed", "written_order", "BL302", "Bucket item by (i_item) INTO 8 BUCKETS"},
		{"unqualified_keys_one_side_bucketed", "reversed", "BL302", "Bucket item by (i_item) INTO 8 BUCKETS"},
		{"unqualified_keys_one_side_bucketed", "item_first", "BL302", "Bucket item by (i_item) INTO 8 BUCKETS"},
		{"unqualified_keys_one_side_bucketed", "comma_reversed", "BL302", "Bucket item by (i_item) INTO 8 BUCKETS"},
		{"unqualified_keys_counts_8_4", "written_order", "BL301", "Rebucket item INTO 8 BUCKETS"},
		{"unqualified_keys_counts_8_4", "reversed", "BL301", "Rebucket item INTO 8 BUCKETS"},
		{"unqualified_keys_counts_8_8", "written_order", "", ""},
		{"unqualified_keys_counts_8_8", "reversed", "", ""},
		{"two_keys_reversed_qualified", "second_reversed", "BL303", "Bucket b by all the join keys (k1, k2)"},
		{"two_keys_reversed_qualified", "first_reversed", "BL303", "Bucket b by all the join keys (k1, k2)"},
		{"two_keys_reversed_unqualified", "second_reversed", "BL303", "Bucket item by all the join keys (i_item, i_store)"},
		{"two_keys_reversed_unqualified", "both_reversed", "BL303", "Bucket item by all the join keys (i_item, i_store)"},
		{"using_one_side_bucketed", "using", "BL302", "Bucket r by (i) INTO 8 BUCKETS"},
		{"view_over_bucketed_table", "qualified", "", ""},
		{"view_over_bucketed_table", "reversed", "", ""},
		{"view_renamed_column", "unqualified", "", ""},
		{"view_count_mismatch", "join", "BL301", "Rebucket r INTO 8 BUCKETS"},
		{"view_renamed_count_mismatch", "qualified", "BL301", "Rebucket r INTO 8 BUCKETS"},
	} {
		t.Run(tc.scenario+"/"+tc.query, func(t *testing.T) {
			p, shuffled := recordedJoin(t, tc.scenario, tc.query)
			var got []Diagnostic
			for _, d := range Run(newWorkload(t, p), All()) {
				if slices.Contains([]string{"BL301", "BL302", "BL303", "BL304", "BL305"}, d.Rule) {
					got = append(got, d)
				}
			}
			if tc.rule == "" {
				if len(shuffled) != 0 {
					t.Fatalf("case expects no finding, but Spark shuffled %v", shuffled)
				}
				if len(got) != 0 {
					t.Errorf("want no join finding, got:\n%s", formatDiagnostics(got))
				}
				return
			}
			if len(shuffled) != 1 {
				t.Fatalf("case expects one shuffled table, Spark shuffled %v", shuffled)
			}
			if len(got) != 1 || got[0].Rule != tc.rule {
				t.Fatalf("want one %s, got:\n%s", tc.rule, formatDiagnostics(got))
			}
			d := got[0]
			if !strings.Contains(d.Message, "shuffles "+shuffled[0]) {
				t.Errorf("finding is not about %s, the table Spark shuffled: %s", shuffled[0], d.Message)
			}
			if d.Fix == nil || !strings.Contains(d.Fix.Description, tc.fix) {
				t.Errorf("fix does not say %q:\n%s", tc.fix, formatDiagnostics(got))
			}
		})
	}
}

// recordedJoin builds a project from a recorded scenario's DDL, statements (views) and one
// query, and returns the tables Spark shuffled in the query's plan (adaptive execution off).
func recordedJoin(t *testing.T, scenario, query string) (*plan.Project, []string) {
	t.Helper()
	dir := filepath.Join("..", "fixtures", "spark", "3.5", "resolution", scenario)
	b, err := os.ReadFile(filepath.Join(dir, "scenario.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sc struct {
		Tables     []struct{ DDL string }
		Statements []struct{ SQL string }
		Queries    []struct {
			Name, SQL string
			Runs      map[string]struct{ Plan map[string]any }
		}
	}
	if err := json.Unmarshal(b, &sc); err != nil {
		t.Fatal(err)
	}
	var ddl []string
	for _, tb := range sc.Tables {
		ddl = append(ddl, tb.DDL+";")
	}
	for _, st := range sc.Statements {
		ddl = append(ddl, st.SQL+";")
	}
	sp, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	p := &plan.Project{Tables: map[string]*plan.Table{}}
	addFile(t, sp, p, "ddl.sql", []byte(strings.Join(ddl, "\n")))
	for _, q := range sc.Queries {
		if q.Name == query {
			addFile(t, sp, p, "query.sql", []byte(q.SQL+";"))
			return p, shuffledTables(q.Runs["aqe-off"].Plan)
		}
	}
	t.Fatalf("%s: no query %s", dir, query)
	return nil, nil
}

// shuffledTables returns the tables read under each shuffle Exchange of a recorded plan.
func shuffledTables(n map[string]any) []string {
	var out []string
	var under func(m map[string]any) string
	under = func(m map[string]any) string {
		if s, ok := m["scan"].(map[string]any); ok {
			name, _ := s["table"].(string)
			return name[strings.LastIndexByte(name, '.')+1:]
		}
		for _, c := range children(m) {
			if name := under(c); name != "" {
				return name
			}
		}
		return ""
	}
	var walk func(m map[string]any)
	walk = func(m map[string]any) {
		if m["class"] == "ShuffleExchangeExec" {
			out = append(out, under(m))
			return
		}
		for _, c := range children(m) {
			walk(c)
		}
	}
	walk(n)
	return out
}

func children(m map[string]any) []map[string]any {
	var out []map[string]any
	kids, _ := m["children"].([]any)
	for _, k := range kids {
		if c, ok := k.(map[string]any); ok {
			out = append(out, c)
		}
	}
	return out
}

// TestResolvedCodeJoinKeys lints DataFrame joins over the tables of the recorded scenario
// unqualified_keys_one_side_bucketed (ss bucketed 8 on s_item, item not bucketed; Spark
// shuffles item whatever the key order): a key written without its frame, col("i_item"),
// belongs to the frame whose table has the column, not to the side of the == it is on.
func TestResolvedCodeJoinKeys(t *testing.T) {
	p, shuffled := recordedJoin(t, "unqualified_keys_one_side_bucketed", "reversed")
	if len(shuffled) != 1 || shuffled[0] != "item" {
		t.Fatalf("recording: Spark shuffled %v", shuffled)
	}
	sp, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	src := `from pyspark.sql.functions import col
ss = spark.table("ss")
it = spark.table("item")
a = ss.join(it, col("i_item") == col("s_item"))
b = ss.join(it, col("s_item") == col("i_item"))
c = ss.join(it, it.i_item == ss.s_item)
d = it.join(ss, col("s_item") == col("i_item"))
e = ss.join(it, col("s_item") == col("nope"))
`
	p.Queries = nil
	addFile(t, sp, p, "job.py", []byte(src))
	lines := map[int]bool{}
	for _, d := range Run(newWorkload(t, p), All()) {
		if d.Rule != "BL302" || !strings.Contains(d.Message, "shuffles item") {
			t.Errorf("unexpected finding: %s %s", d.Rule, d.Message)
			continue
		}
		lines[d.Span.Start.Line] = true
	}
	for _, ln := range []int{4, 5, 6, 7} {
		if !lines[ln] {
			t.Errorf("job.py:%d: no BL302 about item", ln)
		}
	}
	if lines[8] {
		t.Error("job.py:8: a key no table has was placed")
	}
}

// newWorkload is the workload of a project at the default version and settings.
func newWorkload(t *testing.T, p *plan.Project) *workload.Workload {
	t.Helper()
	w, err := workload.New(p, workload.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return w
}
