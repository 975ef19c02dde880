package rules

import (
	"strings"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/workload"
)

// adviseCount returns the bucket count to give table in a join: the other side's count when
// the other side is bucketed on the join keys (so that only this table changes), else the
// count advise.Advise recommends for the join alone (when the table's size is known), else
// the table's own count.
func (p *Pass) adviseCount(s *workload.Site, side, other *workload.Side) int {
	if other.Match() == exactKeys && other.Table.Buckets().NumBuckets > 0 {
		return other.Table.Buckets().NumBuckets
	}
	if cur := side.Table.Buckets(); side.Table.SizeInBytes <= 0 && cur != nil && cur.NumBuckets > 0 {
		// The table's size is unknown: no count can be sized for it, so it keeps its own.
		return cur.NumBuckets
	}
	if s.Left.Table != nil && s.Right.Table != nil {
		q := s.Query
		if q == nil {
			q = s.JoinQuery()
		}
		recs := p.advise(q, s.Span.Start)
		for _, r := range recs {
			if r.Table == side.Table.Name && r.Bucket != nil && r.Bucket.NumBuckets > 0 {
				return r.Bucket.NumBuckets
			}
		}
	}
	if side.Table != nil && side.Table.Buckets() != nil && side.Table.Buckets().NumBuckets > 0 {
		return side.Table.Buckets().NumBuckets
	}
	return 0
}

// advise runs the advisor on one query, in its session, from the workload's one default of
// the advisor's options.
func (p *Pass) advise(q *plan.Query, pos plan.Pos) []advise.Recommendation {
	if p.Workload == nil {
		return nil
	}
	return advise.One(p.Workload, q, pos)
}

// withLayout appends to a fix description the code that rewrites table bucketed by cols
// into n buckets, in the language of the join's file (SQL for SQL and explain inputs).
// Partition columns are never bucket columns (Spark rejects that, BL102): they are left out,
// and no code is added when nothing else remains.
func (p *Pass) withLayout(desc string, s *workload.Site, t *plan.Table, cols []string, n int) string {
	if t != nil {
		cols, _ = withoutPartitionColumns(t, cols)
	}
	if t == nil || len(cols) == 0 || n <= 0 {
		return desc
	}
	return desc + ":\n" + layoutCode(p.layoutLanguage(s, t), t, cols, n)
}

// layoutLanguage is the language a layout change of t is written in: that of the place that
// makes t — a dbt model's config, the code whose saveAsTable writes it (Python, Scala, Java) —
// else that of the join's file (SQL for SQL and explain inputs).
func (p *Pass) layoutLanguage(s *workload.Site, t *plan.Table) string {
	if t.DBTModel {
		return "dbt"
	}
	for _, src := range t.Sources {
		switch l := p.languageAt(src); l {
		case "python", "scala", "java":
			return l
		}
	}
	return p.languageAt(s.Span.Start)
}

// layoutCode is a table rewritten with a bucket spec in a language ("python", "scala", "java",
// "dbt", SQL otherwise): the advisor's code (advise.LayoutCode), so that a fix and `bucketlint
// advise` print the same thing.
func layoutCode(lang string, t *plan.Table, cols []string, n int) string {
	c := advise.LayoutCode(t, &plan.BucketSpec{NumBuckets: n, Columns: cols}, nil)
	switch lang {
	case "python":
		return strings.TrimSuffix(c.PySpark, "\n")
	case "scala":
		return strings.TrimSuffix(c.Scala, "\n")
	case "java":
		return strings.TrimSuffix(c.Java, "\n")
	case "dbt":
		return strings.TrimSuffix(c.DBT, "\n")
	}
	return strings.TrimSuffix(c.SQL, "\n")
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
