package sql

import (
	"strconv"
	"strings"
)

// The checks AstBuilder makes on queries beyond the grammar: VALUES rows of one width that
// matches the alias's columns, TABLESAMPLE's forms and ranges, which result clauses combine
// (ORDER BY with SORT BY …), the |> operators' restrictions, literal window frame bounds,
// and TRANSFORM's LINES TERMINATED BY. Each rejects what Spark's parser rejects.

// rowWidth is the number of columns of one VALUES row: a bracketed tuple's items, else 1.
func rowWidth(e *expr) int {
	if u := soleUnary(e); u != nil && len(u.Sign) == 0 && len(u.Postfix) == 0 && len(u.Primary.Tuple) > 1 {
		return len(u.Primary.Tuple)
	}
	return 1
}

// checkValues rejects VALUES rows of different widths, or an alias naming another number of
// columns than the rows have.
func (p *rd) checkValues(rows []*expr, cols []*ident) {
	if p.err != nil || len(rows) == 0 {
		return
	}
	w := rowWidth(rows[0])
	// Before 4.0 the parser left both to the analyzer.
	for _, r := range rows[1:] {
		if rowWidth(r) != w {
			p.use(featValuesWidth, r.Pos.Offset)
			return
		}
	}
	if len(cols) > 0 && len(cols) != w {
		p.use(featValuesWidth, cols[0].Pos.Offset)
	}
}

// checkSample reads the inside of TABLESAMPLE ( … ) (sampleMethod): n PERCENT in [0, 100],
// n ROWS, BUCKET x OUT OF y with x <= y, or a byte length; anything else is rejected as
// Spark does.
func (p *rd) checkSample(toks []token, at int) {
	fail := func(msg string) { p.failAt(at, "TABLESAMPLE: "+msg) }
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = upper(t.text)
	}
	sign := 1.0
	if len(words) > 0 && words[0] == "-" {
		sign, words = -1, words[1:]
	}
	switch {
	case len(words) == 0:
		fail("a sample size is needed (n PERCENT, n ROWS or BUCKET x OUT OF y)")
	case len(words) == 2 && words[1] == "PERCENT":
		if v, err := strconv.ParseFloat(words[0], 64); err == nil && (sign*v < 0 || sign*v > 100) {
			fail("the percentage " + toksText(toks) + " is not between 0 and 100")
		}
	case len(words) == 2 && words[1] == "ROWS":
	case len(words) == 5 && words[0] == "BUCKET" && words[2] == "OUT" && words[3] == "OF":
		if atoi(words[1]) > atoi(words[4]) {
			fail("BUCKET " + words[1] + " OUT OF " + words[4] + " names a bucket past the last")
		}
	case len(words) == 1 && isByteLength(words[0]):
		fail("a sample by byte length (" + toks[0].text + ") is not supported")
	case len(words) == 1:
		fail("the sample size " + toks[0].text + " needs PERCENT or ROWS")
	}
}

// isByteLength reports a number with a byte unit: 100b, 10k, 5M, 1g.
func isByteLength(w string) bool {
	n, rest := digits(w)
	return n != "" && len(rest) == 1 && strings.IndexByte("BKMG", rest[0]) >= 0
}

func toksText(toks []token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.text
	}
	return strings.Join(parts, " ")
}

// checkOrganization rejects result clauses Spark does not combine: ORDER BY with CLUSTER,
// DISTRIBUTE or SORT BY, and CLUSTER BY with DISTRIBUTE or SORT BY.
func (p *rd) checkOrganization(s *selectBlock, at int) {
	switch {
	case p.err != nil:
	case len(s.OrderBy) > 0 && (len(s.ClusterBy) > 0 || len(s.DistributeBy) > 0 || len(s.SortBy) > 0),
		len(s.ClusterBy) > 0 && (len(s.DistributeBy) > 0 || len(s.SortBy) > 0):
		p.failAt(at, "ORDER BY does not combine with CLUSTER, DISTRIBUTE or SORT BY, nor CLUSTER BY with DISTRIBUTE or SORT BY")
	}
}

// checkFrameBound rejects a window frame bound that is a name (RANGE BETWEEN CURRENT ROW AND
// current_date PRECEDING): Spark wants a literal there.
func (p *rd) checkFrameBound(toks []token) {
	for i, t := range toks {
		if (isTok(t, "PRECEDING") || isTok(t, "FOLLOWING")) && i > 0 {
			b := toks[i-1]
			if b.kind == tIdent && !isTok(b, "UNBOUNDED") && (i < 2 || !isUnit(b)) {
				p.failAt(b.off, "a window frame bound is a literal, not "+b.text)
				return
			}
		}
	}
}
