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
			"the key." + suppressDoc("BL107"),
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
		for _, c := range t.PartitionColumns {
			name := c
			if col, ok := t.Column(c); ok {
				name = col.Name
			}
			if idLike(name) || strings.HasPrefix(columnType(t, c), "timestamp") {
				reportHighCardinality(p, t.Name, name, columnType(t, c), plan.Span{Start: firstSource(t)})
				break
			}
		}
	}
	for _, cf := range p.Project.Code {
		for _, w := range cf.Writes {
			for _, c := range w.PartitionBy {
				if idLike(c) {
					name := w.Table
					if name == "" {
						name = w.Path
					}
					reportHighCardinality(p, name, c, "", spanOrPos(w.PartitionBySpan, w.Span.Start))
					break
				}
			}
		}
	}
	return nil
}

func reportHighCardinality(p *Pass, table, col, typ string, at plan.Span) {
	kind := "an id-like column"
	if strings.HasPrefix(typ, "timestamp") {
		kind = "a " + typ + " column"
	}
	p.Report(Diagnostic{
		Span:    at,
		Message: fmt.Sprintf("%s is partitioned by %s, %s: one directory per value makes many small files; bucket by it instead", table, col, kind),
		Fix:     &Fix{Description: fmt.Sprintf("Partition by a low-cardinality column (a date) and bucket by %s: .bucketBy(n, %s)", col, quoted(col))},
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
