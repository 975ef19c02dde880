package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// adviseCount returns the bucket count to give table in a join: the other side's count when
// the other side is bucketed on the join keys (so that only this table changes), else the
// count simulate.Advise recommends for the join alone (when the table's size is known), else
// the table's own count.
func (p *Pass) adviseCount(s *joinSite, side, other *joinSide) int {
	if sideMatch(other) == exactKeys && other.Table.Bucket.NumBuckets > 0 {
		return other.Table.Bucket.NumBuckets
	}
	if cur := side.Table.Bucket; side.Table.SizeInBytes <= 0 && cur != nil && cur.NumBuckets > 0 {
		// The table's size is unknown: no count can be sized for it, so it keeps its own.
		return cur.NumBuckets
	}
	if s.Left.Table != nil && s.Right.Table != nil {
		q := s.Query
		if q == nil {
			q = joinQuery(s)
		}
		recs := simulate.Advise(catalog(p.Project), []simulate.WeightedQuery{{Query: q, Weight: 1}}, simulate.AdviseOptions{
			Options:           p.OptionsAt(s.Span.Start),
			TargetBucketBytes: p.Thresholds.TargetBucketBytes,
			ClusterCores:      p.Thresholds.ClusterCores,
			PowerOfTwo:        true,
			MaxBuckets:        p.maxBuckets(s.Span.Start),
		})
		for _, r := range recs {
			if r.Table == side.Table.Name && r.Bucket != nil && r.Bucket.NumBuckets > 0 {
				return r.Bucket.NumBuckets
			}
		}
	}
	if side.Table != nil && side.Table.Bucket != nil && side.Table.Bucket.NumBuckets > 0 {
		return side.Table.Bucket.NumBuckets
	}
	return 0
}

// withLayout appends to a fix description the code that rewrites table bucketed by cols
// into n buckets, in the language of the join's file (SQL for SQL and explain inputs).
// Partition columns are never bucket columns (Spark rejects that, BL102): they are left out,
// and no code is added when nothing else remains.
func (p *Pass) withLayout(desc string, s *joinSite, t *plan.Table, cols []string, n int) string {
	if t != nil {
		cols, _ = withoutPartitionColumns(t, cols)
	}
	if t == nil || len(cols) == 0 || n <= 0 {
		return desc
	}
	return desc + ":\n" + layoutCode(p.languageAt(s.Span.Start), t, cols, n)
}

// layoutCode is a table rewritten with a bucket spec: the rows of the current table (renamed
// <table>_old) repartitioned by the bucket columns into the count, as the advisor prints it.
func layoutCode(lang string, t *plan.Table, cols []string, n int) string {
	format := strings.ToLower(t.Format)
	if format == "" || format == "hive" || format == "delta" {
		format = "parquet"
	}
	switch lang {
	case "python":
		return fmt.Sprintf("(spark.table(%q)\n    .repartition(%d, %s)\n    .write.format(%q)%s\n    .bucketBy(%d, %s)\n    .saveAsTable(%q))",
			t.Name+"_old", n, columnArgs("python", cols, false), format, partitionByCall(t, "\n    "), n, columnArgs("python", cols, false), t.Name)
	case "scala":
		return fmt.Sprintf("spark.table(%q)\n  .repartition(%d, %s)\n  .write.format(%q)%s\n  .bucketBy(%d, %s)\n  .saveAsTable(%q)",
			t.Name+"_old", n, columnArgs("scala", cols, true), format, partitionByCall(t, "\n  "), n, columnArgs("python", cols, false), t.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s", t.Name)
	// Columns keep their comments; with comments, one column a line.
	commented := slices.ContainsFunc(t.Columns, func(c plan.Column) bool { return c.Comment != "" })
	if len(t.Columns) > 0 {
		b.WriteString(" (")
		for i, c := range t.Columns {
			switch {
			case commented && i == 0:
				b.WriteString("\n  ")
			case commented:
				b.WriteString(",\n  ")
			case i > 0:
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %s", c.Name, strings.ToUpper(c.Type))
			if c.Comment != "" {
				fmt.Fprintf(&b, " COMMENT '%s'", strings.ReplaceAll(c.Comment, "'", "\\'"))
			}
		}
		if commented {
			b.WriteString("\n")
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, "\nUSING %s", format)
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(&b, "\nPARTITIONED BY (%s)", strings.Join(t.PartitionColumns, ", "))
	}
	fmt.Fprintf(&b, "\nCLUSTERED BY (%s) INTO %d BUCKETS;\nINSERT INTO %s SELECT /*+ REPARTITION(%d, %s) */ * FROM %s_old;",
		strings.Join(cols, ", "), n, t.Name, n, strings.Join(cols, ", "), t.Name)
	return b.String()
}

// languageAt returns the language of the code file holding pos, "" when it is not code.
func (p *Pass) languageAt(pos plan.Pos) string {
	for _, cf := range p.Project.Code {
		if cf.File == pos.File {
			return cf.Language
		}
	}
	return ""
}

// joinQuery builds the SQL join equivalent to a join site between two known tables, for the
// simulator and the advisor.
func joinQuery(s *joinSite) *plan.Query {
	typ := s.Type
	if typ == "" {
		typ = "Inner"
	}
	return &plan.Query{Span: s.Span, Root: &plan.Relation{Kind: plan.SelectRel, Select: &plan.Select{
		Items: []string{"*"},
		From: &plan.Relation{Kind: plan.JoinRel, Join: &plan.JoinSpec{
			Type:      typ,
			Left:      &plan.Relation{Kind: plan.TableRel, Table: s.Left.Table.Name, Alias: "l"},
			Right:     &plan.Relation{Kind: plan.TableRel, Table: s.Right.Table.Name, Alias: "r"},
			LeftKeys:  qualify(s.Left.Keys, "l", s.Left.Table.Name),
			RightKeys: qualify(s.Right.Keys, "r", s.Right.Table.Name),
		}},
	}}}
}

// keyCols returns the column names of keys that are columns.
func keyCols(keys []plan.ColumnRef) []string {
	var out []string
	for _, k := range keys {
		if k.Column != "" && !contains(out, k.Column) {
			out = append(out, k.Column)
		}
	}
	return out
}

// partitionByCall is the .partitionBy(…) call that keeps a partitioned table's partitioning in
// rewritten code, on its own line after indent; empty for a table without partitions.
func partitionByCall(t *plan.Table, indent string) string {
	if len(t.PartitionColumns) == 0 {
		return ""
	}
	return indent + ".partitionBy(" + columnArgs("python", t.PartitionColumns, false) + ")"
}
