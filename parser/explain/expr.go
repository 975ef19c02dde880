package explain

import (
	"strconv"
	"strings"
	"sync"

	"github.com/bucketlint/bucketlint/plan"
)

// matchClose returns the index of the bracket closing the one at s[i] (any of "([{"), or -1
// when it is not closed.
func matchClose(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch bracket[s[j]] {
		case 0:
		case 1:
			depth++
		default:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// bracket is 1 for an opening bracket, parenthesis or brace, 2 for a closing one.
var bracket = [256]uint8{'(': 1, '[': 1, '{': 1, ')': 2, ']': 2, '}': 2} //nolint:gochecknoglobals // a constant table

// unwrap removes one pair of enclosing brackets ("[…]") when s starts with open; a list cut
// short ("[a#1, b#2...") loses only its opening bracket. ok is false when s does not start
// with open or the bracket is not closed at the end of s.
func unwrap(s string, open, closer byte) (inner string, ok bool) {
	s = plan.TrimSpace(s)
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
func (a *arena) exprList(s string) (out []plan.Expr, ok bool) {
	if t := plan.TrimSpace(s); len(t) > 2 && t[0] == '[' && t[len(t)-1] == ']' {
		var buf [splitBuf]string
		if parts, ok := plainList(buf[:0], t[1:len(t)-1]); ok {
			return a.exprs(parts), true
		}
	}
	return a.splitList(s)
}

// plainList splits a list's inside at its commas when it holds no bracket, brace or quote,
// as most lists (of attributes, of simple keys) do: then its brackets balance and
// plan.SplitArgs would split it the same way. ok is false for any other list.
func plainList(buf []string, s string) (parts []string, ok bool) {
	s = plan.TrimSpace(s)
	if s == "" {
		return buf, true
	}
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case !listSpecial[c]:
		case c == ',':
			buf = append(buf, plan.TrimSpace(s[start:i]))
			start = i + 1
		default:
			return nil, false
		}
	}
	return append(buf, plan.TrimSpace(s[start:])), true
}

// listSpecial are the bytes plainList stops at: the comma it splits at, and the brackets,
// braces and quotes it leaves to plan.SplitArgs.
var listSpecial = [256]bool{',': true, '(': true, ')': true, '[': true, ']': true, '{': true, '}': true, '\'': true, '"': true, '`': true} //nolint:gochecknoglobals // a constant table

// splitList is exprList without the fast path for lists of attributes.
func (a *arena) splitList(s string) (out []plan.Expr, ok bool) {
	inner, closed := unwrap(s, '[', ']')
	var buf [splitBuf]string
	parts, balanced := plan.AppendSplitArgs(buf[:0], inner)
	return a.exprs(parts), closed && balanced
}

// exprs turns already split parts into expressions.
func (a *arena) exprs(parts []string) []plan.Expr {
	if len(parts) == 0 {
		return nil
	}
	n := 0
	for _, p := range parts {
		if p != "" && !isMoreFields(p) {
			n++
		}
	}
	if n == 0 {
		return []plan.Expr{}
	}
	out := a.exprSlice(n)
	for _, p := range parts {
		if p == "" || isMoreFields(p) {
			continue
		}
		out = append(out, a.newExpr(p))
	}
	return out
}

// splitBuf is how many parts of a split the parser keeps on its stack before allocating.
const splitBuf = 16

// stringList parses a bracketed list into its printed elements, appended to buf.
func stringList(buf []string, s string) []string {
	inner, _ := unwrap(s, '[', ']')
	parts, _ := plan.AppendSplitArgs(buf, inner)
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
func ParseExpr(raw string) plan.Expr {
	var a arena
	return a.newExpr(strings.TrimSpace(raw))
}

// newExpr returns the expression printed as raw. In a Parse its parts are read when first
// asked, by the file's reader (plan.ReadLater): most of a plan's expressions are never looked
// at. Otherwise (ParseExpr) they are read now.
func (a *arena) newExpr(raw string) plan.Expr {
	if a.later != nil {
		return plan.ReadLater(raw, a.later)
	}
	e := a.read(raw)
	return plan.NewExpr(raw, e.Text, e.Refs, e.X)
}

// A reader reads the expressions of one Parse on first use, one at a time, from any
// goroutine. An expression printed again in the same Parse (an operator's output is printed
// by every operator above it, a key by the exchange and the join) shares the first one's
// tree and reference list, which nothing changes after reading.
type reader struct {
	mu sync.Mutex
	a  arena
}

// ReadExpr returns the parts of the expression printed as raw.
func (r *reader) ReadExpr(raw string) plan.ExprParts {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.a.read(raw)
}

// read returns the parts of the expression printed as raw: Text drops every attribute's
// expression id, Refs lists the attributes, X is the tree. An expression read before by the
// same arena gives the same parts.
func (a *arena) read(raw string) plan.ExprParts {
	if e, ok := a.seen[raw]; ok {
		return e
	}
	var e plan.ExprParts
	if hash, id, long, ok := bareAttr(raw); ok {
		e = a.attrExpr(raw, hash, id, long)
	} else {
		e = a.parsedExpr(raw)
	}
	if a.seen == nil {
		a.seen = map[string]plan.ExprParts{}
	}
	a.seen[raw] = e
	return e
}

// parsedExpr is read without the fast path for attributes.
func (a *arena) parsedExpr(raw string) plan.ExprParts {
	e := a.exprText(raw)
	e.X = a.parseX(raw, len(e.Refs) > 0)
	return e
}

// bareAttr reads the commonest expression, an attribute alone ("ss_item_sk#12",
// "d_year#5L", "k#x"): a name of letters, digits, '_' and '$' not starting with a digit,
// then its id, and nothing else. hash is the index of '#'. What it accepts, newExpr's
// general path reads the same way (TestBareAttrAgrees, FuzzBareAttr).
func bareAttr(raw string) (hash int, id string, long, ok bool) {
	i := 0
	for i < len(raw) && i < maxBareName && (isIdentByte(raw[i]) || raw[i] == '$') {
		i++
	}
	if i == 0 || i == len(raw) || raw[i] != '#' || isDigit(raw[0]) {
		return 0, "", false, false
	}
	end, id, long, ok := idAt(raw, i)
	if !ok || end != len(raw) {
		return 0, "", false, false
	}
	return i, id, long, true
}

// maxBareName bounds the names bareAttr reads, well inside nameStart's maxNameLen.
const maxBareName = 256

// attrExpr builds the Expr of an attribute alone, read by bareAttr: its text is its name,
// its one reference and its tree the attribute.
func (a *arena) attrExpr(raw string, hash int, id string, long bool) plan.ExprParts {
	name := raw[:hash]
	refs := a.refs(1)[:1]
	refs[0] = plan.Attr{Name: name, ID: id, Long: long}
	x := a.node(plan.X{Op: plan.OpColumn, Name: strings.ToLower(name), ID: id, Long: long, Raw: raw})
	return plan.ExprParts{Text: name, Refs: refs, X: x}
}

// exprText builds an Expr's Raw, Text and Refs, without its tree.
func (a *arena) exprText(raw string) plan.ExprParts {
	e := plan.ExprParts{Text: raw}
	n := strings.Count(raw, "#")
	if n == 0 {
		return e
	}
	refs := a.refScratch[:0]
	var cut bool
	e.Text, cut = cutIDs(raw, &refs)
	switch {
	case cut && len(refs) == 0:
		e.Refs = []plan.Attr{} // an id cut with no name before it: empty, not nil, as always
	case cut:
		e.Refs = append(a.refs(len(refs)), refs...)
	}
	a.refScratch = refs[:0]
	return e
}

// cutIDs returns raw without the expression ids of its attributes and whether it cut any;
// when refs is not nil, the attributes are appended to it.
func cutIDs(raw string, refs *[]plan.Attr) (string, bool) {
	var b []byte
	cuts, last, first := 0, 0, 0
	for i := strings.IndexByte(raw, '#'); i >= 0; {
		end, id, long, ok := idAt(raw, i)
		if ok && i > 0 && isNameEnd(raw[i-1]) { // not "[id=#5]", "State #9": no name before
			if refs != nil {
				if start := nameStart(raw, i); start < i {
					*refs = append(*refs, plan.Attr{Name: stripIDs(raw[start:i]), ID: id, Long: long})
				}
			}
			switch cuts {
			case 0:
				first = i
			case 1:
				b = make([]byte, 0, len(raw))
				b = append(b, raw[:first]...)
				fallthrough
			default:
				b = append(b, raw[last:i]...)
			}
			cuts++
			last = end
			i = end
		} else {
			i++
		}
		k := strings.IndexByte(raw[i:], '#')
		if k < 0 {
			break
		}
		i += k
	}
	switch {
	case cuts == 0:
		return raw, false
	case cuts == 1 && last == len(raw):
		return raw[:first], true
	case cuts == 1:
		return raw[:first] + raw[last:], true
	}
	return string(append(b, raw[last:]...)), true
}

// stripIDs returns s without the expression ids of its attributes.
func stripIDs(s string) string {
	t, _ := cutIDs(s, nil)
	return t
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
func (a *arena) sortOrder(s string) plan.SortOrder {
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
	o.Expr = a.newExpr(s)
	return o
}

// sortOrders parses a list of sort orders from split parts.
func (a *arena) sortOrders(parts []string) []plan.SortOrder {
	out := make([]plan.SortOrder, 0, len(parts))
	for _, p := range parts {
		if p == "" || isMoreFields(p) {
			continue
		}
		out = append(out, a.sortOrder(p))
	}
	return out
}

// orderList parses a bracketed list of sort orders.
func (a *arena) orderList(s string) []plan.SortOrder {
	inner, _ := unwrap(s, '[', ']')
	var buf [splitBuf]string
	parts, _ := plan.AppendSplitArgs(buf[:0], inner)
	return a.sortOrders(parts)
}

// partitioning parses an Exchange's partitioning argument: "hashpartitioning(k#1, 200)",
// "rangepartitioning(k#1 ASC NULLS FIRST, 200)", "SinglePartition", "RoundRobinPartitioning(10)",
// "UnknownPartitioning(0)", "KeyGroupedPartitioning(…)". Unknown names keep their text as kind.
func (a *arena) partitioning(s string) plan.Partitioning {
	s = strings.TrimSpace(s)
	p := plan.Partitioning{Raw: s}
	name, args, hasArgs := strings.Cut(s, "(")
	p.Kind = plan.PartitioningKind(strings.TrimSpace(name))
	if !hasArgs {
		return p
	}
	args = strings.TrimSuffix(args, ")")
	var buf [splitBuf]string
	parts, _ := plan.AppendSplitArgs(buf[:0], args)
	if n := len(parts); n > 0 {
		if v, err := strconv.Atoi(parts[n-1]); err == nil {
			p.NumPartitions = v
			parts = parts[:n-1]
		}
	}
	parts = keyGroupedArgs(&p, parts)
	switch p.Kind {
	case plan.RangePartitioning:
		p.Orders = a.sortOrders(parts)
	case plan.SinglePartition:
		p.NumPartitions = 1 // printed without a count; Spark's SinglePartition has one partition
	case plan.RoundRobinPartitioning, plan.UnknownPartitioning:
	default:
		p.Keys = a.exprs(parts)
	}
	return p
}

// keyGroupedArgs reads Spark 4.x's "keygroupedpartitioning(<expressions>, <count>, <partition
// values>…, <flags>)": the kind is named as plan names it, the count is the first integer
// argument, and the expressions before it are returned as the keys' arguments. Any other
// partitioning's arguments are returned as they are.
func keyGroupedArgs(p *plan.Partitioning, parts []string) []string {
	if !strings.EqualFold(string(p.Kind), string(plan.KeyGroupedPartitioning)) {
		return parts
	}
	p.Kind = plan.KeyGroupedPartitioning
	for i, a := range parts {
		if v, err := strconv.Atoi(strings.TrimSpace(a)); err == nil {
			p.NumPartitions = v
			return parts[:i]
		}
	}
	return parts
}
