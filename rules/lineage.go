package rules

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// maxLineage bounds how deep layoutSource follows CTEs, subqueries and joins.
const maxLineage = 8

// layoutSource follows a join input that is not a plain table — a CTE reference, a subquery,
// a join — to the table whose bucket layout its output keeps, as Spark's operators pass their
// child's partitioning up: a projection or filter keeps it, an aggregation or window keyed on
// (a superset of) the bucket columns keeps it, a join keeps the layout of a side bucketed on
// its keys. keys are the join keys on this input; they come back renamed to the table's
// columns through the select lists' aliases. via names what the input is ("CTE t", "a
// subquery") for messages, empty for a plain table. The table is nil when the input's layout
// is not a table's (a shuffle by other keys, a set operation, an unresolvable column).
func layoutSource(q *plan.Query, r *plan.Relation, keys []plan.ColumnRef, tables map[string]*plan.Table, depth int) (t *plan.Table, mapped []plan.ColumnRef, via string) {
	if r == nil || depth > maxLineage {
		return nil, nil, ""
	}
	switch r.Kind {
	case plan.TableRel:
		if !r.CTE {
			return lookup(tables, r.Table), keys, ""
		}
		for _, c := range q.CTEs {
			if strings.EqualFold(c.Name, r.Table) {
				t, mapped, _ := layoutSource(q, c.Root, keys, tables, depth+1)
				return t, mapped, "CTE " + c.Name
			}
		}
	case plan.SelectRel:
		sel := r.Select
		if sel == nil || len(sel.DistributeBy) > 0 {
			return nil, nil, ""
		}
		in, ok := throughItems(sel.Items, keys)
		if !ok {
			return nil, nil, ""
		}
		t, mapped, _ := layoutSource(q, sel.From, in, tables, depth+1)
		if !isBucketed(t) {
			return nil, nil, ""
		}
		if (sel.Aggregate || len(sel.GroupBy) > 0) && !coversColumns(sel.GroupBy, t.Bucket.Columns) {
			return nil, nil, ""
		}
		for _, w := range sel.Windows {
			if !coversColumns(w.PartitionBy, t.Bucket.Columns) {
				return nil, nil, ""
			}
		}
		via := "a subquery"
		switch {
		case r.View != "":
			via = "view " + r.View
		case r.Alias != "":
			via = "subquery " + r.Alias
		}
		return t, mapped, via
	case plan.JoinRel:
		j := r.Join
		var best *plan.Table
		var bestKeys []plan.ColumnRef
		for i, in := range []*plan.Relation{j.Left, j.Right} {
			jk := j.LeftKeys
			if i == 1 {
				jk = j.RightKeys
			}
			t, tk, _ := layoutSource(q, in, keys, tables, depth+1)
			bt, _, _ := layoutSource(q, in, jk, tables, depth+1)
			if !isBucketed(t) || t != bt || matchKeys(t.Bucket.Columns, jk) != exactKeys {
				continue
			}
			if best == nil || t.Bucket.NumBuckets > best.Bucket.NumBuckets {
				best, bestKeys = t, tk
			}
		}
		if best != nil {
			return best, bestKeys, "a join"
		}
	}
	return nil, nil, ""
}

// throughItems renames keys referring to a select list's output to the columns they come
// from: "account_id AS acct" turns a key acct into account_id. ok is false when a key is
// not a plain column passed through (an expression, an unknown name without "*").
func throughItems(items []string, keys []plan.ColumnRef) ([]plan.ColumnRef, bool) {
	star := false
	alias := map[string]string{}
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == "*" || strings.HasSuffix(it, ".*") {
			star = true
			continue
		}
		expr, as := splitItem(it)
		col := plainColumn(expr)
		name := strings.ToLower(as)
		if name == "" {
			name = col
		}
		if name != "" {
			alias[name] = col // "" when the name is an expression's
		}
	}
	out := make([]plan.ColumnRef, len(keys))
	for i, k := range keys {
		c := strings.ToLower(k.Column)
		src, named := alias[c]
		switch {
		case c == "":
			return nil, false
		case named && src == "":
			return nil, false
		case named:
			c = src
		case !star:
			return nil, false
		}
		out[i] = plan.ColumnRef{Text: c, Column: c, Cast: k.Cast, Pos: k.Pos}
	}
	return out, true
}

// splitItem splits "expr AS name" (or "expr name") into the expression and the alias.
func splitItem(it string) (expr, alias string) {
	low := strings.ToLower(it)
	if i := strings.LastIndex(low, " as "); i > 0 && !strings.ContainsAny(it[i+4:], "() ") {
		return strings.TrimSpace(it[:i]), strings.Trim(strings.TrimSpace(it[i+4:]), "`")
	}
	if f := strings.Fields(it); len(f) == 2 && plainColumn(f[0]) != "" && plainColumn(f[1]) != "" {
		return f[0], f[1]
	}
	return it, ""
}

// plainColumn returns the column name of "col" or "q.col", "" for anything else.
func plainColumn(expr string) string {
	e := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(expr), "`", ""))
	if e == "" {
		return ""
	}
	for _, c := range e {
		if c != '_' && c != '.' && (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return ""
		}
	}
	return e[strings.LastIndexByte(e, '.')+1:]
}

// coversColumns reports whether keys reference every one of cols (names, case-insensitive).
func coversColumns(keys []plan.ColumnRef, cols []string) bool {
	for _, c := range cols {
		if keyIndex(keys, c) < 0 {
			return false
		}
	}
	return len(cols) > 0
}
