package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// querySQL writes a query built from code (codeQueries) as the Spark SQL that plans the same:
// its text, for the reports and for running it on Spark.
func querySQL(q *plan.Query) string {
	if q.Root == nil || q.Root.Select == nil {
		return ""
	}
	return selectSQL(q.Root.Select)
}

// selectSQL writes a SELECT block of a query built from code.
func selectSQL(sel *plan.Select) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	b.WriteString(strings.Join(sel.Items, ", "))
	if sel.From != nil {
		b.WriteString(" FROM ")
		b.WriteString(relationSQL(sel.From))
	}
	if len(sel.GroupBy) > 0 {
		b.WriteString(" GROUP BY ")
		b.WriteString(keysSQL(sel.GroupBy))
	}
	return b.String()
}

// relationSQL writes a relation of a query built from code.
func relationSQL(r *plan.Relation) string {
	switch r.Kind {
	case plan.TableRel:
		if r.Alias != "" && r.Alias != r.Table {
			return r.Table + " " + r.Alias
		}
		return r.Table
	case plan.SelectRel:
		if r.Select == nil {
			return ""
		}
		return "(" + selectSQL(r.Select) + ") " + r.Alias
	case plan.JoinRel:
		j := r.Join
		s := relationSQL(j.Left) + " " + joinWord(j.Type) + " " + relationSQL(j.Right)
		if len(j.Using) > 0 {
			return s + " USING (" + strings.Join(j.Using, ", ") + ")"
		}
		var on []string
		for i := range min(len(j.LeftKeys), len(j.RightKeys)) {
			on = append(on, j.LeftKeys[i].Text+" = "+j.RightKeys[i].Text)
		}
		if len(on) > 0 {
			s += " ON " + strings.Join(on, " AND ")
		}
		return s
	}
	return r.Text
}

// keysSQL lists keys as written.
func keysSQL(keys []plan.ColumnRef) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.Text
	}
	return strings.Join(parts, ", ")
}

// joinWord is the SQL of a join type.
func joinWord(typ string) string {
	switch typ {
	case "LeftOuter":
		return "LEFT JOIN"
	case "RightOuter":
		return "RIGHT JOIN"
	case "FullOuter":
		return "FULL JOIN"
	case "LeftSemi":
		return "LEFT SEMI JOIN"
	case "LeftAnti":
		return "LEFT ANTI JOIN"
	case "Cross":
		return "CROSS JOIN"
	}
	return "JOIN"
}
