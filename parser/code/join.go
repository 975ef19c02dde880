package code

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// join records left.join(right, on, how) (or crossJoin) and returns the joined frame.
func (ev *evaluator) join(left *frame, recv *node, n *node, cross bool) *value {
	rightNode := argNamed(n.args, 0, "other", "right")
	if rightNode == nil {
		ev.evalEach(n.args)
		return unknown
	}
	right := ev.frameOf(ev.eval(rightNode), rightNode)
	l := ev.frameOf(&value{kind: vFrame, frame: left}, recv)
	if left.ref.Var == "" && recv.kind == nIdent {
		l.ref.Var = recv.name
	}
	j := &plan.CodeJoin{Span: ev.span(n), Left: l.ref, Right: right.ref, How: "inner"}
	if cross {
		j.How = "cross"
	}
	if on := argNamed(n.args, 1, "on", "joinExprs", "usingColumns", "usingColumn"); on != nil && !cross {
		j.On = ev.text(on)
		ev.joinKeys(j, on)
	}
	if how := argNamed(n.args, 2, "how", "joinType"); how != nil && !cross {
		j.How = strings.ToLower(ev.strValueOf(how))
	}
	j.Type = joinType(j.How)
	switch {
	case right.ref.Broadcast:
		j.Broadcast = "right"
	case l.ref.Broadcast:
		j.Broadcast = "left"
	}
	j.Hints = append(append([]string(nil), l.ref.Hints...), right.ref.Hints...)
	ev.out.Joins = append(ev.out.Joins, j)

	g := &frame{ref: plan.FrameRef{Span: j.Span}}
	mergeSources(&g.ref, l.ref)
	mergeSources(&g.ref, right.ref)
	return &value{kind: vFrame, frame: g}
}

// joinKeys reads the join argument: a name, a list of names, or a condition of column
// equalities joined by & / && / and.
func (ev *evaluator) joinKeys(j *plan.CodeJoin, on *node) {
	if names, ok := ev.nameList(on); ok {
		j.Using = true
		for _, nm := range names {
			j.LeftKeys = append(j.LeftKeys, ev.keyRef(nm, j.Left))
			j.RightKeys = append(j.RightKeys, ev.keyRef(nm, j.Right))
		}
		return
	}
	for _, c := range conjuncts(on) {
		l, r, ok := equality(c)
		if !ok {
			j.Residual = append(j.Residual, ev.text(c))
			continue
		}
		lk, rk := ev.colRef(l, nil), ev.colRef(r, nil)
		if !lk.IsColumn() || !rk.IsColumn() {
			j.Residual = append(j.Residual, ev.text(c))
			continue
		}
		if side(lk, j) == "right" || side(rk, j) == "left" {
			lk, rk = rk, lk
		}
		if lk.Qualifier == "" || side(lk, j) == "left" {
			placeKey(&lk, j.Left)
		}
		if rk.Qualifier == "" || side(rk, j) == "right" {
			placeKey(&rk, j.Right)
		}
		j.LeftKeys = append(j.LeftKeys, lk)
		j.RightKeys = append(j.RightKeys, rk)
	}
}

// nameList returns the column names of a join on names: "k", ["a", "b"], Seq("a", "b").
func (ev *evaluator) nameList(n *node) ([]*node, bool) {
	if v, ok := ev.env[n.name]; n.kind == nIdent && ok && v.kind == vList {
		var out []*node
		for _, it := range v.items {
			if it.kind != vStr || !it.resolved || it.strNode == nil {
				return nil, false
			}
			out = append(out, it.strNode)
		}
		return out, len(out) > 0
	}
	if _, ok := ev.constString(n, 0); ok && n.kind != nBin {
		return []*node{n}, true
	}
	switch {
	case n.kind == nStr:
		return []*node{n}, true
	case n.kind == nList || (n.kind == nCall && n.x.kind == nIdent && (n.x.name == "Seq" || n.x.name == "List" || n.x.name == "Array")):
		var out []*node
		for _, a := range n.args {
			if _, ok := ev.constString(a.val, 0); !ok {
				return nil, false
			}
			out = append(out, a.val)
		}
		return out, len(out) > 0
	}
	return nil, false
}

func (ev *evaluator) keyRef(n *node, f plan.FrameRef) plan.ColumnRef {
	c := ev.colRef(n, nil)
	c.Qualifier = ""
	if c.Column == "" {
		c.Column = ev.strValueOf(n)
	}
	placeKey(&c, f)
	return c
}

// conjuncts splits a condition on &, && and "and"; a list of conditions is their conjunction.
func conjuncts(n *node) []*node {
	switch {
	case n.kind == nBin && (n.name == "&" || n.name == "&&" || n.name == "and"):
		return append(conjuncts(n.x), conjuncts(n.y)...)
	case n.kind == nList:
		var out []*node
		for _, a := range n.args {
			out = append(out, conjuncts(a.val)...)
		}
		return out
	case n.kind == nCall && n.x.kind == nAttr && n.x.name == "and" && len(n.args) == 1:
		return append(conjuncts(n.x.x), conjuncts(n.args[0].val)...)
	}
	return []*node{n}
}

// equality splits a == b, a === b, a <=> b, a.eqNullSafe(b), a.equalTo(b).
func equality(n *node) (*node, *node, bool) {
	switch {
	case n.kind == nBin && (n.name == "==" || n.name == "===" || n.name == "<=>"):
		return n.x, n.y, true
	case n.kind == nCall && n.x.kind == nAttr && (n.x.name == "eqNullSafe" || n.x.name == "equalTo") && len(n.args) == 1:
		return n.x.x, n.args[0].val, true
	}
	return nil, nil, false
}

// side says which join side a key's qualifier names: by variable, alias or expression text.
func side(c plan.ColumnRef, j *plan.CodeJoin) string {
	q := c.Qualifier
	if q == "" {
		return ""
	}
	for _, s := range []struct {
		name string
		f    plan.FrameRef
	}{{"left", j.Left}, {"right", j.Right}} {
		if q == s.f.Var || q == s.f.Alias || q == s.f.Text {
			return s.name
		}
	}
	return ""
}

// placeKey places a join or grouping key on its side, a column the side renamed as its
// source's column (the key's Text keeps the name as written).
func placeKey(c *plan.ColumnRef, f plan.FrameRef) {
	if src, ok := f.Renamed[c.Column]; ok {
		c.Column = src
	}
	place(c, f)
}

// place fills a key's Relation and Table from the side it belongs to.
func place(c *plan.ColumnRef, f plan.FrameRef) {
	c.Relation = f.Alias
	if c.Relation == "" {
		c.Relation = f.Var
	}
	if len(f.Tables) == 1 && len(f.Paths) == 0 && len(f.SQL) == 0 {
		c.Table = f.Tables[0]
	}
}

// joinType maps a join type string to Spark's JoinType name, as JoinType.apply reads it
// (case and underscores ignored).
func joinType(how string) string {
	switch strings.ReplaceAll(strings.ToLower(how), "_", "") {
	case "inner":
		return "Inner"
	case "outer", "full", "fullouter":
		return "FullOuter"
	case "left", "leftouter":
		return "LeftOuter"
	case "right", "rightouter":
		return "RightOuter"
	case "leftsemi", "semi":
		return "LeftSemi"
	case "leftanti", "anti":
		return "LeftAnti"
	case "cross":
		return "Cross"
	}
	return ""
}
