package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

func bl107() *Rule {
	return &Rule{
		ID:    "BL107",
		Name:  "partition-by-high-cardinality",
		Title: "partitionBy on an id-like column that should be bucketed",
		Doc: "Partitioning writes one directory per distinct value. On an identifier (`customer_id`,\n" +
			"`order_id`, `uuid`) or a timestamp that is millions of directories of tiny files: slow\n" +
			"listing, a huge metastore, and no partition pruning worth having. Such a column is a join or\n" +
			"lookup key, and bucketing is the layout for that: a fixed number of files, hashed on the key,\n" +
			"joined without a shuffle.\n\n" +
			"The rule recognises id-like names (`id`, `*_id`, `*Id`, `uuid`, `guid`, `*_key`, `*_uuid`,\n" +
			"`email`) and `timestamp` columns. Partition by a low-cardinality column (a date) and bucket by\n" +
			"the key.\n\n" +
			"A write of a frame whose rows the code shows (local data, `spark.range` with constant bounds)\n" +
			"makes at most that many partitions, each holding a row: at most `spark.sql.shuffle.partitions`\n" +
			"rows (or its default, 200) is no more directories than a plain write after a shuffle makes\n" +
			"files, and the rule is silent." + suppressDoc("BL107"),
		Bad:      `orders.write.partitionBy("customer_id").saveAsTable("sales.orders")`,
		Good:     `orders.write.partitionBy("order_date").bucketBy(64, "customer_id").saveAsTable("sales.orders")`,
		Spark:    "2.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL107,
	}
}

func runBL107(p *Pass) error {
	for _, t := range sortedTables(p.Project.Tables) {
		if writtenOnly(p.Project, t) {
			continue
		}
		for _, c := range t.PartitionColumns {
			name := c
			at := plan.Span{Start: firstSource(t)}
			if col, ok := t.Column(c); ok {
				name = col.Name
				if col.Pos.IsValid() {
					at = nameSpan(col.Pos, col.Name)
				}
			}
			if idLike(name) || strings.HasPrefix(t.ColumnType(c), "timestamp") {
				reportHighCardinality(p, t.Name, name, t.ColumnType(c), at, "ddl")
				break
			}
		}
	}
	for _, cf := range p.Project.Code {
		for _, w := range cf.Writes {
			if fewRows(p, w) {
				continue
			}
			for _, c := range w.PartitionBy {
				if idLike(c) {
					name := w.Table
					if name == "" {
						name = w.Path
					}
					if name == "" {
						name = "the written data"
					}
					reportHighCardinality(p, name, c, "", spanOrPos(w.PartitionBySpan, w.Span.Start), writeKind(w))
					break
				}
			}
		}
	}
	return nil
}

// fewRows reports a write of a frame whose rows the code shows (FrameRef.MaxRows) to be no
// more than spark.sql.shuffle.partitions (at least its default): every partition directory
// and file holds a row, so it makes no more of them than a plain write after a shuffle.
func fewRows(p *Pass, w *plan.Write) bool {
	o := p.OptionsAt(w.Span.Start)
	rows := w.Frame.MaxRows
	return rows > 0 && rows <= int64(max(o.ShufflePartitions(), o.Behaviour().Defaults.ShufflePartitions))
}

// writeKind is "table" for a write to a catalog table, where bucketBy is possible, and
// "path" for a write to files, where it fails (BL201).
func writeKind(w *plan.Write) string {
	if w.Terminal == "saveAsTable" || w.Terminal == "insertInto" || w.Terminal == "writeTo" {
		return "table"
	}
	return "path"
}

// reportHighCardinality reports a table partitioned by col. how says where the partitioning
// is declared: "ddl" (a table declaration), "table" (a write to a catalog table) or "path" (a
// write to files, which cannot bucket), and picks the fix.
func reportHighCardinality(p *Pass, table, col, typ string, at plan.Span, how string) {
	kind := "an id-like column"
	if strings.HasPrefix(typ, "timestamp") {
		kind = "a " + typ + " column"
	}
	fix := fmt.Sprintf("Partition by a low-cardinality column (a date) and bucket by %s: .bucketBy(n, %s)", col, quoted(col))
	switch how {
	case "ddl":
		fix = fmt.Sprintf("Partition by a low-cardinality column (a date) and bucket by %s: CLUSTERED BY (%s) INTO n BUCKETS", col, col)
	case "path":
		fix = fmt.Sprintf("Partition by a low-cardinality column (a date), or not at all; to bucket by %s, write a table: .bucketBy(n, %s).saveAsTable(\"<db.table>\") (bucketBy with a path write fails, BL201)", col, quoted(col))
	}
	p.Report(Diagnostic{
		Span:    at,
		Message: fmt.Sprintf("%s is partitioned by %s, %s: one directory per value makes many small files; bucket by it instead", table, col, kind),
		Fix:     &Fix{Description: fix},
	})
}

// idLike reports whether a column name looks like an identifier.
func idLike(name string) bool {
	l := strings.ToLower(strings.Trim(name, "`\"'"))
	switch l {
	case "id", "uuid", "guid", "key", "email":
		return true
	}
	for _, suffix := range []string{"_id", "_uuid", "_guid", "_key", "_email"} {
		if strings.HasSuffix(l, suffix) {
			return true
		}
	}
	return len(name) > 2 && strings.HasSuffix(name, "Id")
}

func firstSource(t *plan.Table) plan.Pos {
	if len(t.Sources) > 0 {
		return t.Sources[0]
	}
	return plan.Pos{}
}
