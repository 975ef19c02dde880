package sql

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// filters returns the WHERE conjuncts that compare a column with literals: c = 1, 1 = c,
// c <=> 'x', c IN (1, 2). These are what Spark's bucket pruning reads (FileSourceStrategy,
// 2.4+: equality, null-safe equality and IN on a single bucket column).
func (b *queryBuilder) filters(where *expr, sc *scope) []plan.KeyFilter {
	var out []plan.KeyFilter
	for _, cj := range conjuncts(where) {
		if l, r, ok := equality(cj); ok {
			op := cj.RHS.Op
			if op == "==" {
				op = "="
			}
			if v, ok := b.literal(r); ok {
				if k := b.arithKey(l, sc); k.IsColumn() {
					out = append(out, plan.KeyFilter{Column: k, Op: op, Values: []string{v}, ValuesX: []*plan.X{b.t.arith(r)}})
				}
			} else if v, ok := b.literal(l); ok {
				if k := b.arithKey(r, sc); k.IsColumn() {
					out = append(out, plan.KeyFilter{Column: k, Op: op, Values: []string{v}, ValuesX: []*plan.X{b.t.arith(l)}})
				}
			}
			continue
		}
		if cj.RHS == nil || cj.RHS.In == nil || cj.RHS.Not || cj.RHS.In.Query != nil {
			continue
		}
		k := b.arithKey(cj.Left, sc)
		if !k.IsColumn() {
			continue
		}
		f := plan.KeyFilter{Column: k, Op: "IN"}
		for _, it := range cj.RHS.In.Items {
			a := single(it)
			v, ok := b.literal(a)
			if a == nil || !ok {
				f.Values, f.ValuesX = nil, nil
				break
			}
			f.Values, f.ValuesX = append(f.Values, v), append(f.ValuesX, b.t.arith(a))
		}
		if f.Values != nil {
			out = append(out, f)
		}
	}
	return out
}

// literal returns the text of a literal operand: a number, a string, a typed literal, NULL,
// TRUE or FALSE, possibly signed.
func (b *queryBuilder) literal(a *arith) (string, bool) {
	if a == nil || len(a.Rest) != 0 || len(a.Left.Postfix) != 0 {
		return "", false
	}
	p := a.Left.Primary
	switch {
	case p.Number != "", len(p.Str) > 0, len(p.Typed) > 0:
		return text(b.c, a.Pos, a.EndPos), true
	case p.Column != nil && len(p.Column.Parts) == 1:
		switch strings.ToLower(p.Column.Parts[0]) {
		case "null", "true", "false":
			return strings.ToLower(p.Column.Parts[0]), true
		}
	}
	return "", false
}

// windows records the OVER specifications of the select list (and QUALIFY), resolving named
// windows of the WINDOW clause, and marks aggregating blocks.
func (b *queryBuilder) windows(out *plan.Select, s *selectBlock, sc *scope) {
	var named map[string]*windowSpec // made for a WINDOW clause only: most blocks have none
	if len(s.Windows) > 0 {
		named = make(map[string]*windowSpec, len(s.Windows))
	}
	for _, w := range s.Windows {
		named[strings.ToLower(w.Name)] = w.Spec
	}
	// item is the 1-based position of the select item being walked, whole its text.
	item, whole := 0, ""
	visit := func(f *funcCall) {
		name := strings.ToLower(f.Name.plain())
		if f.Over == nil {
			if isAggregate(name) {
				out.Aggregate = true
			}
			return
		}
		spec := f.Over.Spec
		if spec == nil {
			spec = named[strings.ToLower(f.Over.Name)]
		} else if spec.Base != "" && named[strings.ToLower(spec.Base)] != nil && len(spec.Partition) == 0 {
			spec = named[strings.ToLower(spec.Base)]
		}
		w := plan.WindowSpec{Function: name, Span: b.st.span(b.c, f.Pos, f.EndPos)}
		w.Args, w.Distinct = b.callArgs(f)
		w.ArgsX = b.callArgsX(f)
		if item > 0 && text(b.c, f.Pos, f.EndPos) == whole {
			w.Item = item
		}
		if spec != nil {
			for _, e := range spec.Partition {
				w.PartitionBy = append(w.PartitionBy, b.key(e, sc))
			}
			w.OrderBy = b.sortKeys(spec.Order, sc)
			w.Frame = frameOf(spec)
		}
		out.Windows = append(out.Windows, w)
	}
	for i, it := range s.Items {
		item, whole = i+1, ""
		if it.Expr != nil {
			whole = text(b.c, it.Expr.Pos, it.Expr.EndPos)
		}
		walkFuncs(it.Expr, visit)
	}
	item = 0
	walkFuncs(s.Having, func(f *funcCall) {
		if f.Over == nil && isAggregate(strings.ToLower(f.Name.plain())) {
			out.Aggregate = true
		}
	})
	walkFuncs(s.Qualify, visit)
}

// callArgs returns a call's arguments as written ("*" for f(*)) and whether they are
// DISTINCT.
func (b *queryBuilder) callArgs(f *funcCall) ([]string, bool) {
	l := f.List
	if l.Star != nil {
		return []string{"*"}, false
	}
	var args []string
	for _, a := range l.Args {
		args = append(args, text(b.c, a.Pos, a.EndPos))
	}
	if len(l.Raw) > 0 {
		args = []string{innerText(l.Raw)}
	}
	return args, strings.EqualFold(l.Quant, "distinct")
}

// callArgsX returns a call's arguments as trees: one OpStar for f(*), none when they are not
// expressions.
func (b *queryBuilder) callArgsX(f *funcCall) []*plan.X {
	l := f.List
	if l.Star != nil {
		return []*plan.X{b.t.mk(plan.X{Op: plan.OpStar}, l.Star.Pos, l.Star.EndPos)}
	}
	if len(l.Raw) > 0 {
		return nil
	}
	out := make([]*plan.X, len(l.Args))
	for i, a := range l.Args {
		out[i] = b.t.expr(a)
	}
	return out
}

// innerText joins tokens with single spaces, groups in parentheses.
func innerText(toks []*innerTok) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.Tok
		if t.Tok == "" {
			parts[i] = "(" + innerText(t.Group) + ")"
		}
	}
	return strings.Join(parts, " ")
}

// isAggregate reports whether name is one of Spark's common aggregate functions, whose
// presence without GROUP BY makes a global aggregate.
func isAggregate(name string) bool {
	switch name {
	case "count", "sum", "avg", "mean", "min", "max", "collect_list", "collect_set",
		"approx_count_distinct", "first", "last", "stddev", "variance", "percentile",
		"percentile_approx", "count_if", "any_value", "bool_and", "bool_or", "max_by", "min_by",
		"median", "mode":
		return true
	}
	return false
}

// hints reads the /*+ … */ hint comments of a block.
func (b *queryBuilder) hints(raw []string, from int) []plan.Hint {
	var out []plan.Hint
	for _, h := range raw {
		off := from
		if i := strings.Index(b.c.text[min(from, len(b.c.text)):], h); i >= 0 {
			off = from + i
		}
		hs := parseHints(h, b.st.lines.pos(b.c.offset+off))
		b.hintTrees(hs, h, off)
		out = append(out, hs...)
	}
	return out
}

// hintTrees sets the argument trees of the partitioning hints among hs, read from the hint
// comment h at offset off of the statement. Arguments the grammar cannot read keep none.
func (b *queryBuilder) hintTrees(hs []plan.Hint, h string, off int) {
	if len(h) < 5 {
		return
	}
	body := h[3 : len(h)-2]
	ast, err := b.st.p.hint.ParseString(b.st.f.Name, body)
	if err != nil || len(ast.Hints) != len(hs) {
		return
	}
	t := newTrees(b.st, chunk{text: body, offset: b.c.offset + off + 3})
	for i, it := range ast.Hints {
		switch hs[i].Name {
		case "REPARTITION", "REPARTITION_BY_RANGE", "REBALANCE", "COALESCE":
		default:
			continue
		}
		if len(it.Args) != len(hs[i].Args) {
			continue
		}
		for _, a := range it.Args {
			hs[i].ArgsX = append(hs[i].ArgsX, t.expr(a))
		}
	}
}

// parseHints splits "/*+ BROADCAST(a), MERGE(a, b) COALESCE(3) */" into hints.
func parseHints(h string, pos plan.Pos) []plan.Hint {
	body := strings.TrimSuffix(strings.TrimPrefix(h, "/*+"), "*/")
	var out []plan.Hint
	for i := 0; i < len(body); {
		c := body[i]
		if !isWordByte(c) {
			i++
			continue
		}
		j := i
		for j < len(body) && isWordByte(body[j]) {
			j++
		}
		hint := plan.Hint{Name: strings.ToUpper(body[i:j]), Pos: pos}
		k := j
		for k < len(body) && (body[k] == ' ' || body[k] == '\t' || body[k] == '\n') {
			k++
		}
		if k < len(body) && body[k] == '(' {
			end := strings.IndexByte(body[k:], ')')
			if end < 0 {
				end = len(body) - k
			}
			for _, a := range strings.Split(body[k+1:k+end], ",") {
				if a = strings.TrimSpace(a); a != "" {
					hint.Args = append(hint.Args, unquoteIdent(a))
				}
			}
			j = k + end + 1
		}
		out = append(out, hint)
		i = j
	}
	return out
}
