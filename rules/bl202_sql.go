package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// runBL202SQL reports INSERT … SELECT and CREATE TABLE … AS SELECT into a bucketed data
// source table whose rows are not distributed by the bucket columns into (a divisor of) the
// bucket count: Spark's SQL writes, like bucketBy, write a file per bucket in every task.
func runBL202SQL(p *Pass) {
	for _, q := range p.Project.Queries {
		if q.Target == "" || q.View || q.Root == nil {
			continue
		}
		t := lookup(p.Project.Tables, q.Target)
		if t == nil || t.Hive || !isBucketed(t) || t.Buckets().NumBuckets <= 0 {
			continue
		}
		n := t.Buckets().NumBuckets
		fc, how := sqlWriteFiles(q, t.Buckets().Columns, n, p.OptionsAt(q.Span.Start))
		if fc.Max > 0 && fc.Max <= n || how == "opaque" || byPartitions(distributedBy(q), t.PartitionColumns) {
			continue
		}
		cols := strings.Join(t.Buckets().Columns, ", ")
		into, agree := p.countFor(t.Name, fmt.Sprint(n))
		callCount := into
		if into == "" {
			callCount = "n"
		}
		hint := fmt.Sprintf("/*+ REPARTITION(%s, %s) */", callCount, cols)
		var msg string
		switch {
		case fc.Max > 0:
			msg = fmt.Sprintf("write of %s (%d buckets on (%s)) after %s: up to %d files, %d per bucket",
				t.Name, n, cols, fc.How, fc.Max, (fc.Max+n-1)/n)
		default:
			msg = fmt.Sprintf("write of %s (%d buckets on (%s)) without distributing the rows by the bucket columns: every task writes a file per bucket, up to tasks × %d files",
				t.Name, n, cols, n)
		}
		d := Diagnostic{
			Span:    q.Span,
			Message: msg,
			Related: bucketRelated(t),
			Fix:     &Fix{Description: "Distribute the rows by the bucket columns into the bucket count: SELECT " + hint + " …" + agree},
		}
		if e, ok := p.hintEdit(q, hint); ok && how == "" && into != "" {
			d.Fix.Edits = []Edit{e}
		}
		p.Report(d)
	}
}

// sqlWriteFiles models the files a SQL write makes from its query's top SELECT: a
// REPARTITION or COALESCE hint, or DISTRIBUTE BY (CLUSTER BY). how is "" when the query
// distributes nothing (an edit may add the hint), "opaque" when it is not a single SELECT
// block or uses REBALANCE (AQE sizes the files), and the distribution otherwise.
func sqlWriteFiles(q *plan.Query, bucket []string, n int, o simulate.Options) (fileCount, string) {
	sel := q.Root.Select
	if q.Root.Kind != plan.SelectRel || sel == nil {
		return fileCount{}, "opaque"
	}
	hints := append(append([]plan.Hint{}, q.Hints...), sel.Hints...)
	for i := len(hints) - 1; i >= 0; i-- {
		h := hints[i]
		switch h.Name {
		case "REBALANCE":
			return fileCount{}, "opaque"
		case "REPARTITION", "COALESCE", "REPARTITION_BY_RANGE":
			return hintFiles(h, bucket, n, o), h.Name
		}
	}
	if len(sel.DistributeBy) > 0 {
		var cols []string
		for _, c := range sel.DistributeBy {
			cols = append(cols, c.Column)
		}
		sp := o.ShufflePartitions()
		how := fmt.Sprintf("DISTRIBUTE BY %s into spark.sql.shuffle.partitions=%d", strings.Join(cols, ", "), sp)
		if sameOrder(cols, bucket) {
			return fileCount{Max: lcm(sp, n), Tasks: sp, How: how}, "DISTRIBUTE BY"
		}
		return fileCount{Max: sp * n, Tasks: sp, How: how}, "DISTRIBUTE BY"
	}
	return fileCount{}, ""
}

// distributedBy returns the columns the top SELECT of a SQL write distributes its rows by: the
// last REPARTITION or REPARTITION_BY_RANGE hint's columns, else DISTRIBUTE BY's; nil when
// there are none.
func distributedBy(q *plan.Query) []string {
	sel := q.Root.Select
	if q.Root.Kind != plan.SelectRel || sel == nil {
		return nil
	}
	hints := append(append([]plan.Hint{}, q.Hints...), sel.Hints...)
	for i := len(hints) - 1; i >= 0; i-- {
		switch h := hints[i]; h.Name {
		case "REPARTITION", "REPARTITION_BY_RANGE":
			args := h.Args
			if len(args) > 0 {
				if _, err := strconv.Atoi(args[0]); err == nil {
					args = args[1:]
				}
			}
			return args
		case "COALESCE", "REBALANCE":
			return nil
		}
	}
	var cols []string
	for _, c := range sel.DistributeBy {
		cols = append(cols, c.Column)
	}
	return cols
}

// hintFiles models a REPARTITION(n, cols), REPARTITION(cols), COALESCE(n) or
// REPARTITION_BY_RANGE hint.
func hintFiles(h plan.Hint, bucket []string, n int, o simulate.Options) fileCount {
	args := h.Args
	tasks := 0
	if len(args) > 0 {
		if v, err := strconv.Atoi(args[0]); err == nil {
			tasks, args = v, args[1:]
		}
	}
	how := h.Name + "(" + strings.Join(h.Args, ", ") + ")"
	if tasks == 0 {
		if h.Name == "COALESCE" || len(args) == 0 {
			return fileCount{}
		}
		tasks = o.ShufflePartitions()
		how += fmt.Sprintf(" into spark.sql.shuffle.partitions=%d", tasks)
	}
	if h.Name == "REPARTITION" && sameOrder(args, bucket) {
		return fileCount{Max: lcm(tasks, n), Tasks: tasks, How: how}
	}
	return fileCount{Max: tasks * n, Tasks: tasks, How: how}
}

// hintEdit inserts hint after the SELECT keyword of the query's top block, where the parser
// recorded it.
func (p *Pass) hintEdit(q *plan.Query, hint string) (Edit, bool) {
	at := q.Root.Select.HintAt
	if !at.IsValid() {
		return Edit{}, false
	}
	return Edit{Span: plan.Span{Start: at, End: at}, Text: " " + hint}, true
}
