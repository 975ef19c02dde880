package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// lookup finds a table by the name a query, code or an explain scan uses (workload.Lookup).
func lookup(tables map[string]*plan.Table, name string) *plan.Table {
	return workload.Lookup(tables, name)
}

func sortedKeys(tables map[string]*plan.Table) []string {
	keys := make([]string, 0, len(tables))
	for k := range tables {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sortedTables returns the tables in name order.
func sortedTables(tables map[string]*plan.Table) []*plan.Table {
	out := make([]*plan.Table, 0, len(tables))
	for _, k := range sortedKeys(tables) {
		out = append(out, tables[k])
	}
	return out
}

// tableSpan is where a table's bucket spec was declared, else where the table was.
func tableSpan(t *plan.Table) plan.Span {
	if t.Buckets() != nil && t.Buckets().Span.Start.IsValid() {
		return t.Buckets().Span
	}
	if len(t.Sources) > 0 {
		return plan.Span{Start: t.Sources[0]}
	}
	return plan.Span{}
}

// bucketRelated points at a table's bucket spec: "b is bucketed into 8 buckets on (a) here".
func bucketRelated(t *plan.Table) []Related {
	s := tableSpan(t)
	if !s.Start.IsValid() {
		return nil
	}
	if t.Buckets() == nil {
		return []Related{{Span: s, Message: t.Name + " is declared here, not bucketed"}}
	}
	return []Related{{Span: s, Message: t.Name + " is " + specText(t.Buckets()) + " here"}}
}

// specText describes a bucket spec: "bucketed into 8 buckets on (a, b)".
func specText(b *plan.BucketSpec) string {
	n := fmt.Sprint(b.NumBuckets)
	if b.NumTemplate != "" {
		n = b.NumTemplate
	}
	return fmt.Sprintf("bucketed into %s buckets on (%s)", n, strings.Join(b.Columns, ", "))
}

// isBucketed reports whether Spark can read t as a bucketed table: a data-source table with
// a bucket spec (Hive-serde specs are ignored on read).
func isBucketed(t *plan.Table) bool { return simulate.BucketedTable(t) }

// writtenOnly reports whether every declaration of t is a write in code (df.write….saveAsTable,
// which parser.Load turns into a table): the write-level checks of BL102–BL104 and BL107 report
// on the write itself, so the table-level checks skip such a table and one write gives one
// finding.
func writtenOnly(p *plan.Project, t *plan.Table) bool {
	if len(t.Sources) == 0 {
		return false
	}
	writes := map[plan.Pos]bool{}
	for _, cf := range p.Code {
		for _, w := range cf.Writes {
			writes[w.Span.Start] = true
		}
	}
	for _, s := range t.Sources {
		if !writes[s] {
			return false
		}
	}
	return true
}
