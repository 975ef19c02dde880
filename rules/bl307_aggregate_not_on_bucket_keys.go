package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/workload"
)

func bl307() *Rule {
	return &Rule{
		ID:    "BL307",
		Name:  "aggregate-not-on-bucket-keys",
		Title: "an aggregation or window that shuffles a bucketed table",
		Doc: "A bucketed table is already clustered by its bucket columns, so `GROUP BY`, `PARTITION BY`\n" +
			"(windows) and `dropDuplicates` on those columns — or on a superset of them — need no shuffle.\n" +
			"Grouping by other columns, or by only some of the bucket columns, shuffles the table and\n" +
			"(3.1+) disables its bucketed scan. With `spark.sql.requireAllClusterKeysForDistribution=true`\n" +
			"(3.3+, internal) only the exact bucket columns avoid the shuffle.\n\n" +
			"If the aggregation is the table's main workload, bucket by its keys; otherwise the shuffle is\n" +
			"the price of the query. The rule reads SQL (GROUP BY and window PARTITION BY over a single\n" +
			"bucketed table, simulated), DataFrame `groupBy`/`dropDuplicates`/windows, and explain output\n" +
			"(a planner Exchange under an aggregate or window over a bucketed table's scan)." + suppressDoc("BL307"),
		Bad: "CREATE TABLE orders (customer_id INT, region STRING, amt DOUBLE) USING parquet CLUSTERED BY (customer_id) INTO 64 BUCKETS;\n" +
			"SELECT region, sum(amt) FROM orders GROUP BY region;",
		Good: "CREATE TABLE orders (customer_id INT, region STRING, amt DOUBLE) USING parquet CLUSTERED BY (customer_id) INTO 64 BUCKETS;\n" +
			"SELECT customer_id, sum(amt) FROM orders GROUP BY customer_id;",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Info,
		Default:  true,
		Run:      runBL307,
	}
}

func runBL307(p *Pass) error {
	tables := p.tables()
	for _, q := range p.Project.Queries {
		var sels []*plan.Select
		collectSelects(q.Root, &sels)
		for _, c := range q.CTEs {
			collectSelects(c.Root, &sels)
		}
		for _, sel := range sels {
			if sel.From == nil || sel.From.Kind != plan.TableRel || sel.From.CTE {
				continue
			}
			t := lookup(p.tablesAt(q.Span.Start), sel.From.Table)
			if !isBucketed(t) {
				continue
			}
			if sel.Aggregate && len(sel.GroupBy) > 0 {
				checkGrouping(p, q, t, "GROUP BY", sel.GroupBy, sel.Span)
			}
			if keys := pivotGrouping(p, q, sel); len(keys) > 0 {
				checkGrouping(p, q, t, "PIVOT, grouping by", keys, sel.Span)
			}
			for _, w := range sel.Windows {
				if len(w.PartitionBy) > 0 {
					checkGrouping(p, q, t, "window PARTITION BY", w.PartitionBy, w.Span)
				}
			}
		}
	}
	for _, cf := range p.Project.Code {
		for _, a := range cf.Aggregates {
			switch a.Kind {
			case "groupBy", "window", "dropDuplicates":
			default:
				continue
			}
			if t := lookup(p.tablesAt(a.Span.Start), workload.FrameTable(a.Frame)); isBucketed(t) && len(a.Keys) > 0 && workload.FrameTable(a.Frame) != "" {
				checkGrouping(p, nil, t, a.Kind, a.Keys, a.Span)
			}
		}
	}
	for _, e := range p.Project.Explains {
		explainAggregates(p, e, tables)
	}
	return nil
}

// shufflesGrouping reports whether grouping a table bucketed on bucket by keys needs a
// shuffle: unless the bucket columns are among the keys (exactly them when
// spark.sql.requireAllClusterKeysForDistribution is set where the grouping is, at).
func shufflesGrouping(p *Pass, at plan.Pos, bucket []string, keys []plan.ColumnRef) bool {
	switch matchKeys(bucket, keys) {
	case exactKeys:
		return false
	case subsetKeys:
		return p.OptionsAt(at).RequireAllClusterKeysForDistribution()
	}
	return true
}

func checkGrouping(p *Pass, q *plan.Query, t *plan.Table, what string, keys []plan.ColumnRef, at plan.Span) {
	if !shufflesGrouping(p, at.Start, t.Buckets().Columns, keys) {
		return
	}
	if q != nil {
		if res := p.simulate(q); res != nil && res.Exchanges == 0 {
			return
		}
	}
	if len(keys) > 0 && keys[0].Pos.IsValid() {
		at = keysSpan(keys)
	}
	p.Report(Diagnostic{
		Span: at,
		Message: fmt.Sprintf("%s %s shuffles %s: it is bucketed on (%s), which the keys do not include (%s)",
			what, keyColumns(keys), t.Name, strings.Join(t.Buckets().Columns, ", "), p.spark()),
		Related:  bucketRelated(t),
		Fix:      &Fix{Description: fmt.Sprintf("Group by a superset of (%s), or bucket %s by %s if this aggregation is its main workload", strings.Join(t.Buckets().Columns, ", "), t.Name, keyColumns(keys))},
		Grouping: groupingOf(what, t, keys),
	})
}

// groupingOf is the finding's aggregation or window (what: "GROUP BY", "window PARTITION BY",
// "groupBy", "window", "dropDuplicates", "aggregate") over t by keys, nil unless every key
// is a column.
func groupingOf(what string, t *plan.Table, keys []plan.ColumnRef) *Grouping {
	g := &Grouping{What: "aggregate", Table: t.Name}
	if strings.Contains(what, "window") {
		g.What = "window"
	}
	for _, k := range keys {
		if k.Column == "" {
			return nil
		}
		g.Columns = append(g.Columns, k.Column)
	}
	return g
}

// pivotGrouping returns the columns a PIVOT block of q groups by (those of its input it
// neither pivots nor aggregates), which name resolution finds; nil when sel is no PIVOT or
// its input's columns are not known.
func pivotGrouping(p *Pass, q *plan.Query, sel *plan.Select) []plan.ColumnRef {
	if sel.Pivot == nil || p.Workload == nil {
		return nil
	}
	var keys []plan.ColumnRef
	p.Workload.Resolved(q).Query.WalkRelations(func(r *plan.Relation) bool {
		if rs := r.Select; r.Kind == plan.SelectRel && rs != nil && rs.Pivot != nil && rs.Pivot.Grouped && rs.Span == sel.Span {
			keys = rs.GroupBy
		}
		return keys == nil
	})
	return keys
}

// collectSelects gathers the SELECT blocks of a relation tree.
func collectSelects(r *plan.Relation, out *[]*plan.Select) {
	plan.WalkRelation(r, func(r *plan.Relation) bool {
		if r.Kind == plan.SelectRel && r.Select != nil {
			*out = append(*out, r.Select)
		}
		return true
	})
}

// explainAggregates reports planner shuffles feeding an aggregate or window straight from a
// bucketed table's scan.
func explainAggregates(p *Pass, e *plan.Explain, tables map[string]*plan.Table) {
	plan.Walk(e.Physical(), func(n plan.Node) bool {
		var keys []plan.Expr
		what := "aggregate"
		if a, ok := plan.AggregateOf(n); ok && len(a.Keys) > 0 {
			keys = a.Keys
		} else if w, ok := n.(*plan.Window); ok && len(w.PartitionKeys) > 0 {
			keys, what = w.PartitionKeys, "window"
		}
		if len(keys) == 0 || len(n.Children()) != 1 {
			return true
		}
		side := workload.ExplainSide(n.Children()[0], keys, n.Info().Pos, tables)
		if side.Exchange == nil || !isBucketed(side.Table) || side.Exchange.Partitioning.Kind != plan.HashPartitioning ||
			!shufflesGrouping(p, n.Info().Pos, side.Table.Buckets().Columns, side.Keys) {
			return true
		}
		t := side.Table
		p.Report(Diagnostic{
			Span: side.Exchange.Span(),
			Message: fmt.Sprintf("%s on %s shuffles %s: it is bucketed on (%s), which the keys do not include (%s)",
				what, keyColumns(side.Keys), t.Name, strings.Join(t.Buckets().Columns, ", "), p.spark()),
			Related:  bucketRelated(t),
			Fix:      &Fix{Description: fmt.Sprintf("Group by a superset of (%s), or bucket %s by %s if this aggregation is its main workload", strings.Join(t.Buckets().Columns, ", "), t.Name, keyColumns(side.Keys))},
			Grouping: groupingOf(what, t, side.Keys),
		})
		return true
	})
}
