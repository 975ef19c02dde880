package sql

import (
	"github.com/bucketlint/bucketlint/plan"
)

// A scope is the relations a SELECT block's expressions can name: the leaves of its FROM
// tree (tables, CTE scans, aliased subqueries).
type scope struct {
	rels []*plan.Relation
}

func newScope(r *plan.Relation) *scope {
	sc := &scope{}
	sc.add(r)
	return sc
}

func (sc *scope) add(r *plan.Relation) {
	if r == nil {
		return
	}
	if r.Kind == plan.JoinRel && r.Alias == "" {
		sc.add(r.Join.Left)
		sc.add(r.Join.Right)
		return
	}
	sc.rels = append(sc.rels, r)
}

// lookup finds the relation a qualifier names: an alias, a table's last name part, or its
// full name. An empty qualifier names the only relation in scope, if there is one.
func (sc *scope) lookup(qual string) *plan.Relation {
	if qual == "" {
		if len(sc.rels) == 1 {
			return sc.rels[0]
		}
		return nil
	}
	for _, r := range sc.rels {
		if r.Alias == qual {
			return r
		}
	}
	for _, r := range sc.rels {
		if r.Alias == "" && (r.Name() == qual || r.Table == qual) {
			return r
		}
	}
	return nil
}

// has reports whether the key's column belongs to a relation of the scope.
func (sc *scope) has(k plan.ColumnRef) bool {
	if k.Relation == "" {
		return false
	}
	for _, r := range sc.rels {
		if r.Name() == k.Relation {
			return true
		}
	}
	return false
}

// key converts an expression used as a key.
func (b *queryBuilder) key(e *expr, sc *scope) plan.ColumnRef {
	if a := single(e); a != nil {
		return b.arithKey(a, sc)
	}
	return plan.ColumnRef{Text: text(b.c, e.Pos, e.EndPos), Pos: b.st.at(b.c, e.Pos), X: b.t.expr(e)}
}

// single returns the only operand of an expression that is no more than one operand.
func single(e *expr) *arith {
	if e == nil || len(e.Or) != 1 || len(e.Or[0].And) != 1 {
		return nil
	}
	n := e.Or[0].And[0]
	if n.Not || n.RHS != nil {
		return nil
	}
	return n.Left
}

// arithKey converts an operand used as a key: a column, a cast column (CAST(c AS t),
// TRY_CAST, c::t) or a parenthesised one; anything else keeps its text only.
func (b *queryBuilder) arithKey(a *arith, sc *scope) plan.ColumnRef {
	k := plan.ColumnRef{Text: text(b.c, a.Pos, a.EndPos), Pos: b.st.at(b.c, a.Pos), X: b.t.arith(a)}
	if len(a.Rest) != 0 || len(a.Left.Sign) != 0 {
		return k
	}
	u := a.Left
	cast := ""
	for _, p := range u.Postfix {
		if p.Cast == nil {
			return k
		}
		cast = plan.CanonicalType(p.Cast.render())
	}
	var inner plan.ColumnRef
	switch p := u.Primary; {
	case p.Column != nil && !p.AllCols:
		inner = b.column(p.Column.parts(), sc)
	case p.Cast != nil:
		inner = b.key(p.Cast.X, sc)
		if inner.Cast == "" {
			inner.Cast = plan.CanonicalType(p.Cast.Type.render())
		}
	case len(p.Tuple) == 1:
		inner = b.key(p.Tuple[0], sc)
	default:
		return k
	}
	if !inner.IsColumn() {
		return k
	}
	k.Qualifier, k.Relation, k.Table, k.Column = inner.Qualifier, inner.Relation, inner.Table, inner.Column
	k.Cast = inner.Cast
	if cast != "" {
		k.Cast = cast
	}
	return k
}

// column places a column reference in scope: "c", "t.c", "db.t.c". A reference whose first
// part names no relation but has two parts is read as a struct field of an unqualified column.
func (b *queryBuilder) column(parts []string, sc *scope) plan.ColumnRef {
	k := plan.ColumnRef{Column: parts[len(parts)-1]}
	if len(parts) > 1 {
		k.Qualifier = modelName(parts[:len(parts)-1])
	}
	if r := sc.lookup(k.Qualifier); r != nil {
		k.Relation = r.Name()
		if r.Kind == plan.TableRel && !r.CTE {
			k.Table = r.Table
		}
	}
	return k
}
