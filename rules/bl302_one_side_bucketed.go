package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/simulate"
)

func bl302() *Rule {
	return &Rule{
		ID:    "BL302",
		Name:  "one-side-bucketed",
		Title: "only one side of a big join is bucketed on the join keys",
		Doc: "Bucketing one side of a join saves that side's shuffle only: the other side is still shuffled\n" +
			"into the bucketed side's partitioning (Spark 3.3+ shuffles it into the bucket count when that\n" +
			"is at least `spark.sql.shuffle.partitions`, and otherwise may shuffle both sides; before 3.3 a\n" +
			"bucket count below `spark.sql.shuffle.partitions` gets both sides shuffled, BL404).\n\n" +
			"Bucket the other table the same way (same columns, same count), or — for a one-off job —\n" +
			"`repartition(n, key)` it with the bucketed side's count. The rule stays silent when the\n" +
			"unbucketed side is small enough to broadcast (BL308 covers that) or when a broadcast is\n" +
			"hinted." + suppressDoc("BL302"),
		Bad: "CREATE TABLE orders (customer_id INT, amt DOUBLE) USING parquet CLUSTERED BY (customer_id) INTO 64 BUCKETS;\n" +
			"CREATE TABLE visits (customer_id INT, url STRING) USING parquet;\n" +
			"SELECT * FROM orders o JOIN visits v ON o.customer_id = v.customer_id;",
		Good: "CREATE TABLE orders (customer_id INT, amt DOUBLE) USING parquet CLUSTERED BY (customer_id) INTO 64 BUCKETS;\n" +
			"CREATE TABLE visits (customer_id INT, url STRING) USING parquet CLUSTERED BY (customer_id) INTO 64 BUCKETS;\n" +
			"SELECT * FROM orders o JOIN visits v ON o.customer_id = v.customer_id;",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL302,
	}
}

func runBL302(p *Pass) error {
	for _, s := range p.joinSites() {
		for i, b := range s.Sides() {
			o := s.Sides()[1-i]
			if !s.Sides()[1-i].Causes.Has(simulate.CauseUnbucketed) {
				continue
			}
			n := b.Table.Buckets().NumBuckets
			cols := b.Table.Buckets().Columns
			var ocols []string
			for _, c := range cols {
				if k := simulate.KeyIndex(b.Keys, c); k >= 0 && k < len(o.Keys) {
					ocols = append(ocols, o.Keys[k].Column)
				}
			}
			p.Report(Diagnostic{
				Span: s.Span,
				Message: fmt.Sprintf("only %s is bucketed on the join keys (%d buckets on (%s)); %s is not bucketed, so the join %s (%s)",
					b.Table.Name, n, strings.Join(cols, ", "), o.Table.Name, shuffledText(s, o), p.spark()),
				Related: append(bucketRelated(b.Table), bucketRelated(o.Table)...),
				Fix: &Fix{Description: p.withLayout(fmt.Sprintf("Bucket %s by (%s) INTO %d BUCKETS like %s, or repartition it by them into %d before the join",
					o.Table.Name, strings.Join(ocols, ", "), n, b.Table.Name, n), s, o.Table, ocols, n)},
			})
		}
	}
	return nil
}
