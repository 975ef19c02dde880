package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// selectBlock resolves a SELECT block: its FROM tree first (subqueries, views, join keys),
// then every key and expression of the block in the scope of its FROM relations.
func (r *resolver) selectBlock(sel *plan.Select) {
	if sel.Pivot != nil {
		r.pivotBlock(sel)
		return
	}
	r.from(sel.From)
	sc := r.selectScope(sel)
	for _, g := range sel.Generators {
		r.tree(sc, g.X, nil)
	}
	names, known := selectNames(sel)
	for i := range sel.Filters {
		r.key(sc, &sel.Filters[i].Column)
	}
	eq := make([][2]*leaf, len(sel.Equalities))
	for i := range sel.Equalities {
		eq[i] = [2]*leaf{r.key(sc, &sel.Equalities[i].Left), r.key(sc, &sel.Equalities[i].Right)}
	}
	for i := range sel.GroupBy {
		// GROUP BY names the FROM relations' columns first, then select-list names
		// (spark.sql.groupByAliases).
		r.keyOrName(sc, sel, &sel.GroupBy[i], names, known, false)
	}
	for i := range sel.Windows {
		w := &sel.Windows[i]
		for j := range w.PartitionBy {
			r.key(sc, &w.PartitionBy[j])
		}
		for j := range w.OrderBy {
			r.key(sc, &w.OrderBy[j])
		}
		for _, x := range w.ArgsX {
			r.tree(sc, x, nil)
		}
	}
	for _, h := range sel.Hints {
		// REPARTITION(8, c) and the like apply to the block's output.
		for _, x := range h.ArgsX {
			r.tree(sc, x, names)
		}
	}
	// DISTRIBUTE BY, SORT BY and ORDER BY apply to the select list's output: its names
	// first, then the FROM relations' columns.
	for _, ks := range [][]plan.ColumnRef{sel.DistributeBy, sel.SortBy, sel.OrderBy} {
		for i := range ks {
			r.keyOrName(sc, sel, &ks[i], names, known, true)
		}
	}
	for i, x := range sel.ItemsX {
		// An item may name an earlier item's alias (lateral column alias, 3.4+).
		r.tree(sc, x, names[:min(i, len(names))])
	}
	r.tree(sc, sel.WhereX, nil)
	r.tree(sc, sel.HavingX, names)
	r.commaKeys(sel.From, sel.Equalities, eq)
}

// selectNames returns the names of the select list's items ("" for a star or an unnamed
// expression); known is false when the items were not parsed into trees.
func selectNames(sel *plan.Select) (names []string, known bool) {
	if len(sel.ItemsX) != len(sel.Items) {
		return nil, false
	}
	names = make([]string, len(sel.Items))
	for i := range sel.Items {
		names[i] = itemName(sel, i)
	}
	return names, true
}

// keyOrName resolves a key that may also be a select-list name: first (when namesFirst) or
// failing the FROM relations' columns. A select-list name has no relation unless the item
// is the column of that name; when the select list is not known, a name that does not
// resolve may be one of it and is not reported.
func (r *resolver) keyOrName(sc *scope, sel *plan.Select, k *plan.ColumnRef, names []string, known, namesFirst bool) {
	k.Relation, k.Table = "", ""
	if !k.IsColumn() {
		r.tree(sc, k.X, names)
		return
	}
	item := -1
	if k.Qualifier == "" {
		item = index(names, strings.ToLower(k.Column))
	}
	if namesFirst && item >= 0 {
		r.throughItem(sc, sel, k, item)
		return
	}
	p := sc.lookup(k.Qualifier, k.Column)
	switch {
	case p.ok:
		r.placeKey(k, p)
	case item >= 0:
		r.throughItem(sc, sel, k, item)
	case !known && k.Qualifier == "":
		// Perhaps a select-list name: the list is not known.
	default:
		r.placeKey(k, p)
	}
}

// throughItem places a key naming select item i at the column the item is, when the item
// is that column under its own name; a key naming an alias stays a name of the select list.
func (r *resolver) throughItem(sc *scope, sel *plan.Select, k *plan.ColumnRef, i int) {
	x := sel.ItemsX[i]
	if x == nil || x.Op != plan.OpColumn || !strings.EqualFold(x.Name, k.Column) || itemName(sel, i) != strings.ToLower(x.Name) {
		return
	}
	p := sc.lookup(x.Qualifier, x.Name)
	if p.leaf != nil {
		k.Relation, k.Table = p.leaf.name(), p.leaf.table()
	}
}

func index(list []string, s string) int {
	for i, x := range list {
		if x != "" && x == s {
			return i
		}
	}
	return -1
}

// from resolves a FROM tree: each relation, then each join's keys.
func (r *resolver) from(rel *plan.Relation) {
	if rel == nil {
		return
	}
	if rel.Kind != plan.JoinRel || rel.Join == nil {
		r.relation(rel)
		return
	}
	r.from(rel.Join.Left)
	r.from(rel.Join.Right)
	r.joinKeys(rel)
}

// commaKeys makes the WHERE equalities between the two sides of each comma join its keys,
// oriented to the sides, as Spark's optimizer turns a filter over a cross product into an
// inner equi-join. eq are the leaves each equality's columns resolved to.
func (r *resolver) commaKeys(rel *plan.Relation, pairs []plan.ColumnPair, eq [][2]*leaf) {
	if rel == nil || rel.Kind != plan.JoinRel || rel.Alias != "" || rel.Join == nil {
		return
	}
	j := rel.Join
	r.commaKeys(j.Left, pairs, eq)
	r.commaKeys(j.Right, pairs, eq)
	if !j.Comma {
		return
	}
	left, right := relations(j.Left), relations(j.Right)
	j.LeftKeys, j.RightKeys = nil, nil
	for i, p := range pairs {
		l, rt := eq[i][0], eq[i][1]
		if l == nil || rt == nil {
			continue
		}
		switch {
		case left[l.rel] && right[rt.rel]:
			j.LeftKeys, j.RightKeys = append(j.LeftKeys, p.Left), append(j.RightKeys, p.Right)
		case left[rt.rel] && right[l.rel]:
			j.LeftKeys, j.RightKeys = append(j.LeftKeys, p.Right), append(j.RightKeys, p.Left)
		}
	}
}

// relations returns the relations a FROM tree brings into scope, as a set.
func relations(rel *plan.Relation) map[*plan.Relation]bool {
	out := map[*plan.Relation]bool{}
	var walk func(*plan.Relation)
	walk = func(r *plan.Relation) {
		switch {
		case r == nil:
		case r.Kind == plan.JoinRel && r.Alias == "" && r.Join != nil:
			walk(r.Join.Left)
			walk(r.Join.Right)
		default:
			out[r] = true
		}
	}
	walk(rel)
	return out
}
