package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A placement is where a column name resolved: a leaf, or no one relation (a full outer
// USING join's merged column, a select-list alias, a field of a struct column) when ok is
// set without a leaf.
type placement struct {
	leaf *leaf
	ok   bool
	// reason and rels say why the name did not resolve.
	reason Reason
	rels   []string
}

// lookup resolves a column name as written, qualified or not.
func (sc *scope) lookup(qual, name string) placement {
	qual, name = strings.ToLower(qual), strings.ToLower(name)
	if qual == "" {
		return sc.unqualified(name)
	}
	var cands []*leaf
	for _, lf := range sc.leaves {
		if lf.named(qual) {
			cands = append(cands, lf)
		}
	}
	switch {
	case len(cands) > 1:
		return placement{reason: AmbiguousColumn, rels: leafNames(cands)}
	case len(cands) == 1:
		lf := cands[0]
		if lf.cols.has(name) || lf.cols.mayHave(name) {
			return placement{leaf: lf, ok: true}
		}
		return placement{reason: UnknownColumn, rels: []string{lf.name()}}
	}
	// No relation is named so: "s.f" may be field f of a struct column s, "t.s.f" field f of
	// column s of t.
	first, rest, dotted := strings.Cut(qual, ".")
	switch {
	case !dotted && sc.unqualified(qual).ok:
		return placement{ok: true}
	case dotted && !strings.Contains(rest, ".") && sc.lookup(first, rest).leaf != nil:
		return placement{ok: true}
	}
	return placement{reason: UnknownColumn}
}

// unqualified resolves a column name without a qualifier: the one relation in scope that has
// it. With a single relation in scope, a name its known columns lack is unknown, and any
// name of a relation whose columns are not known is its.
func (sc *scope) unqualified(name string) placement {
	var has, maybe []*leaf
	for _, lf := range sc.leaves {
		switch {
		case sc.hidden[lf][name]:
		case lf.cols.has(name) || sc.using[lf][name]:
			has = append(has, lf)
		case lf.cols.mayHave(name):
			maybe = append(maybe, lf)
		}
	}
	n := len(has)
	if sc.coalesced[name] {
		n++
	}
	switch {
	case n > 1:
		rels := leafNames(has)
		if sc.coalesced[name] {
			rels = append([]string{"the USING join"}, rels...)
		}
		return placement{reason: AmbiguousColumn, rels: rels}
	case n == 1 && len(maybe) == 0 && len(has) == 1:
		return placement{leaf: has[0], ok: true}
	case n == 1 && len(maybe) == 0:
		return placement{ok: true}
	case n == 0 && len(maybe) == 1 && len(sc.leaves) == 1:
		return placement{leaf: maybe[0], ok: true}
	case len(maybe) > 0:
		return placement{reason: UnknownSchema, rels: leafNames(maybe)}
	}
	return placement{reason: UnknownColumn}
}

func leafNames(leaves []*leaf) []string {
	out := make([]string, len(leaves))
	for i, lf := range leaves {
		out[i] = lf.name()
	}
	return out
}

// key resolves a key in scope: its relation and table are set when its column resolves to
// a relation, cleared otherwise, and a name that does not resolve is reported. The columns
// of an expression key's tree are resolved too. It returns the leaf, nil when none.
func (r *resolver) key(sc *scope, k *plan.ColumnRef) *leaf {
	k.Relation, k.Table = "", ""
	if !k.IsColumn() {
		r.tree(sc, k.X, nil)
		return nil
	}
	p := sc.lookup(k.Qualifier, k.Column)
	return r.placeKey(k, p)
}

// placeKey sets a key's relation from a placement, or reports it.
func (r *resolver) placeKey(k *plan.ColumnRef, p placement) *leaf {
	col := keyColumn(k)
	if !p.ok {
		r.report(Unresolved{Name: refName(k.Qualifier, k.Column), Span: refSpan(k, col), Reason: p.reason, Relations: p.rels})
		return nil
	}
	if p.leaf != nil {
		k.Relation, k.Table = p.leaf.name(), p.leaf.table()
	}
	if col != nil {
		col.Relation, col.Table = k.Relation, k.Table
	}
	return p.leaf
}

// keyColumn returns the column node of a key's tree, nil when it has none.
func keyColumn(k *plan.ColumnRef) *plan.X {
	if u := k.X.Uncast(); u != nil && u.Op == plan.OpColumn {
		return u
	}
	return nil
}

// refSpan is where a key's column is written: its tree's column, else the key's position.
func refSpan(k *plan.ColumnRef, col *plan.X) plan.Span {
	if col != nil && col.Span.Start.IsValid() {
		return col.Span
	}
	return plan.Span{Start: k.Pos, End: k.Pos}
}

func refName(qual, name string) string {
	if qual == "" {
		return strings.ToLower(name)
	}
	return strings.ToLower(qual + "." + name)
}

// tree resolves the columns of an expression tree in scope. Names that do not resolve in
// scope may be select-list names (names, for HAVING, ORDER BY and a later select item); the
// columns of a subquery inside the tree belong to its own scope and are left alone.
func (r *resolver) tree(sc *scope, x *plan.X, names []string) {
	x.Walk(func(n *plan.X) bool {
		switch {
		case n.Op == plan.OpOther && (n.Name == "subquery" || n.Name == "exists"):
			return false
		case n.Op != plan.OpColumn:
			return true
		}
		n.Relation, n.Table = "", ""
		p := sc.lookup(n.Qualifier, n.Name)
		switch {
		case p.leaf != nil:
			n.Relation, n.Table = p.leaf.name(), p.leaf.table()
		case !p.ok && (n.Qualifier != "" || !contains(names, strings.ToLower(n.Name))):
			r.report(Unresolved{Name: refName(n.Qualifier, n.Name), Span: n.Span, Reason: p.reason, Relations: p.rels})
		}
		return true
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
