package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

func bl306() *Rule {
	return &Rule{
		ID:    "BL306",
		Name:  "bucketed-scan-disabled",
		Title: "a scan of a bucketed table that is not bucketed, with the reason",
		Doc: "Spark 3.3+ prints why a bucketed table was read as plain files: `Bucketed: false (reason)`.\n\n" +
			"- `disabled by configuration`: `spark.sql.sources.bucketing.enabled=false` (BL401).\n" +
			"- `disabled by query planner`: `DisableUnnecessaryBucketedScan` (3.1+,\n" +
			"  `spark.sql.sources.bucketing.autoBucketedScan.enabled`) found no join or aggregation above the\n" +
			"  scan that uses its partitioning — often because the layout did not match and the side is\n" +
			"  shuffled anyway (see the BL3xx finding on the join), or because the query never needed it.\n" +
			"- `bucket column(s) not read`: the query reads none of the bucket columns.\n\n" +
			"The rule reads explain output (the printed reason; before 3.3, a scan of a table known to be\n" +
			"bucketed that prints no `SelectedBucketsCount`) and simulated queries. It is informational: a\n" +
			"disabled scan is a symptom; the finding on the join or aggregation says what to change." + suppressDoc("BL306"),
		Bad:      "FileScan parquet default.b[a#53,b#54] Batched: true, Bucketed: false (disabled by query planner), …",
		Good:     "FileScan parquet default.b[a#53,b#54] Batched: true, Bucketed: true, …, SelectedBucketsCount: 8 out of 8",
		Spark:    "3.1–4.x",
		Since:    "0.1.0",
		Severity: Info,
		Default:  true,
		Run:      runBL306,
	}
}

func runBL306(p *Pass) error {
	tables := catalog(p.Project)
	for _, e := range p.Project.Explains {
		plan.Walk(e.Physical(), func(n plan.Node) bool {
			fs, ok := n.(*plan.FileScan)
			if !ok {
				return true
			}
			t := lookup(tables, fs.Table)
			reason := fs.BucketedReason
			switch {
			case fs.Bucketed != nil && !*fs.Bucketed && reason != "":
			case fs.Bucketed == nil && fs.TotalBuckets == 0 && isBucketed(t) && fs.Table != "":
				reason = "no SelectedBucketsCount in the scan"
			default:
				return true
			}
			reportDisabledScan(p, scanName(fs, t), t, reason, n.Span())
			return true
		})
	}
	for _, q := range p.Project.Queries {
		res := p.simulate(q)
		if res == nil {
			continue
		}
		seen := map[string]bool{}
		plan.Walk(res.Plan, func(n plan.Node) bool {
			fs, ok := n.(*plan.FileScan)
			if !ok || fs.Bucketed == nil || *fs.Bucketed {
				return true
			}
			t := lookup(p.Project.Tables, fs.Table)
			if !isBucketed(t) || seen[t.Name] {
				return true
			}
			seen[t.Name] = true
			at := relationSpan(q, t.Name)
			if !at.Start.IsValid() {
				at = q.Span
			}
			reportDisabledScan(p, t.Name, t, fs.BucketedReason+", simulated", at)
			return true
		})
	}
	return nil
}

func scanName(fs *plan.FileScan, t *plan.Table) string {
	if t != nil {
		return t.Name
	}
	return strings.TrimPrefix(fs.Table, "spark_catalog.")
}

func reportDisabledScan(p *Pass, name string, t *plan.Table, reason string, at plan.Span) {
	why := map[string]string{
		"disabled by configuration": "spark.sql.sources.bucketing.enabled is false, see BL401",
		"disabled by query planner": "no join or aggregation above it uses the bucket layout (DisableUnnecessaryBucketedScan), often because the side is shuffled anyway",
		"bucket column(s) not read": "the query reads none of the bucket columns",
	}
	base := reason
	if len(base) > 11 && base[len(base)-11:] == ", simulated" {
		base = base[:len(base)-11]
	}
	printed := "Bucketed: false, " + reason
	if strings.HasPrefix(reason, "no ") {
		printed = reason
	}
	explain, ok := why[base]
	if !ok {
		explain = "the plan does not use the bucket layout"
	}
	spec := "its buckets"
	if isBucketed(t) {
		spec = "its " + fmt.Sprint(t.Bucket.NumBuckets) + " buckets"
	}
	d := Diagnostic{
		Span:    at,
		Message: fmt.Sprintf("%s is read without %s (%s): %s (%s)", name, spec, printed, explain, p.spark()),
	}
	if t != nil {
		d.Related = bucketRelated(t)
	}
	p.Report(d)
}

// relationSpan returns the span of the first scan of table in a query, zero when none.
func relationSpan(q *plan.Query, table string) plan.Span {
	var found plan.Span
	var walk func(r *plan.Relation)
	walk = func(r *plan.Relation) {
		if r == nil || found.Start.IsValid() {
			return
		}
		switch r.Kind {
		case plan.TableRel:
			if !r.CTE && lookup(map[string]*plan.Table{table: {}}, r.Table) != nil {
				found = r.Span
			}
		case plan.JoinRel:
			walk(r.Join.Left)
			walk(r.Join.Right)
		case plan.SelectRel:
			if r.Select != nil {
				walk(r.Select.From)
			}
		case plan.SetRel:
			for _, in := range r.Inputs {
				walk(in)
			}
		}
	}
	for _, c := range q.CTEs {
		walk(c.Root)
	}
	walk(q.Root)
	return found
}
