package workload

import (
	"slices"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// columns are a relation's output columns as names resolve against them.
type columns struct {
	// names are lower case, in order; "" stands for an expression without a name.
	names []string
	// known is set when names are all of the relation's columns; unnamed when some are
	// expressions without an alias, whose names Spark makes up from their text.
	known, unnamed bool
}

// has reports whether name is one of the columns.
func (c columns) has(name string) bool {
	for _, n := range c.names {
		if n != "" && n == name {
			return true
		}
	}
	return false
}

// mayHave reports whether the relation may have a column the names do not list: its columns
// are not known, or name is not a plain identifier and could be a made-up expression name.
func (c columns) mayHave(name string) bool {
	return !c.known || c.unnamed && !plainName(name)
}

// renamed applies a column list ("AS x (a, b)", "WITH c (a, b)") to the columns.
func (c columns) renamed(aliases []string) columns {
	if len(aliases) == 0 {
		return c
	}
	if !c.known || len(aliases) != len(c.names) {
		return columns{}
	}
	return columns{names: lower(aliases), known: true}
}

func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}

func lower(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ToLower(n)
	}
	return out
}

// output returns the columns of a relation.
func (r *resolver) output(rel *plan.Relation) columns {
	if rel == nil || r.depth > maxDepth {
		return columns{}
	}
	r.depth++
	defer func() { r.depth-- }()
	var c columns
	switch rel.Kind {
	case plan.TableRel:
		c = r.tableOutput(rel)
	case plan.SelectRel:
		c = r.selectOutput(rel.Select)
	case plan.SetRel:
		if len(rel.Inputs) > 0 {
			c = r.output(rel.Inputs[0])
		}
	case plan.JoinRel:
		c = r.newScope(rel, false).star("")
	}
	return c.renamed(rel.ColumnAliases)
}

// tableOutput returns the columns of a scan: of a CTE, a view not yet replaced by its query,
// or a table whose columns the catalogue knows.
func (r *resolver) tableOutput(rel *plan.Relation) columns {
	if rel.CTE {
		cte := r.cte(rel.Table)
		key := "cte " + rel.Table
		if cte == nil || r.expanding[key] {
			return columns{}
		}
		r.expanding[key] = true
		defer delete(r.expanding, key)
		return r.output(cte.Root).renamed(cte.Columns)
	}
	if v := r.cat.View(rel.Table); v != nil {
		key := "view " + rel.Table
		if r.expanding[key] {
			return columns{}
		}
		r.expanding[key] = true
		defer delete(r.expanding, key)
		return r.output(v.Root)
	}
	if c, ok := r.tables[rel.Table]; ok {
		return c
	}
	t := r.cat.Table(rel.Table)
	if t == nil || len(t.Columns) == 0 {
		return columns{}
	}
	out := columns{known: true}
	for _, c := range t.Columns {
		out.names = append(out.names, strings.ToLower(c.Name))
	}
	out.names = slices.Clip(out.names) // shared: an append must copy
	if r.tables == nil {
		r.tables = map[string]columns{}
	}
	r.tables[rel.Table] = out
	return out
}

// selectOutput returns the columns of a SELECT block: its items' names, stars expanded.
func (r *resolver) selectOutput(sel *plan.Select) columns {
	if sel != nil && sel.Pivot != nil {
		return r.pivotOutput(sel)
	}
	if sel == nil || len(sel.Items) == 0 || len(sel.ItemsX) != len(sel.Items) {
		return columns{}
	}
	var sc *scope
	out := columns{known: true}
	for i, x := range sel.ItemsX {
		name := itemName(sel, i)
		switch {
		case x != nil && x.Op == plan.OpStar:
			if sc == nil {
				sc = r.selectScope(sel)
			}
			s := sc.star(x.Qualifier)
			out.names = append(out.names, s.names...)
			out.known = out.known && s.known
			out.unnamed = out.unnamed || s.unnamed
		case name == "":
			out.names = append(out.names, "")
			out.unnamed = true
		default:
			out.names = append(out.names, name)
		}
	}
	return out
}

// itemName returns the name of select item i: its alias, else its column's name when it is
// a column; "" for a star or an expression without an alias.
func itemName(sel *plan.Select, i int) string {
	if i < len(sel.ItemAliases) && sel.ItemAliases[i] != "" {
		return strings.ToLower(sel.ItemAliases[i])
	}
	if i < len(sel.ItemsX) && sel.ItemsX[i] != nil && sel.ItemsX[i].Op == plan.OpColumn {
		return strings.ToLower(sel.ItemsX[i].Name)
	}
	return ""
}

// cte returns the CTE of the query named name.
func (r *resolver) cte(name string) *plan.CTE {
	for _, c := range r.q.CTEs {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// A leaf is one relation in scope: a table, CTE or view scan, a subquery, a set operation.
type leaf struct {
	rel  *plan.Relation
	cols columns
}

// name is what the leaf's columns are qualified by.
func (l *leaf) name() string { return l.rel.Name() }

// table is the leaf's table when it is a table scan, else "".
func (l *leaf) table() string {
	if l.rel.Kind == plan.TableRel && !l.rel.CTE {
		return l.rel.Table
	}
	return ""
}

// named reports whether a qualifier names the leaf: its alias (a view read without one is
// also named by its qualified name), or for a table scan without an alias its table's name
// or last part.
func (l *leaf) named(q string) bool {
	q = strings.TrimPrefix(q, "spark_catalog.")
	if a := l.rel.Alias; a != "" {
		v := l.rel.View
		return a == q || v != "" && a == column(v) && (v == q || strings.HasSuffix(v, "."+q))
	}
	if l.rel.Kind != plan.TableRel {
		return false
	}
	return l.rel.Name() == q || l.rel.Table == q || strings.HasSuffix(l.rel.Table, "."+q)
}

// A scope is the relations a SELECT block's expressions, or a join's ON condition, can name.
type scope struct {
	leaves []*leaf
	// hidden are the columns of a leaf that a USING or NATURAL join merged into another
	// leaf's column, which unqualified names no longer reach.
	hidden map[*leaf]map[string]bool
	// coalesced are the merged columns of full outer USING joins, which belong to no one
	// relation.
	coalesced map[string]bool
	// using are the columns a USING join names on a leaf whose columns are not known: the
	// join needs them on its side, so the leaf has them.
	using map[*leaf]map[string]bool
}

// newScope collects the relations a FROM tree brings into scope. For a join's ON condition
// (on set) the right side of a semi or anti join is in scope too; above the join it is not.
func (r *resolver) newScope(from *plan.Relation, on bool) *scope {
	sc := &scope{hidden: map[*leaf]map[string]bool{}, coalesced: map[string]bool{}, using: map[*leaf]map[string]bool{}}
	sc.add(r, from, true, on)
	return sc
}

// add adds the leaves of rel, visible or not, and returns them.
func (sc *scope) add(r *resolver, rel *plan.Relation, visible, on bool) []*leaf {
	if rel == nil {
		return nil
	}
	if rel.Kind != plan.JoinRel || rel.Alias != "" || rel.Join == nil {
		lf := &leaf{rel: rel, cols: r.output(rel)}
		if visible {
			sc.leaves = append(sc.leaves, lf)
		}
		return []*leaf{lf}
	}
	j := rel.Join
	left := sc.add(r, j.Left, visible, false)
	semi := j.Type == "LeftSemi" || j.Type == "LeftAnti"
	right := sc.add(r, j.Right, visible && (on || !semi), false)
	sc.merge(r, j, left, right)
	return append(left, right...)
}

// merge records the columns a USING or NATURAL join merges: the right side's for inner,
// left outer, semi and anti joins, the left side's for right outer joins, both (coalesced)
// for full outer joins.
func (sc *scope) merge(r *resolver, j *plan.JoinSpec, left, right []*leaf) {
	for _, c := range r.usingColumns(j, left, right) {
		lf, rf := sc.usingSide(left, c, j.Natural), sc.usingSide(right, c, j.Natural)
		if lf == nil || rf == nil {
			continue
		}
		switch j.Type {
		case "RightOuter":
			sc.hide(lf, c)
		case "FullOuter":
			sc.hide(lf, c)
			sc.hide(rf, c)
			sc.coalesced[c] = true
		default:
			sc.hide(rf, c)
		}
	}
}

func (sc *scope) hide(lf *leaf, c string) {
	if sc.hidden[lf] == nil {
		sc.hidden[lf] = map[string]bool{}
	}
	sc.hidden[lf][c] = true
}

// usingSide returns the leaf of one side of a USING join that has column c: the one whose
// known columns have it, else the side's one leaf whose columns are not known (the join
// needs the column there), which is then known to have it. nil when none or several can.
func (sc *scope) usingSide(leaves []*leaf, c string, natural bool) *leaf {
	if lf := providing(leaves, c); lf != nil || natural {
		return lf
	}
	var found *leaf
	for _, lf := range leaves {
		if lf.cols.mayHave(c) {
			if found != nil {
				return nil
			}
			found = lf
		}
	}
	if found != nil {
		if sc.using[found] == nil {
			sc.using[found] = map[string]bool{}
		}
		sc.using[found][c] = true
	}
	return found
}

// providing returns the one leaf that has column c, nil when none or several do.
func providing(leaves []*leaf, c string) *leaf {
	var found *leaf
	for _, lf := range leaves {
		if lf.cols.has(c) {
			if found != nil {
				return nil
			}
			found = lf
		}
	}
	return found
}

// usingColumns returns the columns a USING join names, or the columns a NATURAL join's
// sides have in common (none when a side's columns are not known).
func (r *resolver) usingColumns(j *plan.JoinSpec, left, right []*leaf) []string {
	if !j.Natural {
		return lower(j.Using)
	}
	var out []string
	for _, lf := range left {
		if !lf.cols.known {
			return nil
		}
		for _, n := range lf.cols.names {
			if n != "" && providing(right, n) != nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// star returns the columns "*" (q empty) or "q.*" expands to.
func (sc *scope) star(q string) columns {
	out := columns{known: true}
	for c := range sc.coalesced {
		if q == "" {
			out.names = append(out.names, c)
		}
	}
	for _, lf := range sc.leaves {
		if q != "" && !lf.named(q) {
			continue
		}
		for _, n := range lf.cols.names {
			if q == "" && sc.hidden[lf][n] {
				continue
			}
			out.names = append(out.names, n)
		}
		out.known = out.known && lf.cols.known
		out.unnamed = out.unnamed || lf.cols.unnamed
	}
	return out
}
