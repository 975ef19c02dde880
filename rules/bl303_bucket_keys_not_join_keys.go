package rules

import (
	"fmt"
	"strings"
)

func bl303() *Rule {
	return &Rule{
		ID:    "BL303",
		Name:  "bucket-keys-not-join-keys",
		Title: "bucket columns that differ from, or are a subset or superset of, the join keys",
		Doc: "A bucketed side avoids its shuffle only when its bucket columns are exactly the join keys (in\n" +
			"any order of the ON clause). Bucketed by `(a, b)` and joined on `a`: `hash(a, b)` says nothing\n" +
			"about where the rows of one `a` are, so the side is shuffled. Bucketed by `(a)` and joined on\n" +
			"`(a, b)`: Spark 3.3+ also shuffles by default, because\n" +
			"`spark.sql.requireAllClusterKeysForCoPartition` (internal, default true) lets a side impose its\n" +
			"layout only when it is partitioned on all the join keys; with that set to false and both sides\n" +
			"bucketed alike, the join is shuffle-free, and the rule is then silent for simulated joins.\n\n" +
			"Bucket the table on the columns it is joined on, or join on all its bucket columns. The rule\n" +
			"stays silent when the other side is small enough to broadcast (BL308 covers that) or when a\n" +
			"broadcast is hinted." + suppressDoc("BL303"),
		Bad: "CREATE TABLE t1 (i INT, j INT) USING parquet CLUSTERED BY (i, j) INTO 8 BUCKETS;\n" +
			"CREATE TABLE t2 (i INT, j INT) USING parquet CLUSTERED BY (i, j) INTO 8 BUCKETS;\n" +
			"SELECT * FROM t1 JOIN t2 ON t1.i = t2.i;",
		Good: "CREATE TABLE t1 (i INT, j INT) USING parquet CLUSTERED BY (i, j) INTO 8 BUCKETS;\n" +
			"CREATE TABLE t2 (i INT, j INT) USING parquet CLUSTERED BY (i, j) INTO 8 BUCKETS;\n" +
			"SELECT * FROM t1 JOIN t2 ON t1.i = t2.i AND t1.j = t2.j;",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL303,
	}
}

func runBL303(p *Pass) error {
	for _, s := range p.joinSites() {
		if s.Broadcast {
			continue
		}
		for i, side := range s.sides() {
			other := s.sides()[1-i]
			m := sideMatch(side)
			if m == exactKeys || m == notBucketed || (s.Known && !side.Shuffled) || p.defersToBroadcast(s, side) {
				continue
			}
			b := side.Table.Bucket
			bucket := "(" + strings.Join(b.Columns, ", ") + ")"
			var how, fix string
			switch m {
			case subsetKeys:
				how = fmt.Sprintf("its bucket columns %s are a subset of the join keys %s", bucket, keyColumns(side.Keys))
				fix = fmt.Sprintf("Bucket %s by all the join keys %s, or join on %s only", side.Table.Name, keyColumns(side.Keys), bucket)
			case supersetKeys:
				how = fmt.Sprintf("its bucket columns %s include columns that are not among the join keys %s", bucket, keyColumns(side.Keys))
				fix = fmt.Sprintf("Join on all the bucket columns %s, or bucket %s by %s", bucket, side.Table.Name, keyColumns(side.Keys))
			default:
				how = fmt.Sprintf("it is bucketed on %s but joined on %s", bucket, keyColumns(side.Keys))
				fix = fmt.Sprintf("Bucket %s by the join keys %s", side.Table.Name, keyColumns(side.Keys))
			}
			p.Report(Diagnostic{
				Span:    s.Span,
				Message: fmt.Sprintf("%s: %s, so the join %s (%s)", side.Table.Name, how, shuffledText(s, side), p.spark()),
				Related: bucketRelated(side.Table),
				Fix:     &Fix{Description: p.withLayout(fix, s, side.Table, keyCols(side.Keys), p.adviseCount(s, side, other))},
			})
		}
	}
	return nil
}
