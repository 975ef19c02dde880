package exec

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/engine/store"
)

// A predicate is a parsed filter condition over a stage's columns. Only what Spark prints for
// simple filters, and the SQL forms of the same conditions, is understood: AND, OR, NOT,
// comparisons (=, <=>, !=, <>, <, <=, >, >=) between a column and a literal or two columns,
// isnull, isnotnull, IS [NOT] NULL, [NOT] IN lists and [NOT] BETWEEN literals. Anything else
// is an error naming the unsupported text.
type predicate struct {
	op   string // "and", "or", "not", "cmp", "isnull", "isnotnull", "in"
	kids []*predicate
	col  int
	cmp  string
	col2 int        // right column of a column comparison, -1 for a literal
	lit  *store.Vec // the literal(s)
}

type predParser struct {
	toks []string
	i    int
	cols schema
}

// parsePredicate parses a printed filter condition.
func parsePredicate(text string, cols schema) (*predicate, error) {
	toks, err := tokenize(text)
	if err != nil {
		return nil, err
	}
	p := &predParser{toks: toks, cols: cols}
	pr, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		return nil, fmt.Errorf("unsupported condition %q: unexpected %q", text, p.toks[p.i])
	}
	return pr, nil
}

func (p *predParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *predParser) next() string { t := p.peek(); p.i++; return t }

func (p *predParser) expect(t string) error {
	if got := p.next(); got != t {
		return fmt.Errorf("expected %q, found %q", t, got)
	}
	return nil
}

func (p *predParser) or() (*predicate, error) {
	l, err := p.and()
	for err == nil && strings.EqualFold(p.peek(), "OR") {
		p.i++
		var r *predicate
		if r, err = p.and(); err == nil {
			l = &predicate{op: "or", kids: []*predicate{l, r}}
		}
	}
	return l, err
}

func (p *predParser) and() (*predicate, error) {
	l, err := p.not()
	for err == nil && strings.EqualFold(p.peek(), "AND") {
		p.i++
		var r *predicate
		if r, err = p.not(); err == nil {
			l = &predicate{op: "and", kids: []*predicate{l, r}}
		}
	}
	return l, err
}

func (p *predParser) not() (*predicate, error) {
	if strings.EqualFold(p.peek(), "NOT") {
		p.i++
		k, err := p.not()
		if err != nil {
			return nil, err
		}
		return &predicate{op: "not", kids: []*predicate{k}}, nil
	}
	return p.primary()
}

func (p *predParser) primary() (*predicate, error) {
	t := p.next()
	if t == "(" {
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		return e, p.expect(")")
	}
	if low := strings.ToLower(t); (low == "isnull" || low == "isnotnull") && p.peek() == "(" {
		p.i++
		c, err := p.column(p.next())
		if err != nil {
			return nil, err
		}
		return &predicate{op: low, col: c}, p.expect(")")
	}
	t = p.typed(t)
	c, err := p.column(t)
	if err != nil {
		// A literal compared with a column (5 < k) is the column compared the other way.
		op := p.peek()
		swapped, isCmp := flip(op)
		if !isCmp || p.i+1 >= len(p.toks) {
			return nil, err
		}
		p.i++
		rhs := p.typed(p.next())
		c2, err2 := p.column(rhs)
		if err2 != nil || isQuoted(rhs) {
			return nil, err
		}
		lit, err := literal(p.cols[c2], []string{t})
		return &predicate{op: "cmp", col: c2, cmp: swapped, col2: -1, lit: lit}, err
	}
	op := p.next()
	if strings.EqualFold(op, "NOT") && (strings.EqualFold(p.peek(), "IN") || strings.EqualFold(p.peek(), "BETWEEN")) {
		// x NOT IN (…), x NOT BETWEEN a AND b: the negation of the positive form.
		p.i--
		p.toks[p.i] = t
		k, err := p.primary()
		if err != nil {
			return nil, err
		}
		return &predicate{op: "not", kids: []*predicate{k}}, nil
	}
	switch strings.ToUpper(op) {
	case "IS":
		neg := strings.EqualFold(p.peek(), "NOT")
		if neg {
			p.i++
		}
		if w := p.next(); !strings.EqualFold(w, "NULL") {
			return nil, fmt.Errorf("unsupported condition at %q IS %q", t, w)
		}
		if neg {
			return &predicate{op: "isnotnull", col: c}, nil
		}
		return &predicate{op: "isnull", col: c}, nil
	case "BETWEEN":
		lo := p.typed(p.next())
		if and := p.next(); !strings.EqualFold(and, "AND") {
			return nil, fmt.Errorf("BETWEEN: expected AND, found %q", and)
		}
		hi := p.typed(p.next())
		var kids []*predicate
		for _, b := range []struct{ cmp, lit string }{{">=", lo}, {"<=", hi}} {
			if _, err := p.column(b.lit); err == nil && !isQuoted(b.lit) {
				return nil, fmt.Errorf("BETWEEN with a column bound (%s) is not supported", b.lit)
			}
			lit, err := literal(p.cols[c], []string{b.lit})
			if err != nil {
				return nil, err
			}
			kids = append(kids, &predicate{op: "cmp", col: c, cmp: b.cmp, col2: -1, lit: lit})
		}
		return &predicate{op: "and", kids: kids}, nil
	case "=", "==", "<=>", "!=", "<>", "<", "<=", ">", ">=":
		rhs := p.typed(p.next())
		if c2, err := p.column(rhs); err == nil && !isQuoted(rhs) {
			if p.cols[c2].Type.Kind != p.cols[c].Type.Kind && kindOf(p.cols[c2]) != kindOf(p.cols[c]) || decimalsDiffer(p.cols[c].Type, p.cols[c2].Type) {
				return nil, fmt.Errorf("comparison of %s and %s needs a cast, which is not supported", t, rhs)
			}
			return &predicate{op: "cmp", col: c, cmp: op, col2: c2}, nil
		}
		lit, err := literal(p.cols[c], []string{rhs})
		return &predicate{op: "cmp", col: c, cmp: op, col2: -1, lit: lit}, err
	case "IN":
		if err := p.expect("("); err != nil {
			return nil, err
		}
		var items []string
		for {
			items = append(items, p.typed(p.next()))
			if sep := p.next(); sep == ")" {
				break
			} else if sep != "," {
				return nil, fmt.Errorf("IN list: expected , or ), found %q", sep)
			}
		}
		lit, err := literal(p.cols[c], items)
		return &predicate{op: "in", col: c, lit: lit}, err
	}
	return nil, fmt.Errorf("unsupported condition at %q %q", t, op)
}

// flip returns the comparison operator that holds with op's operands swapped, and whether
// op is a comparison.
func flip(op string) (string, bool) {
	switch op {
	case "=", "==", "<=>", "!=", "<>":
		return op, true
	case "<":
		return ">", true
	case "<=":
		return ">=", true
	case ">":
		return "<", true
	case ">=":
		return "<=", true
	}
	return "", false
}

// typed joins a typed literal (DATE '2024-06-30', TIMESTAMP '2024-06-30 12:00:00',
// TIMESTAMP_NTZ '…', TIMESTAMP_LTZ '…') into its quoted text, which literal then reads with
// the column's type. Any other token is returned as it is.
func (p *predParser) typed(t string) string {
	switch strings.ToUpper(t) {
	case "DATE", "TIMESTAMP", "TIMESTAMP_NTZ", "TIMESTAMP_LTZ":
		if isQuoted(p.peek()) {
			return p.next()
		}
	}
	return t
}

// column resolves a token as a column reference.
func (p *predParser) column(t string) (int, error) {
	if isQuoted(t) || t == "" {
		return 0, fmt.Errorf("expected a column, found %q", t)
	}
	name, id, _ := strings.Cut(t, "#")
	id = strings.TrimSuffix(id, "L")
	c, err := p.cols.lookup(name, id)
	if err != nil {
		return 0, fmt.Errorf("unsupported operand %q: column %w", t, err)
	}
	return c, nil
}

func kindOf(c column) store.Kind {
	k, _ := store.KindOf(c.Type)
	return k
}

func isQuoted(t string) bool { return len(t) >= 2 && t[0] == '\'' }

// literal converts printed literals to a vector of the column's type.
func literal(c column, items []string) (*store.Vec, error) {
	v := store.NewVec(c.Type, len(items))
	for _, it := range items {
		s := it
		switch {
		case isQuoted(s):
			s = strings.ReplaceAll(s[1:len(s)-1], "''", "'")
		case strings.EqualFold(s, "null"):
			v.AppendNull()
			continue
		case kindOf(c) != store.KindBytes:
			s = strings.TrimSuffix(strings.TrimRight(s, "LSYD"), "B") // 5L, 1.5BD
		}
		if err := store.AppendParsed(v, s); err != nil {
			return nil, fmt.Errorf("literal %s for column %s: %w", it, c.Name, err)
		}
	}
	return v, nil
}

// tokenize splits a printed condition into parentheses, commas, operators, quoted strings
// and words.
func tokenize(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '(' || c == ')' || c == ',':
			toks = append(toks, string(c))
			i++
		case c == '\'':
			j := i + 1
			for j < len(s) && (s[j] != '\'' || (j+1 < len(s) && s[j+1] == '\'')) {
				if s[j] == '\'' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unterminated string in %q", s)
			}
			toks = append(toks, s[i:j+1])
			i = j + 1
		case strings.ContainsRune("=<>!", rune(c)):
			j := i
			for j < len(s) && strings.ContainsRune("=<>!", rune(s[j])) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n(),'=<>!", rune(s[j])) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks, nil
}
