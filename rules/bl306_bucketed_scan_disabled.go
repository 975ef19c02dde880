package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
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
			"  scan that uses its partitioning — because the layout did not match and the side is shuffled\n" +
			"  anyway, or because the query never needed it. This rule does not report it: the finding on\n" +
			"  the join (BL301, BL303, BL304, …) says what to change.\n" +
			"- `bucket column(s) not read`: the query reads none of the bucket columns.\n\n" +
			"The rule reads explain output (the printed reason; before 3.3, a scan of a table known to be\n" +
			"bucketed that prints no `SelectedBucketsCount`), simulated queries and simulated DataFrame joins,\n" +
			"and reports a scan only when a join, aggregation or window above it is keyed on all its bucket\n" +
			"columns, i.e. would have used the buckets: a scan nothing above needs (a query that reads no\n" +
			"bucket column, a join on other keys) loses nothing. It is informational: a\n" +
			"disabled scan is a symptom; the finding on the join or aggregation says what to change, and\n" +
			"`check` lists the finding only with `--explain`. When the plan says `disabled by configuration`\n" +
			"and no setting read turns bucketing off (BL401 would report it), the setting was made outside\n" +
			"the files read, and the finding says to find and remove it." + suppressDoc("BL306"),
		Bad:      "FileScan parquet default.b[a#53,b#54] Batched: true, Bucketed: false (disabled by configuration), …",
		Good:     "FileScan parquet default.b[a#53,b#54] Batched: true, Bucketed: true, …, SelectedBucketsCount: 8 out of 8",
		Spark:    "3.1–4.x",
		Since:    "0.1.0",
		Severity: Info,
		Default:  true,
		Run:      runBL306,
	}
}

func runBL306(p *Pass) error {
	tables := p.tables()
	for _, e := range p.Project.Explains {
		plan.Walk(e.Physical(), func(n plan.Node) bool {
			fs, ok := n.(*plan.FileScan)
			if !ok {
				return true
			}
			t := lookup(tables, fs.Table)
			printed := "Bucketed: false, " + fs.BucketedReason
			switch {
			case fs.Bucketed != nil && !*fs.Bucketed && fs.BucketedReason != "":
			case fs.Bucketed == nil && fs.TotalBuckets == 0 && isBucketed(t) && fs.Table != "":
				printed = "no SelectedBucketsCount in the scan"
			default:
				return true
			}
			if !bucketsWanted(e.Physical(), n, bucketColumns(fs, t)) {
				return true
			}
			reportDisabledScan(p, scanName(fs, t), t, fs.BucketedCause, printed, n.Span())
			return true
		})
	}
	for _, q := range p.Project.Queries {
		simulatedScans(p, p.simulate(q), func(t *plan.Table) plan.Span {
			at := relationSpan(q, t.Name)
			if !at.Start.IsValid() {
				at = q.Span
			}
			return at
		})
	}
	// DataFrame joins are simulated as the equivalent SQL join: the same scans are reported,
	// at the frame of each side.
	for _, s := range p.joinSites() {
		if s.Kind != workload.CodeSite || s.Sim == nil {
			continue
		}
		simulatedScans(p, s.Sim, func(t *plan.Table) plan.Span {
			for _, side := range s.Sides() {
				if side.Table == t {
					return side.Span
				}
			}
			// A scan inside a derived frame belongs to the join or aggregation defining it.
			return plan.Span{}
		})
	}
	return nil
}

// simulatedScans reports the scans of a simulated plan that read a bucketed table without its
// buckets where an operator above would have used them, once per table, at the span at gives
// (none when at gives an invalid span).
func simulatedScans(p *Pass, res *simulate.Result, at func(*plan.Table) plan.Span) {
	if res == nil {
		return
	}
	seen := map[string]bool{}
	plan.Walk(res.Plan, func(n plan.Node) bool {
		fs, ok := n.(*plan.FileScan)
		if !ok || fs.Bucketed == nil || *fs.Bucketed {
			return true
		}
		t := lookup(p.Project.Tables, fs.Table)
		if !isBucketed(t) || seen[t.Name] || !bucketsWanted(res.Plan, n, t.Buckets().Columns) {
			return true
		}
		seen[t.Name] = true
		if span := at(t); span.Start.IsValid() {
			reportDisabledScan(p, t.Name, t, fs.BucketedCause, "Bucketed: false, "+fs.BucketedReason+", simulated", span)
		}
		return true
	})
}

// bucketColumns are the bucket columns of a scanned table: its declaration's, else none.
func bucketColumns(_ *plan.FileScan, t *plan.Table) []string {
	if t == nil || t.Buckets() == nil {
		return nil
	}
	return t.Buckets().Columns
}

// bucketsWanted reports whether an operator above scan in root would have used the scan's
// bucketing: a join whose keys on the scan's side, or an aggregate or window whose keys,
// reference every bucket column (under a cast too: the layout would serve once the types
// agree). Without known bucket columns any such operator counts. A scan nothing above uses
// (a plain projection, a filter, a join on other keys) loses nothing by reading plain files.
func bucketsWanted(root, scan plan.Node, cols []string) bool {
	var path []plan.Node
	var find func(n plan.Node) bool
	find = func(n plan.Node) bool {
		if n == nil {
			return false
		}
		path = append(path, n)
		if n == scan {
			return true
		}
		for _, k := range n.Children() {
			if find(k) {
				return true
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if !find(root) {
		return false
	}
	covers := func(keys []plan.Expr) bool {
		if len(keys) == 0 {
			return false
		}
		refs := map[string]bool{}
		for _, k := range keys {
			for _, r := range k.Refs() {
				refs[strings.ToLower(r.Name)] = true
			}
		}
		for _, c := range cols {
			if !refs[strings.ToLower(c)] {
				return false
			}
		}
		return true
	}
	for i := len(path) - 2; i >= 0; i-- {
		n, child := path[i], path[i+1]
		if j, ok := plan.JoinOf(n); ok {
			kids := n.Children()
			keys := j.LeftKeys
			if len(kids) == 2 && kids[1] == child {
				keys = j.RightKeys
			}
			if covers(keys) {
				return true
			}
			continue
		}
		if a, ok := plan.AggregateOf(n); ok && covers(a.Keys) {
			return true
		}
		if w, ok := n.(*plan.Window); ok && covers(w.PartitionKeys) {
			return true
		}
	}
	return false
}

func scanName(fs *plan.FileScan, t *plan.Table) string {
	if t != nil {
		return t.Name
	}
	return strings.TrimPrefix(fs.Table, "spark_catalog.")
}

// reportDisabledScan reports a scan of a bucketed table read without its buckets for cause,
// with printed saying what the scan shows.
func reportDisabledScan(p *Pass, name string, t *plan.Table, cause plan.BucketedCause, printed string, at plan.Span) {
	var explain string
	switch cause {
	case plan.NotBucketedByPlanner:
		// DisableUnnecessaryBucketedScan turned the layout off because the join or aggregation
		// above shuffles this side anyway: a symptom, and the finding on that join (BL301,
		// BL303, BL304, …) already says what to change.
		return
	case plan.NotBucketedByConfiguration:
		switch session, block := bucketingDisabledInFiles(p); {
		case session:
			explain = "spark.sql.sources.bucketing.enabled is false, see BL401"
		case block:
			explain = "spark.sql.sources.bucketing.enabled is false, set for a block (withSQLConf, sql_conf)"
		default:
			explain = "spark.sql.sources.bucketing.enabled was false in the run, set outside the files read"
		}
	case plan.NotBucketedColumnsNotRead:
		explain = "the query reads none of the bucket columns"
	default:
		explain = "the plan does not use the bucket layout"
	}
	spec := "its buckets"
	if isBucketed(t) {
		spec = "its " + fmt.Sprint(t.Buckets().NumBuckets) + " buckets"
	}
	d := Diagnostic{
		Span:    at,
		Message: fmt.Sprintf("%s is read without %s (%s): %s (%s)", name, spec, printed, explain, p.spark()),
	}
	if t != nil {
		d.Related = bucketRelated(t)
	}
	if session, block := bucketingDisabledInFiles(p); cause == plan.NotBucketedByConfiguration && !session && !block {
		// The plan says the run had bucketing off, and no setting read says so (BL401 would
		// carry the fix): it was set outside the files read, and this finding is the only
		// pointer to it.
		d.Fix = &Fix{Description: "Find where the job sets " + simulate.ConfBucketingEnabled + "=false (spark-submit --conf, spark-defaults.conf, the cluster's or session's configuration; not in the files read) and remove it; bucketing is on by default"}
	}
	p.Report(d)
}

// bucketingDisabledInFiles reports whether a setting read turns bucketing off for a session
// (BL401 reports it) or for a block (withSQLConf, sql_conf: deliberate, BL401 is silent).
func bucketingDisabledInFiles(p *Pass) (session, block bool) {
	if p.Workload == nil {
		return false, false
	}
	for _, c := range p.Workload.Settings() {
		if c.Key == simulate.ConfBucketingEnabled && strings.EqualFold(strings.TrimSpace(c.Value), "false") {
			if c.Until.IsValid() {
				block = true
			} else {
				session = true
			}
		}
	}
	return session, block
}

// relationSpan returns the span of the first scan of table in a query, zero when none.
func relationSpan(q *plan.Query, table string) plan.Span {
	var found plan.Span
	q.WalkRelations(func(r *plan.Relation) bool {
		if !found.Start.IsValid() && r.Kind == plan.TableRel && !r.CTE && lookup(map[string]*plan.Table{table: {}}, r.Table) != nil {
			found = r.Span
		}
		return !found.Start.IsValid()
	})
	return found
}
