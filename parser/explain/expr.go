package explain

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// matchClose returns the index of the bracket closing the one at s[i] (any of "([{"), or -1
// when it is not closed.
func matchClose(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// unwrap removes one pair of enclosing brackets ("[…]") when s starts with open; a list cut
// short ("[a#1, b#2...") loses only its opening bracket. ok is false when s does not start
// with open or the bracket is not closed at the end of s.
func unwrap(s string, open, closer byte) (inner string, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || s[0] != open {
		return s, false
	}
	if j := matchClose(s, 0); j == len(s)-1 && s[j] == closer {
		return s[1:j], true
	}
	return s[1:], false
}

// isMoreFields reports whether an element is Spark's "... 10 more fields" truncation marker.
func isMoreFields(s string) bool {
	return strings.HasPrefix(s, "... ") && strings.HasSuffix(s, " more fields")
}

// exprList parses a bracketed list "[a#1, b#2, ... 3 more fields]" into expressions, leaving
// out the truncation marker. ok is false when the brackets do not balance.
func exprList(s string) (out []plan.Expr, ok bool) {
	inner, closed := unwrap(s, '[', ']')
	parts, balanced := plan.SplitArgs(inner)
	return exprs(parts), closed && balanced
}

// exprs turns already split parts into expressions.
func exprs(parts []string) []plan.Expr {
	if len(parts) == 0 {
		return nil
	}
	out := make([]plan.Expr, 0, len(parts))
	for _, p := range parts {
		if p == "" || isMoreFields(p) {
			continue
		}
		out = append(out, newExpr(p))
	}
	return out
}

// stringList parses a bracketed list into its printed elements.
func stringList(s string) []string {
	inner, _ := unwrap(s, '[', ']')
	parts, _ := plan.SplitArgs(inner)
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ParseExpr reads one expression as Spark prints it ("(k#1 = 5)", "sum(v#2L) AS s#7L") or
// as SQL writes a condition ("k IS NOT NULL"): Raw is the text without surrounding spaces,
// Text drops every attribute's expression id, Refs lists the attributes and X is the tree.
// It never fails: what it cannot read is an OpOther node keeping its text.
func ParseExpr(raw string) plan.Expr { return newExpr(strings.TrimSpace(raw)) }

// newExpr builds an Expr from its printed text: Text drops every attribute's expression id,
// Refs lists the attributes, X is the tree.
func newExpr(raw string) plan.Expr {
	e := exprText(raw)
	e.X = parseX(raw, len(e.Refs) > 0)
	return e
}

// exprText builds an Expr's Raw, Text and Refs, without its tree.
func exprText(raw string) plan.Expr {
	e := plan.Expr{Raw: raw, Text: raw}
	n := strings.Count(raw, "#")
	if n == 0 {
		return e
	}
	e.Refs = make([]plan.Attr, 0, n)
	var b strings.Builder
	b.Grow(len(raw))
	last := 0
	for i := 0; i < len(raw); i++ {
		if raw[i] != '#' {
			continue
		}
		end, id, long, ok := idAt(raw, i)
		if !ok {
			continue
		}
		if i == 0 || !isNameEnd(raw[i-1]) {
			continue // "[id=#5]", "State #9": no attribute name before the id
		}
		if start := nameStart(raw, i); start < i {
			e.Refs = append(e.Refs, plan.Attr{Name: stripIDs(raw[start:i]), ID: id, Long: long})
		}
		b.WriteString(raw[last:i])
		last = end
		i = end - 1
	}
	if last == 0 {
		if len(e.Refs) == 0 {
			e.Refs = nil
		}
		return e
	}
	b.WriteString(raw[last:])
	e.Text = b.String()
	return e
}

// stripIDs returns s without the expression ids of its attributes.
func stripIDs(s string) string {
	if strings.IndexByte(s, '#') < 0 {
		return s
	}
	return exprText(s).Text
}

// idAt reads an expression id at s[i] == '#': "#12", "#12L", "#x", "#xL" (Spark's normalised
// tests) or a bare "#" (Hyperspace's templates). end is the index after the id.
func idAt(s string, i int) (end int, id string, long, ok bool) {
	j := i + 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	id = s[i+1 : j]
	if id == "" && j < len(s) && s[j] == 'x' {
		j++
		id = "x"
	}
	if j < len(s) && s[j] == 'L' && id != "" {
		long = true
		j++
	}
	if j < len(s) && isIdentByte(s[j]) {
		return 0, "", false, false // "#xyz", "#1a": not an id
	}
	return j, id, long, true
}

// isNameEnd reports whether c can end an attribute name printed before an id.
func isNameEnd(c byte) bool {
	switch c {
	case ' ', ',', '=', '(', '[', '{', '\t', '#':
		return false
	}
	return true
}

// maxNameLen bounds the backward scan for an attribute name, keeping the scan linear on
// pathological input; a longer name is still stripped of its id but not listed in Refs.
const maxNameLen = 512

// nameStart returns where the attribute name ending at s[i] begins: names may hold balanced
// parentheses and brackets ("max(val)#5", "sort_array(x)[0]#7") but stop at a space, comma,
// "=", or an unbalanced opening bracket. It returns i when no name is found.
func nameStart(s string, i int) int {
	depth := 0
	j := i
	for j > 0 && i-j < maxNameLen {
		c := s[j-1]
		switch {
		case c == ')' || c == ']':
			depth++
		case c == '(' || c == '[':
			if depth == 0 {
				return j
			}
			depth--
		case depth == 0 && (c == ' ' || c == ',' || c == '=' || c == '{' || c == '\t' || c == '#'):
			return j
		}
		j--
	}
	if depth != 0 || j > 0 {
		return i
	}
	return 0
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// sortOrder parses "k#1 ASC NULLS FIRST"; a missing direction means ascending, and missing
// null ordering takes Spark's default for the direction.
func sortOrder(s string) plan.SortOrder {
	s = strings.TrimSpace(s)
	o := plan.SortOrder{NullsFirst: true}
	if t, ok := strings.CutSuffix(s, " NULLS FIRST"); ok {
		s, o.NullsFirst = t, true
	} else if t, ok := strings.CutSuffix(s, " NULLS LAST"); ok {
		s, o.NullsFirst = t, false
	} else {
		o.NullsFirst = !strings.HasSuffix(s, " DESC")
	}
	if t, ok := strings.CutSuffix(s, " DESC"); ok {
		s, o.Desc = t, true
	} else {
		s = strings.TrimSuffix(s, " ASC")
	}
	o.Expr = newExpr(s)
	return o
}

// sortOrders parses a list of sort orders from split parts.
func sortOrders(parts []string) []plan.SortOrder {
	out := make([]plan.SortOrder, 0, len(parts))
	for _, p := range parts {
		if p == "" || isMoreFields(p) {
			continue
		}
		out = append(out, sortOrder(p))
	}
	return out
}

// orderList parses a bracketed list of sort orders.
func orderList(s string) []plan.SortOrder {
	inner, _ := unwrap(s, '[', ']')
	parts, _ := plan.SplitArgs(inner)
	return sortOrders(parts)
}

// partitioning parses an Exchange's partitioning argument: "hashpartitioning(k#1, 200)",
// "rangepartitioning(k#1 ASC NULLS FIRST, 200)", "SinglePartition", "RoundRobinPartitioning(10)",
// "UnknownPartitioning(0)", "KeyGroupedPartitioning(…)". Unknown names keep their text as kind.
func partitioning(s string) plan.Partitioning {
	s = strings.TrimSpace(s)
	p := plan.Partitioning{Raw: s}
	name, args, hasArgs := strings.Cut(s, "(")
	p.Kind = plan.PartitioningKind(strings.TrimSpace(name))
	if !hasArgs {
		return p
	}
	args = strings.TrimSuffix(args, ")")
	parts, _ := plan.SplitArgs(args)
	if n := len(parts); n > 0 {
		if v, err := strconv.Atoi(parts[n-1]); err == nil {
			p.NumPartitions = v
			parts = parts[:n-1]
		}
	}
	switch p.Kind {
	case plan.RangePartitioning:
		p.Orders = sortOrders(parts)
	case plan.SinglePartition:
		p.NumPartitions = 1 // printed without a count; Spark's SinglePartition has one partition
	case plan.RoundRobinPartitioning, plan.UnknownPartitioning:
	default:
		p.Keys = exprs(parts)
	}
	return p
}
