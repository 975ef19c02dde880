package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

func bl202() *Rule {
	return &Rule{
		ID:    "BL202",
		Name:  "bucketed-write-file-explosion",
		Title: "a bucketed write not preceded by repartition(n, bucket columns)",
		Doc: "`bucketBy(n, …)` does not shuffle: every task of the written DataFrame writes one file for each\n" +
			"bucket it has rows for. A frame of 2000 partitions bucketed into 256 buckets writes up to\n" +
			"512,000 small files — slow to write, slow to list, and every bucket's many files make Spark\n" +
			"sort them again at read time (a bucket is only known sorted when it is a single file).\n\n" +
			"Repartition by the bucket columns into the bucket count first: `df.repartition(n, cols…)`\n" +
			"hashes rows exactly as the buckets do (same Murmur3, same modulus), so each task writes one\n" +
			"file of one bucket. The rule counts the files a write makes at most (each task writes a file\n" +
			"per bucket it holds rows of): it is silent when that is one per bucket — after `coalesce(1)`,\n" +
			"or a `repartition(n, bucket columns)` whose n divides the bucket count — and when a\n" +
			"repartition by the bucket columns into a count it cannot read is visible in the chain or in\n" +
			"the definitions of the written variable. A `repartition(bucket columns)` without a count\n" +
			"makes `spark.sql.shuffle.partitions` tasks, and lcm(partitions, buckets) files.\n\n" +
			"Every file holds at least one row, so a frame whose rows the code shows (local data such as\n" +
			"`Seq(…).toDF`, `createDataFrame` or `parallelize` of a literal list, `spark.range` with constant\n" +
			"bounds, followed by methods that never add rows) makes at most that many files. When that is\n" +
			"no more than `spark.sql.shuffle.partitions` (or its default, 200, when a session sets fewer),\n" +
			"the write makes no more files than Spark's plain write of a shuffled frame (one per shuffle\n" +
			"partition), and the rule is silent. It is silent too for a frame Spark knows to be small:\n" +
			"data the program holds (a local collection, a Scala range or for-comprehension, a Python\n" +
			"comprehension made a frame: Spark's `LocalRelation`, planned as a `LocalTableScanExec` over\n" +
			"rows already in the driver), and a `spark.range` whose size by Spark's own estimate (8 bytes\n" +
			"a row) is within `spark.sql.autoBroadcastJoinThreshold`, under which Spark sends a relation\n" +
			"whole to every executor instead of shuffling it. Such a frame is seed or test data: its\n" +
			"files are small whatever the layout, and a join with it broadcasts it rather than reading\n" +
			"its buckets, so the repartition buys nothing. A frame whose size the file does not show\n" +
			"(a table, files, a value defined elsewhere) is not assumed small; in a test source (a `test`\n" +
			"or `tests` directory, pytest's `test_*.py`/`*_test.py`, ScalaTest/JUnit's `*Suite`, `*Test`,\n" +
			"`*Spec`) such a frame is the test's own data, made elsewhere, and the finding is an info\n" +
			"without a fix that says the count is not known (`check --explain` lists it). It is also\n" +
			"silent for a write Spark rejects (a bucket or sort column that is a partition column, BL102):\n" +
			"it writes no files.\n\n" +
			"SQL writes into a bucketed data source table (INSERT … SELECT, CREATE TABLE … AS SELECT, and\n" +
			"so dbt models) do the same: the rule reads the top SELECT's `REPARTITION`/`COALESCE` hint or\n" +
			"`DISTRIBUTE BY` (`CLUSTER BY`) and proposes `SELECT /*+ REPARTITION(n, bucket columns) */`;\n" +
			"it is silent for `REBALANCE` (AQE sizes the files) and for a set operation at the top." + suppressDoc("BL202"),
		Bad:      `orders.write.bucketBy(64, "customer_id").saveAsTable("sales.orders_b")`,
		Good:     `orders.repartition(64, "customer_id").write.bucketBy(64, "customer_id").saveAsTable("sales.orders_b")`,
		Spark:    "2.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL202,
	}
}

func runBL202(p *Pass) error {
	for _, cf := range p.Project.Code {
		for _, w := range cf.Writes {
			if w.Bucket == nil || w.Terminal != "saveAsTable" {
				continue
			}
			if w.Bucket.ColumnsExpr != "" && w.Repartition != nil && len(w.Repartition.Cols) > 0 {
				continue // whether the repartition is by the bucket columns is not known
			}
			if constBuckets(w) {
				continue
			}
			n := w.Bucket.NumBuckets
			fc := writeFiles(w, n, p.OptionsAt(w.Span.Start))
			// One file per bucket (coalesce(1), or a repartition by the bucket columns into a
			// divisor of the count) is what the rule asks for; a repartition by the bucket
			// columns whose count is not a constant is taken as meant for the buckets.
			if n > 0 && fc.Max > 0 && fc.Max <= n || repartitionedByBuckets(w) && fc.Max == 0 && w.Repartition.N == 0 {
				continue
			}
			// A frame of known rows writes at most that many files: no more than a plain
			// write after a shuffle makes (spark.sql.shuffle.partitions, at least its default:
			// a session that lowers it for small data does not make its files many).
			if fc.RowBound && fewRows(p, w) || rejectedWrite(w) || smallFrame(p, w) {
				continue
			}
			if r := w.Repartition; r != nil && (r.Method == "repartition" || r.Method == "repartitionByRange") && byPartitions(trimQuotes(r.Cols), w.PartitionBy) {
				continue
			}
			reportBL202(p, cf, w, fc)
		}
	}
	runBL202SQL(p)
	return nil
}

// reportBL202 reports a bucketed write that makes more files than buckets.
func reportBL202(p *Pass, cf *plan.CodeFile, w *plan.Write, fc fileCount) {
	n := w.Bucket.NumBuckets
	count := fmt.Sprint(n)
	if w.BucketCountExpr != "" {
		count = w.BucketCountExpr
	}
	into, agree := p.fixCount(w, count)
	callCount := into
	if into == "" {
		callCount = "n"
	}
	call := fmt.Sprintf(".repartition(%s, %s)", callCount, columnArgs(cf.Language, w.Bucket.Columns, true))
	name := w.Table
	if name == "" {
		name = "the table"
	}
	cols := strings.Join(w.Bucket.Columns, ", ")
	if w.Bucket.ColumnsExpr != "" {
		cols = "columns not known statically: " + w.Bucket.ColumnsExpr
	}
	var msg string
	switch {
	case fc.RowBound:
		msg = fmt.Sprintf("bucketed write of %s (%s buckets on (%s)) without a repartition by the bucket columns: every task writes a file per bucket it holds rows of, up to tasks × %s files, at most %d (the frame's rows)",
			name, count, cols, count, fc.Max)
		if r := w.Repartition; r != nil {
			msg += fmt.Sprintf("; the %s before it is not by (%s)", r.Method, cols)
		}
	case fc.Max > 0 && fc.Max < fc.Tasks*max(n, 1):
		msg = fmt.Sprintf("bucketed write of %s (%s buckets on (%s)) after %s: the hash sends each bucket's rows to %d tasks, up to %d files (%d per bucket)",
			name, count, cols, fc.How, fc.Max/max(n, 1), fc.Max, fc.Max/max(n, 1))
	case fc.Max > 0:
		not := ", which is not by the bucket columns in their order"
		if len(w.Repartition.Cols) == 0 {
			not = ""
		}
		msg = fmt.Sprintf("bucketed write of %s (%s buckets on (%s)) after %s%s: each of the %d tasks writes a file per bucket, up to %d × %s = %d files",
			name, count, cols, fc.How, not, fc.Tasks, fc.Tasks, count, fc.Max)
	default:
		msg = fmt.Sprintf("bucketed write of %s (%s buckets on (%s)) without a repartition by the bucket columns: every task writes a file per bucket, up to tasks × %s files",
			name, count, cols, count)
		if r := w.Repartition; r != nil {
			msg += fmt.Sprintf("; the %s before it is not by (%s)", r.Method, cols)
		}
	}
	d := Diagnostic{
		Span:    spanOrPos(w.Bucket.Span, w.Span.Start),
		Message: msg,
		Fix:     &Fix{Description: "Repartition the frame by the bucket columns before writing: " + call + agree},
	}
	if w.Bucket.ColumnsExpr != "" {
		d.Fix = nil // a repartition needs the columns, and they are not known statically
	}
	if cf.Test && w.Frame.MaxRows == 0 {
		// A test writes data it makes, and this file does not show how much (a generator,
		// a fixture or a table defined elsewhere): the file count is not known, and the
		// write is the test's set-up or subject, not a job's. An explanation, not a finding.
		d.Severity, d.Fix = Info, nil
		d.Message += "; a test source writing a frame whose rows this file does not show (test data made elsewhere): how many files it makes is not known here"
	}
	if end := w.Frame.Span.End; d.Fix != nil && into != "" && end.IsValid() && w.Repartition == nil {
		d.Fix.Edits = []Edit{{Span: plan.Span{Start: end, End: end}, Text: call}}
	}
	p.Report(d)
}

// fixCount is the count BL202's repartition takes for the write w of count buckets, and what
// the fix adds to say why: the table's own count, or the count BL301's fix rebuckets the
// table to (so that both fixes applied make one layout). When BL301's fixes rebucket the table
// to different counts (it is joined with tables of different counts), into is empty: the
// repartition's count is the one chosen for the table, and the fix says so.
func (p *Pass) fixCount(w *plan.Write, count string) (into, why string) {
	if w.BucketCountExpr != "" || w.Table == "" {
		return count, ""
	}
	return p.countFor(w.Table, count)
}

// countFor is fixCount for the table named table, whose count is count.
func (p *Pass) countFor(table, count string) (into, why string) {
	switch to := p.rebucketCounts(table); len(to) {
	case 0:
		return count, ""
	case 1:
		return fmt.Sprint(to[0]), fmt.Sprintf(" (%d, the count BL301's fix rebuckets %s to)", to[0], table)
	default:
		counts := make([]string, len(to))
		for i, c := range to {
			counts[i] = fmt.Sprint(c)
		}
		return "", fmt.Sprintf(", n the count chosen for %s: BL301's fixes rebucket it to %s, one per join", table, strings.Join(counts, " or "))
	}
}

// smallFrame reports a write of a frame Spark knows to be small: data the program holds (a
// local collection made a frame: Spark's LocalRelation, planned as a LocalTableScanExec over
// rows already in the driver, in at most min(rows, default parallelism) tasks), or a
// spark.range whose size by Spark's own estimate (8 bytes a row, Range.computeStats) is
// within spark.sql.autoBroadcastJoinThreshold, the size under which Spark sends a relation
// whole to every executor instead of shuffling it. Either is seed or test data: its files are
// small whatever the layout, and a join with it broadcasts it rather than using its buckets,
// so a repartition before the write buys nothing.
func smallFrame(p *Pass, w *plan.Write) bool {
	if w.Frame.Local {
		return true
	}
	limit := p.OptionsAt(w.Span.Start).BroadcastThreshold()
	return w.Frame.RangeRows && w.Frame.MaxRows > 0 && limit > 0 && w.Frame.MaxRows <= limit/8
}

// constBuckets reports a write whose bucket columns all hold one value on every row
// (lit(…), a literal in selectExpr): every row hashes to the same bucket, so each task
// writes one file, as an unbucketed write does (Spark 4.3: 4 tasks, 2 buckets on a constant
// date or null, 4 files of one bucket), and a repartition by those columns would send every
// row to one task.
func constBuckets(w *plan.Write) bool {
	if len(w.Bucket.Columns) == 0 {
		return false
	}
	for _, c := range w.Bucket.Columns {
		if !containsFold(w.Frame.ConstColumns, c) {
			return false
		}
	}
	return true
}

// rejectedWrite reports a bucketed write Spark refuses before writing anything: a bucket or
// sort column that is also a partition column (BL102 reports it).
func rejectedWrite(w *plan.Write) bool {
	for _, c := range append(append([]string(nil), w.Bucket.Columns...), w.Bucket.SortColumns...) {
		if contains(w.PartitionBy, c) {
			return true
		}
	}
	return false
}

// repartitionedByBuckets reports whether the written frame was repartitioned by exactly the
// bucket columns.
func repartitionedByBuckets(w *plan.Write) bool {
	r := w.Repartition
	if r == nil || r.Method != "repartition" || len(r.Cols) == 0 {
		return false
	}
	for _, c := range r.Cols {
		if !contains(w.Bucket.Columns, strings.Trim(c, `"'`)) {
			return false
		}
	}
	for _, c := range w.Bucket.Columns {
		found := false
		for _, rc := range r.Cols {
			found = found || strings.EqualFold(strings.Trim(rc, `"'`), c)
		}
		if !found {
			return false
		}
	}
	return true
}
