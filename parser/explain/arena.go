package explain

import "github.com/bucketlint/bucketlint/plan"

// An arena hands out the expression nodes, argument lists, attribute lists and expression
// lists of one Parse from chunks: an explain file holds hundreds of thousands of small
// values, and one allocation each was most of the parser's time. A chunk is never shared
// between files. A new chunk holds an eighth of what its kind took so far (from minChunk
// to maxChunk values), so a small file holds no large chunk and at most about an eighth of
// the values allocated go unused. Every slice handed out is capped at its length: appending to
// it copies instead of writing into a neighbour.
type arena struct {
	xs    []plan.X
	ptrs  []*plan.X
	attrs []plan.Attr
	es    []plan.Expr
	ns    []plan.Node
	ds    []detail
	fs    []plan.Field
	next  [7]int // how many values of each kind the chunks held so far

	// refScratch collects an expression's references until their number is known.
	refScratch []plan.Attr

	// seen are the expressions read so far, by their text (read).
	seen map[string]plan.ExprParts

	// later, when set, reads the expressions newExpr returns when they are first asked for.
	later *reader

	// stack holds the arguments of the lists being read (innermost last) until their
	// length is known.
	stack []*plan.X
}

const (
	minChunk = 8
	maxChunk = 1024
)

// take returns n values of buf's chunk, starting a new chunk when too few are left; next
// counts the values of buf's kind allocated so far.
func take[T any](buf *[]T, next *int, n int) []T {
	if n > len(*buf) {
		size := max(n, min(max(*next/8, minChunk), maxChunk))
		*next += size
		*buf = make([]T, size)
	}
	s := (*buf)[:n:n]
	*buf = (*buf)[n:]
	return s
}

// node returns a new node holding x.
func (a *arena) node(x plan.X) *plan.X {
	n := &take(&a.xs, &a.next[0], 1)[0]
	*n = x
	return n
}

// list returns a new argument list holding xs; nil when xs is empty.
func (a *arena) list(xs ...*plan.X) []*plan.X {
	if len(xs) == 0 {
		return nil
	}
	out := take(&a.ptrs, &a.next[1], len(xs))
	copy(out, xs)
	return out
}

// refs returns an empty attribute list with room for n.
func (a *arena) refs(n int) []plan.Attr { return take(&a.attrs, &a.next[2], n)[:0] }

// exprSlice returns an empty expression list with room for n.
func (a *arena) exprSlice(n int) []plan.Expr { return take(&a.es, &a.next[3], n)[:0] }

// nodes returns an empty operator list with room for n.
func (a *arena) nodes(n int) []plan.Node { return take(&a.ns, &a.next[4], n)[:0] }

// newDetail returns a new detail block holding d.
func (a *arena) newDetail(d detail) *detail {
	p := &take(&a.ds, &a.next[5], 1)[0]
	*p = d
	return p
}

// fields returns an empty field list with room for n; never nil.
func (a *arena) fields(n int) []plan.Field {
	if n == 0 {
		return []plan.Field{}
	}
	return take(&a.fs, &a.next[6], n)[:0]
}

// push starts collecting a list's arguments on the stack and returns its base.
func (a *arena) push(xs ...*plan.X) int {
	base := len(a.stack)
	a.stack = append(a.stack, xs...)
	return base
}

// pop returns the arguments collected on the stack since base as a list, and drops them
// from the stack.
func (a *arena) pop(base int) []*plan.X {
	out := a.list(a.stack[base:]...)
	clear(a.stack[base:])
	a.stack = a.stack[:base]
	return out
}
