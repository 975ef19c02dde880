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
		left, rest := pushEqualities(j.Left, j.ResidualX)
		right, rest := pushEqualities(j.Right, rest)
		j = withResidual(j, rest)
		j.Left, j.Right = left, right
	}
	switch j.Type {
	case "Inner", "Cross", "", "LeftSemi":
		// Equality keys are null-rejecting on both sides (inferred isnotnull filters).
		nj := *j
		nj.Left, nj.Right = eliminateOuter(j.Left, j.LeftKeys), eliminateOuter(j.Right, j.RightKeys)
		j = &nj
	case "LeftOuter":
		nj := *j
		nj.Right = eliminateOuter(j.Right, j.RightKeys)
		j = &nj
	case "RightOuter":
		nj := *j
		nj.Left = eliminateOuter(j.Left, j.LeftKeys)
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
	if len(j.Using) > 0 || j.Natural {
		lrefs, rrefs = nil, nil
		for _, c := range usingColumns(j, left, right) {
			lrefs = append(lrefs, plan.ColumnRef{Text: c, Column: c})
			rrefs = append(rrefs, plan.ColumnRef{Text: c, Column: c})
		}
	}
	lrefs, rrefs, residual := s.orientResidual(left, right, lrefs, rrefs, j.ResidualX)
	var lk, rk []plan.Expr
	for i := range lrefs {
		if i >= len(rrefs) {
			break
		}
		lr, rr := lrefs[i], rrefs[i]
		if (!fits(left.out, lr) || !fits(right.out, rr)) && fits(left.out, rr) && fits(right.out, lr) {
			// Keys the parser could not orient (unqualified columns): they fit the other way.
			lr, rr = rr, lr
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
			s.note("join key %s = %s could not be resolved to columns of each side; left out", lrefs[i].Text, rrefs[i].Text)
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

// orientResidual turns ON conjuncts "x = y" the parser could not place (unqualified columns)
// into key pairs when x is a column of one side and y of the other, as
// ExtractEquiJoinKeys does after analysis resolved the names.
func (s *sim) orientResidual(left, right *node, lrefs, rrefs []plan.ColumnRef, residual []*plan.X) ([]plan.ColumnRef, []plan.ColumnRef, []*plan.X) {
	var keep []*plan.X
	for _, c := range residual {
		a, b, ok := columnEquality(c)
		if !ok {
			// An equality of expressions over one side each: "a.a + 1 = b.a".
			if l, r, ok := equalityOf(c); ok {
				switch {
				case resolvesAll(left.out, l) && resolvesAll(right.out, r):
					lrefs, rrefs = append(lrefs, keyOf(l)), append(rrefs, keyOf(r))
					continue
				case resolvesAll(left.out, r) && resolvesAll(right.out, l):
					lrefs, rrefs = append(lrefs, keyOf(r)), append(rrefs, keyOf(l))
					continue
				}
			}
			keep = append(keep, c)
			continue
		}
		_, al := resolve(left.out, a)
		_, ar := resolve(right.out, a)
		_, bl := resolve(left.out, b)
		_, br := resolve(right.out, b)
		switch {
		case al && br && (!ar || !bl):
			lrefs, rrefs = append(lrefs, a), append(rrefs, b)
		case bl && ar && (!al || !br):
			lrefs, rrefs = append(lrefs, b), append(rrefs, a)
		default:
			keep = append(keep, c)
		}
	}
	return lrefs, rrefs, keep
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

func fits(out []attr, r plan.ColumnRef) bool {
	if r.Column != "" {
		_, ok := resolve(out, r)
		return ok
	}
	return resolvesAll(out, r.X)
}

func usingColumns(j *plan.JoinSpec, left, right *node) []string {
	if !j.Natural {
		return j.Using
	}
	var cols []string
	for _, a := range left.out {
		if _, ok := findAttr(right.out, a.name); ok {
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
