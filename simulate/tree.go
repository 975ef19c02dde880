package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// lastPart is the last part of a qualifier: "o" of "db.o".
func lastPart(q string) string { return q[strings.LastIndexByte(q, '.')+1:] }

// columnOf reads a tree that is a plain column (no cast) as a key reference, qualified by
// its qualifier's last part as Spark's attribute lookup compares it.
func columnOf(x *plan.X) (plan.ColumnRef, bool) {
	if x == nil || x.Op != plan.OpColumn {
		return plan.ColumnRef{}, false
	}
	q := lastPart(x.Qualifier)
	return plan.ColumnRef{Text: x.Raw, Column: x.Name, Qualifier: q, Relation: q, X: x}, true
}

// equalityOf returns the operands of an equality "a = b".
func equalityOf(x *plan.X) (l, r *plan.X, ok bool) {
	if x == nil || x.Op != plan.OpBinary || x.Name != "=" || len(x.Args) != 2 {
		return nil, nil, false
	}
	return x.Args[0], x.Args[1], true
}

// opaque reports whether x holds an expression whose columns its tree does not show: a
// subquery, EXISTS, a call whose arguments were not read, a template, a cut-off sub-tree.
func opaque(x *plan.X) bool {
	found := false
	x.Walk(func(n *plan.X) bool {
		if n.Op == plan.OpOther && len(n.Args) == 0 && n.Name != "param" && n.Name != "lambdavar" {
			found = true
		}
		return !found
	})
	return found
}

// hasSubquery reports whether x holds a subquery or EXISTS.
func hasSubquery(x *plan.X) bool {
	found := false
	x.Walk(func(n *plan.X) bool {
		found = found || n.Op == plan.OpOther && (n.Name == "subquery" || n.Name == "exists")
		return !found
	})
	return found
}

// raws returns the texts of trees.
func raws(xs []*plan.X) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.Raw
	}
	return out
}

// resolvesAll reports whether x names at least one column and every column it names is
// among out.
func resolvesAll(out []attr, x *plan.X) bool {
	if x == nil || opaque(x) {
		return false
	}
	cols := x.Columns()
	for _, c := range cols {
		r, _ := columnOf(c)
		if _, ok := resolve(out, r); !ok {
			return false
		}
	}
	return len(cols) > 0
}
