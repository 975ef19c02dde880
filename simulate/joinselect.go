package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// joinRel plans one JOIN of a FROM clause.
func (s *sim) joinRel(j *plan.JoinSpec, hints []plan.Hint) (*node, error) {
	if len(j.ResidualX) > 0 && (j.Type == "Inner" || j.Type == "Cross" || j.Type == "") {
		// Conjuncts of this ON clause between two relations of one side belong to a join
		// below (PushPredicateThroughJoin).
		left, rest := s.pushEqualities(j.Left, j.ResidualX)
		right, rest := s.pushEqualities(j.Right, rest)
		j = withResidual(j, rest)
		j.Left, j.Right = left, right
	}
	switch j.Type {
	case "Inner", "Cross", "", "LeftSemi":
		// Equality keys are null-rejecting on both sides (inferred isnotnull filters).
		nj := *j
		nj.Left, nj.Right = s.eliminateOuter(j.Left, j.LeftKeys), s.eliminateOuter(j.Right, j.RightKeys)
		j = &nj
	case "LeftOuter":
		nj := *j
		nj.Right = s.eliminateOuter(j.Right, j.RightKeys)
		j = &nj
	case "RightOuter":
		nj := *j
		nj.Left = s.eliminateOuter(j.Left, j.LeftKeys)
		j = &nj
	}
	// ON conjuncts on one relation filter its scan.
	j = s.placeOn(j)
	lrej, rrej := nullRejectedSides(j)
	saved := s.nullRejected
	s.nullRejected = lrej
	left, err := s.relation(j.Left, hints)
	s.nullRejected = saved
	if err != nil {
		return nil, err
	}
	s.nullRejected = rrej
	right, err := s.relation(j.Right, hints)
	s.nullRejected = saved
	if err != nil {
		return nil, err
	}
	lrefs, rrefs := j.LeftKeys, j.RightKeys
	using := len(j.Using) > 0 || j.Natural
	if using {
		lrefs, rrefs = nil, nil
		for _, c := range usingColumns(j, left.out, right.out) {
			lrefs = append(lrefs, plan.ColumnRef{Text: c, Column: c})
			rrefs = append(rrefs, plan.ColumnRef{Text: c, Column: c})
		}
	}
	lrefs, rrefs, residual := equiKeys(left, right, lrefs, rrefs, j.ResidualX)
	var lk, rk []plan.Expr
	for i := range min(len(lrefs), len(rrefs)) {
		la, ra, ok := s.keyPair(left, right, lrefs[i], rrefs[i], using)
		if !ok {
			continue
		}
		la, ra = s.coerce(la, ra)
		lk = append(lk, la.expr)
		rk = append(rk, ra.expr)
	}
	typ := j.Type
	if typ == "" {
		typ = "Inner"
	}
	return s.planJoin(left, right, typ, lk, rk, residual, hints), nil
}

// keyPair resolves one key pair on the join's sides. Key pairs come oriented to their sides
// (workload.Resolve): a pair whose keys do not each resolve on their own side is left out,
// never turned round, and so is a pair with a column written without a qualifier that name
// resolution did not place and both sides have (Spark rejects it as ambiguous), rather than
// read as the column of the side it is written on. A USING join's columns are looked up on
// each side by name, as Spark does.
func (s *sim) keyPair(left, right *node, lr, rr plan.ColumnRef, using bool) (attr, attr, bool) {
	if !using && (ambiguous(left.out, right.out, lr) || ambiguous(left.out, right.out, rr)) {
		s.note("join key %s = %s names a column both sides have; left out", lr.Text, rr.Text)
		return attr{}, attr{}, false
	}
	la, lok := s.keyExpr(left.out, lr)
	ra, rok := s.keyExpr(right.out, rr)
	if !lok && lr.Column == "" {
		la, lok = s.exprKey(left.out, lr.X)
	}
	if !rok && rr.Column == "" {
		ra, rok = s.exprKey(right.out, rr.X)
	}
	if !lok || !rok {
		s.note("join key %s = %s could not be resolved to columns of each side; left out", lr.Text, rr.Text)
		return attr{}, attr{}, false
	}
	return la, ra, true
}

// ambiguous reports a key column with neither a relation nor a qualifier whose name both
// sides' outputs have.
func ambiguous(left, right []attr, r plan.ColumnRef) bool {
	if r.Column == "" || r.Relation != "" || r.Qualifier != "" {
		return false
	}
	return hasName(left, r.Column) && hasName(right, r.Column)
}

// hasName reports whether out has a column of that name.
func hasName(out []attr, name string) bool {
	name = strings.ToLower(name)
	for _, a := range out {
		if a.name == name {
			return true
		}
	}
	return false
}

// equiKeys turns the ON conjuncts that equate an expression over the left side's columns
// with one over the right side's ("a.a + 1 = b.a", "a.k = b.k" kept out of the keys) into
// key pairs, as ExtractEquiJoinKeys does; the other conjuncts stay the join's condition.
func equiKeys(left, right *node, lrefs, rrefs []plan.ColumnRef, residual []*plan.X) ([]plan.ColumnRef, []plan.ColumnRef, []*plan.X) {
	var keep []*plan.X
	for _, c := range residual {
		l, r, ok := equalityOf(c)
		ls, rs := sideOf(left, right, l), sideOf(left, right, r)
		switch {
		case ok && ls == 1 && rs == 2:
			lrefs, rrefs = append(lrefs, treeKey(l)), append(rrefs, treeKey(r))
		case ok && ls == 2 && rs == 1:
			lrefs, rrefs = append(lrefs, treeKey(r)), append(rrefs, treeKey(l))
		default:
			keep = append(keep, c)
		}
	}
	return lrefs, rrefs, keep
}

// sideOf says which input of a join every column of x belongs to: 1 for the left, 2 for the
// right, 0 for both, neither, or a tree whose columns it cannot see. A column belongs to the
// side whose output has it under the relation name resolution gave it (plan.X.Relation), else
// under its qualifier.
//
// A column with neither belongs to the one side whose output has its name. This stays for
// two reasons: name resolution gives no relation name to a column of a subquery written
// without an alias nor to a USING join's merged column, though it resolved them, and a query
// built by code or a test is not resolved; in both, the ON condition's scope is the join's
// two inputs, which is where Spark's analyzer looks a name up. A name both sides have (or
// neither) stays a condition.
func sideOf(left, right *node, x *plan.X) int {
	if x == nil || opaque(x) || len(x.Columns()) == 0 {
		return 0
	}
	side := 0
	for _, c := range x.Columns() {
		cs := columnSide(left.out, right.out, refOf(c))
		if cs == 0 || side != 0 && cs != side {
			return 0
		}
		side = cs
	}
	return side
}

// columnSide is sideOf for one column.
func columnSide(left, right []attr, r plan.ColumnRef) int {
	in := func(out []attr) bool {
		for _, a := range out {
			if a.name == strings.ToLower(r.Column) && (r.Relation == "" || a.relation == strings.ToLower(r.Relation)) {
				return true
			}
		}
		return false
	}
	l, rt := in(left), in(right)
	switch {
	case l && !rt:
		return 1
	case rt && !l:
		return 2
	}
	return 0
}

// treeKey is a key for an operand of an ON equality: its column (with the relation name
// resolution gave it) when it is one, else the expression.
func treeKey(x *plan.X) plan.ColumnRef {
	if x.Op == plan.OpColumn {
		return refOf(x)
	}
	return plan.ColumnRef{Text: x.Raw, X: x}
}

// nullRejectedSides are the key columns an equi-join makes Spark filter with isnotnull on
// each side (InferFiltersFromConstraints): both sides of inner and semi joins, the
// null-supplying side of outer joins.
func nullRejectedSides(j *plan.JoinSpec) (map[string]bool, map[string]bool) {
	set := func(refs []plan.ColumnRef) map[string]bool {
		m := map[string]bool{}
		for _, r := range refs {
			if r.Column != "" {
				m[strings.ToLower(r.Column)] = true
			}
		}
		return m
	}
	switch j.Type {
	case "LeftOuter":
		return nil, set(j.RightKeys)
	case "RightOuter":
		return set(j.LeftKeys), nil
	case "FullOuter":
		return nil, nil
	}
	return set(j.LeftKeys), set(j.RightKeys)
}

// usingColumns returns the columns a USING join names, or those a NATURAL join's sides (their
// output columns left and right) have in common, in the left side's order.
func usingColumns(j *plan.JoinSpec, left, right []attr) []string {
	if !j.Natural {
		return j.Using
	}
	var cols []string
	for _, a := range left {
		if _, ok := findAttr(right, a.name); ok {
			cols = append(cols, a.name)
		}
	}
	return cols
}

// coerce is TypeCoercion for an equality of two numeric columns of different types: the
// narrower side is cast to the wider type, which makes it a different expression.
func (s *sim) coerce(l, r attr) (attr, attr) {
	lr, rr := TypeRank(l.typ), TypeRank(r.typ)
	switch {
	case l.typ == r.typ || l.typ == "" || r.typ == "":
	case lr > 0 && rr > 0 && lr < rr:
		l.expr, l.typ = castExpr(l.expr, r.typ), r.typ
	case lr > 0 && rr > 0 && rr < lr:
		r.expr, r.typ = castExpr(r.expr, l.typ), l.typ
	case (l.typ == "string" && rr > 0 || r.typ == "string" && lr > 0) && s.opt.ANSI():
		// AnsiTypeCoercion (spark.sql.ansi.enabled, default from 4.0): a string compared
		// with an integral number makes both sides bigint (double for fractional numbers).
		wide := "bigint"
		if max(lr, rr) >= TypeRank("float") {
			wide = "double"
		}
		if l.typ != wide {
			l.expr, l.typ = castExpr(l.expr, wide), wide
		}
		if r.typ != wide {
			r.expr, r.typ = castExpr(r.expr, wide), wide
		}
	case l.typ == "string" && rr > 0:
		// TypeCoercion.findCommonTypeForBinaryComparison: a string compared with a number
		// is cast to the number's type.
		l.expr, l.typ = castExpr(l.expr, r.typ), r.typ
	case r.typ == "string" && lr > 0:
		r.expr, r.typ = castExpr(r.expr, l.typ), l.typ
	case strings.HasPrefix(l.typ, "decimal") || strings.HasPrefix(r.typ, "decimal"):
		s.note("join key types %s and %s: decimal coercion is not modelled", l.typ, r.typ)
	default:
		s.note("join key types %s and %s differ; Spark inserts a cast that is not modelled", l.typ, r.typ)
	}
	return l, r
}

// sideHints returns the join strategy hints naming the relation a join side is.
func sideHints(n *node, hints []plan.Hint) map[string]bool {
	out := map[string]bool{}
	if n.rel == "" {
		return out
	}
	for _, h := range hints {
		for _, a := range h.Args {
			a = strings.ToLower(a)
			if a == n.rel || strings.HasSuffix(a, "."+n.rel) {
				switch h.Name {
				case "BROADCAST", "BROADCASTJOIN", "MAPJOIN":
					out["broadcast"] = true
				case "MERGE", "SHUFFLE_MERGE", "MERGEJOIN":
					out["merge"] = true
				case "SHUFFLE_HASH":
					out["shuffle_hash"] = true
				case "SHUFFLE_REPLICATE_NL":
					out["shuffle_replicate_nl"] = true
				}
			}
		}
	}
	return out
}

// canBuildLeft is JoinSelectionHelper.canBuildBroadcastLeft and, for a shuffled hash join,
// canBuildShuffledHashJoinLeft: full outer joins since 3.1 (SPARK-32399), and the preserved
// side of a left outer join since 3.5 (SPARK-36612, found by the random differential
// scenarios of oracle/).
func canBuildLeft(typ string, shuffled bool, b Behaviour) bool {
	switch typ {
	case "Inner", "Cross", "RightOuter":
		return true
	case "FullOuter":
		return shuffled && b.ShuffledHashJoinFullOuter
	case "LeftOuter":
		return shuffled && b.ShuffledHashJoinBuildsOuterSide
	}
	return false
}

// canBuildRight is canBuildBroadcastRight and canBuildShuffledHashJoinRight: full outer joins
// since 3.1, the preserved side of a right outer join since 3.5 (SPARK-36612).
func canBuildRight(typ string, shuffled bool, b Behaviour) bool {
	switch typ {
	case "Inner", "Cross", "LeftOuter", "LeftSemi", "LeftAnti":
		return true
	case "FullOuter":
		return shuffled && b.ShuffledHashJoinFullOuter
	case "RightOuter":
		return shuffled && b.ShuffledHashJoinBuildsOuterSide
	}
	return strings.HasPrefix(typ, "ExistenceJoin")
}

// joinSize is SizeInBytesOnlyStatsPlanVisitor.visitJoin: the left size for semi and anti
// joins, else the product of both sizes.
func joinSize(typ string, l, r int64) int64 {
	if typ == "LeftSemi" || typ == "LeftAnti" {
		return l
	}
	if l < 0 || r < 0 {
		return -1
	}
	if l != 0 && r > (1<<62)/l {
		return -1
	}
	return l * r
}
