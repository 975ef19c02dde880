package simulate

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// TestWindowExpressions checks that predicted Window operators print each window
// expression as Spark's WindowExec does (see fixtures/spark/3.5/aggregates/window_*):
// function and arguments with ids, windowspecdefinition with partition keys, orders and the
// frame Spark resolves, and the alias of the select item (or _weN for a nested call).
func TestWindowExpressions(t *testing.T) {
	t.Parallel()
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	const ddl = "CREATE TABLE tx (account_id INT, t BIGINT, amount BIGINT, note STRING) USING parquet CLUSTERED BY (account_id) INTO 8 BUCKETS;\n"
	const (
		whole   = "specifiedwindowframe(RowFrame, unboundedpreceding$(), unboundedfollowing$())"
		running = "specifiedwindowframe(RangeFrame, unboundedpreceding$(), currentrow$())"
		ranking = "specifiedwindowframe(RowFrame, unboundedpreceding$(), currentrow$())"
	)
	for _, c := range []struct {
		name, query string
		// want holds each Window's expressions, one Window per line, bottom Window first,
		// expressions separated by " | ".
		want string
	}{
		{
			"aggregate_without_order_covers_the_partition",
			"SELECT account_id, sum(amount) OVER (PARTITION BY account_id) AS total FROM tx",
			"sum(amount#3L) windowspecdefinition(account_id#1, " + whole + ") AS total#5",
		},
		{
			"aggregate_with_order_runs_over_a_range",
			"SELECT account_id, avg(amount) OVER (PARTITION BY account_id ORDER BY t) FROM tx",
			"avg(amount#3L) windowspecdefinition(account_id#1, t#2L ASC NULLS FIRST, " + running + ") AS avg(amount) over (partition by account_id order by t)#5",
		},
		{
			"ranking_functions_take_their_own_frame_and_the_order_keys",
			"SELECT row_number() OVER (PARTITION BY account_id ORDER BY t DESC) rn, rank() OVER (PARTITION BY account_id ORDER BY t DESC) AS r, dense_rank() OVER (PARTITION BY account_id ORDER BY t DESC) d FROM tx",
			"row_number() windowspecdefinition(account_id#1, t#2L DESC NULLS LAST, " + ranking + ") AS rn#5" +
				" | rank(t#2L) windowspecdefinition(account_id#1, t#2L DESC NULLS LAST, " + ranking + ") AS r#6" +
				" | dense_rank(t#2L) windowspecdefinition(account_id#1, t#2L DESC NULLS LAST, " + ranking + ") AS d#7",
		},
		{
			"count_star_is_count_1_and_distinct_is_kept",
			"SELECT count(*) OVER (PARTITION BY account_id) n, count(DISTINCT note) OVER (PARTITION BY account_id) dn FROM tx",
			"count(1) windowspecdefinition(account_id#1, " + whole + ") AS n#5L | count(distinct note#4) windowspecdefinition(account_id#1, " + whole + ") AS dn#6L",
		},
		{
			"explicit_rows_frame",
			"SELECT sum(amount) OVER (PARTITION BY account_id ORDER BY t ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) s FROM tx",
			"sum(amount#3L) windowspecdefinition(account_id#1, t#2L ASC NULLS FIRST, specifiedwindowframe(RowFrame, -2, 1)) AS s#5",
		},
		{
			"explicit_range_frame_over_the_whole_partition",
			"SELECT max(amount) OVER (PARTITION BY account_id ORDER BY t RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) m FROM tx",
			"max(amount#3L) windowspecdefinition(account_id#1, t#2L ASC NULLS FIRST, specifiedwindowframe(RangeFrame, unboundedpreceding$(), unboundedfollowing$())) AS m#5L",
		},
		{
			"single_bound_frame_ends_at_the_current_row",
			"SELECT min(amount) OVER (PARTITION BY account_id ORDER BY t ROWS UNBOUNDED PRECEDING) m FROM tx",
			"min(amount#3L) windowspecdefinition(account_id#1, t#2L ASC NULLS FIRST, " + ranking + ") AS m#5L",
		},
		{
			"lag_and_lead_frames_are_their_offsets",
			"SELECT lag(amount) OVER (PARTITION BY account_id ORDER BY t) a, lead(amount, 2, 0) OVER (PARTITION BY account_id ORDER BY t) b FROM tx",
			"lag(amount#3L, 1, null) windowspecdefinition(account_id#1, t#2L ASC NULLS FIRST, specifiedwindowframe(RowFrame, -1, -1)) AS a#5L" +
				" | lead(amount#3L, 2, 0) windowspecdefinition(account_id#1, t#2L ASC NULLS FIRST, specifiedwindowframe(RowFrame, 2, 2)) AS b#6L",
		},
		{
			"a_nested_call_gets_an_extracted_name",
			"SELECT x.account_id, sum(x.amount) OVER (PARTITION BY x.account_id) / 2 AS half FROM tx x",
			"sum(amount#3L) windowspecdefinition(account_id#1, " + whole + ") AS _we0#6",
		},
		{
			"written_null_ordering_is_kept",
			"SELECT sum(amount) OVER (PARTITION BY account_id ORDER BY t DESC NULLS FIRST) s, sum(amount) OVER (PARTITION BY account_id ORDER BY t NULLS LAST) u FROM tx",
			"sum(amount#3L) windowspecdefinition(account_id#1, t#2L DESC NULLS FIRST, " + running + ") AS s#5\n" +
				"sum(amount#3L) windowspecdefinition(account_id#1, t#2L ASC NULLS LAST, " + running + ") AS u#6",
		},
		{
			"named_window_and_two_specifications",
			"SELECT sum(amount) OVER w AS s, row_number() OVER (ORDER BY t) AS rn FROM tx WINDOW w AS (PARTITION BY account_id)",
			"sum(amount#3L) windowspecdefinition(account_id#1, " + whole + ") AS s#5\n" +
				"row_number() windowspecdefinition(t#2L ASC NULLS FIRST, " + ranking + ") AS rn#6",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f, errs := p.ParseFile("q.sql", []byte(ddl+c.query+";\n"))
			if len(errs) > 0 || len(f.Queries) != 1 {
				t.Fatalf("parse: %v", errs)
			}
			decl := map[string]*plan.Table{}
			for _, tb := range f.Tables {
				decl[tb.Name] = tb
			}
			v, _ := ParseVersion("3.5")
			res, err := Simulate(decl, f.Queries[0], Options{SparkVersion: v})
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			var walk func(n plan.Node)
			walk = func(n plan.Node) {
				for _, k := range n.Children() {
					walk(k)
				}
				if w, ok := n.(*plan.Window); ok {
					var raws []string
					for _, e := range w.Exprs {
						raws = append(raws, e.Raw)
						if e.Text() != plan.StripIDs(e.Raw) {
							t.Errorf("text %q is not %q without ids", e.Text(), e.Raw)
						}
					}
					lines = append(lines, strings.Join(raws, " | "))
				}
			}
			walk(res.Plan)
			if got := strings.Join(lines, "\n"); got != c.want {
				t.Fatalf("window expressions\n got: %s\nwant: %s", got, c.want)
			}
		})
	}
}

// TestWindowExpressionsAgreeWithSpark simulates every recorded real-Spark query with a
// WindowExec under fixtures/spark/<series>/ and checks that the predicted Window operators
// print the window expressions Spark printed, ids aside.
func TestWindowExpressionsAgreeWithSpark(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "fixtures", "spark", "*", "*", "*", "scenario.json"))
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		series := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(f))))
		sc := loadScenario(t, f)
		for _, q := range sc.Queries {
			run, ok := q.Runs["aqe-off"]
			if !ok || run.Plan == nil {
				continue
			}
			want := sparkWindowFunctions(run.Plan)
			if len(want) == 0 {
				continue
			}
			res, err := simulateFixtureResult(p, series, sc, q.SQL, filepath.Dir(f), q.Name, "aqe-off")
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			var got []string
			plan.Walk(res.Plan, func(n plan.Node) bool {
				if w, ok := n.(*plan.Window); ok {
					got = append(got, plan.Texts(w.Exprs)...)
				}
				return true
			})
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s\n model: %q\n spark: %q", f, q.SQL, got, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Skip("no recorded window queries under fixtures/spark/")
	}
	t.Logf("%d recorded window queries agree", checked)
}

// sparkWindowFunctions collects the window expressions ("name", ids stripped) of every
// WindowExec in a recorded plan.
func sparkWindowFunctions(node map[string]any) []string {
	var out []string
	if w, ok := node["window"].(map[string]any); ok {
		fs, _ := w["functions"].([]any)
		for _, f := range fs {
			if m, ok := f.(map[string]any); ok {
				name, _ := m["name"].(string)
				out = append(out, name)
			}
		}
	}
	kids, _ := node["children"].([]any)
	for _, k := range kids {
		if m, ok := k.(map[string]any); ok {
			out = append(out, sparkWindowFunctions(m)...)
		}
	}
	return out
}
