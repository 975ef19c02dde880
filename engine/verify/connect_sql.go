//go:build engine

package verify

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// This file generates the SQL of the Spark Connect check; it needs no Spark and runs nothing.

// ctasSQL creates the copy name of the rows of source (a table reference, possibly with a
// TABLESAMPLE clause) with t's layout: CREATE TABLE … USING parquet [PARTITIONED BY]
// [CLUSTERED BY … [SORTED BY …] INTO n BUCKETS] AS SELECT …. Columns whose type differs
// between orig (the table as it is) and t are cast to t's type.
func ctasSQL(name, source string, orig, t *plan.Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s USING parquet", name)
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(&b, " PARTITIONED BY (%s)", quoteList(t.PartitionColumns))
	}
	if t.Buckets() != nil && t.Buckets().NumBuckets > 0 {
		fmt.Fprintf(&b, " CLUSTERED BY (%s)", quoteList(t.Buckets().Columns))
		if len(t.Buckets().SortColumns) > 0 {
			fmt.Fprintf(&b, " SORTED BY (%s)", quoteList(t.Buckets().SortColumns))
		}
		fmt.Fprintf(&b, " INTO %d BUCKETS", t.Buckets().NumBuckets)
	}
	fmt.Fprintf(&b, " AS SELECT %s FROM %s", selectList(orig, t), source)
	return b.String()
}

// selectList is * unless a column's type changed, then every column with the changed ones
// cast.
func selectList(orig, t *plan.Table) string {
	if orig == nil || len(t.Columns) == 0 {
		return "*"
	}
	cols, cast := make([]string, 0, len(t.Columns)), false
	for _, c := range t.Columns {
		q := quoteIdent(c.Name)
		if oc, ok := orig.Column(c.Name); ok && c.Type != "" && !strings.EqualFold(oc.Type, c.Type) {
			q, cast = fmt.Sprintf("CAST(%s AS %s) AS %s", q, c.Type, q), true
		}
		cols = append(cols, q)
	}
	if !cast {
		return "*"
	}
	return strings.Join(cols, ", ")
}

// sampleSource is the table reference a copy reads: the table, or a TABLESAMPLE of it.
func sampleSource(table string, percent float64) string {
	if percent <= 0 || percent >= 100 {
		return table
	}
	return fmt.Sprintf("%s TABLESAMPLE (%g PERCENT)", table, percent)
}

// checksumSQL wraps a query into the order-independent digest both sides are compared by:
// the row count and the sum over rows of Spark's hash(*) (Murmur3 of every column, seed 42)
// widened to BIGINT, which cannot overflow below 2^32 rows. Equal digests mean equal
// multisets of rows with overwhelming probability; the rows themselves never leave Spark.
func checksumSQL(query string) string {
	return "SELECT count(*) AS n, coalesce(sum(CAST(hash(*) AS BIGINT)), 0) AS h FROM (\n" +
		strings.TrimRight(strings.TrimSpace(query), ";") + "\n) AS bucketlint_q"
}

// shuffleExchanges lists the shuffle Exchanges of a physical plan, as oracle/engine_compat.py
// counts them (hash, range, single and round-robin partitioning), printed without
// expression and plan ids: BroadcastExchange and ReusedExchange move no rows between
// partitions and are other operators. With AQE on, EXPLAIN prints the initial plan, which is
// the one whose shuffles bucketing removes.
func shuffleExchanges(root plan.Node) []string {
	var out []string
	plan.WalkAll(root, func(n plan.Node) bool {
		x, ok := n.(*plan.Exchange)
		if !ok {
			return true
		}
		switch x.Partitioning.Kind {
		case plan.HashPartitioning, plan.RangePartitioning, plan.SinglePartition, plan.RoundRobinPartitioning:
			s := "Exchange " + plan.StripIDs(x.Partitioning.Raw)
			if x.Origin != "" {
				s += ", " + x.Origin
			}
			out = append(out, s)
		}
		return true
	})
	return out
}

func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

func quoteList(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quoteIdent(c)
	}
	return strings.Join(q, ", ")
}

// quoteTable quotes a table name part by part: db.t → `db`.`t`.
func quoteTable(name string) string {
	parts := strings.Split(name, ".")
	for i, p := range parts {
		parts[i] = quoteIdent(p)
	}
	return strings.Join(parts, ".")
}
