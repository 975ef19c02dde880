package sql

import (
	"fmt"
	"strings"
)

// The statement parser: hand-written recursive descent over scan's tokens, one token of
// lookahead in most places and a bounded scan of balanced brackets in the few places Spark's
// grammar needs more (a lambda's parameter list, a subquery or a tuple after "("). Every
// token is read once, so parsing is linear in the statement's length. It fills the same
// grammar structs (grammar_*.go) the participle grammar defines, with the same positions:
// Pos is the offset of a node's first token, EndPos the end of its last.
//
// After the first error every call returns at once (the cursor sits on the end token), so
// an error costs no more than the tokens read before it.

// maxDepth bounds the parser's own recursion, counted at expressions, queries and types;
// tooDeep rejects deeper bracket nesting before parsing, this catches the rest (a chain of
// NOTs, of nested set operations) with a positioned error instead of a stack overflow.
const maxDepth = 4 * maxNesting

// rd is one statement's parse.
type rd struct {
	toks  []token
	i     int
	err   *rdErr
	depth int
	// match holds the index of each bracket's partner (-1 for none), built on first use.
	match []int32
	// memos remember lookahead answers per token (memo).
	memos [2][]int8
	// buf lends match and memos their memory (nil: allocate).
	buf *scratch
	// uses are the version-dependent constructs read (version.go).
	uses []featUse
}

// scratch is the memory the statements of one file reuse: each statement's tokens, bracket
// partners and lookahead memos live only while it is parsed (what outlives the parse is
// copied out of them), so one set of buffers serves them all.
type scratch struct {
	toks  []token
	match []int32
	memos [2][]int8
	// nodes are the parser's most frequent nodes of the statement being read (slab.go).
	nodes nodeSlabs
	// p is the parse that parser hands out: a file's parses are made one after another, and
	// none is used once the next is made.
	p rd
}

// release makes the parser nodes of the statement read last available to the next one; no
// node of it may be used after.
func (s *scratch) release() { s.nodes.reset() }

// tokens scans src into the buffer and returns the tokens, valid until the next call.
func (s *scratch) tokens(src string) []token {
	s.toks = scanInto(s.toks, src)
	return s.toks
}

// parser returns a parse over toks (from tokens) that borrows the buffer's memory; it is
// valid until the next call.
func (s *scratch) parser(toks []token) *rd {
	s.p = rd{toks: toks, buf: s}
	return &s.p
}

// rdErr is the first syntax error of a parse.
type rdErr struct {
	off int
	msg string
}

// query parses the whole of p's tokens as a query.
func (p *rd) query() (*queryStmt, *rdErr) {
	if !p.startsStatementQuery() && !p.is("INSERT") {
		p.fail("a query")
	}
	q := p.queryStmt()
	if p.err == nil && p.tok().kind != tEOF {
		if p.isAny("ORDER", "GROUP", "SORT", "CLUSTER", "DISTRIBUTE") && !isTok(p.ahead(1), "BY") {
			p.next()
			p.fail(`"BY"`)
		}
		p.fail("")
	}
	return q, p.err
}

// upper is strings.ToUpper.
func upper(s string) string { return strings.ToUpper(s) }

// tok returns the current token.
func (p *rd) tok() token { return p.toks[p.i] }

// ahead returns the token n places after the current one (the end token past the end).
func (p *rd) ahead(n int) token {
	if j := p.i + n; j < len(p.toks) {
		return p.toks[j]
	}
	return p.toks[len(p.toks)-1]
}

// isTok reports whether t is the keyword or operator w (keywords match identifiers case
// insensitively; quoted names never match a keyword).
func isTok(t token, w string) bool {
	switch t.kind {
	case tIdent:
		return len(t.text) == len(w) && foldEq(t.text, w)
	case tOp:
		return t.text == w
	}
	return false
}

// foldEq is strings.EqualFold for a and w of the same length, w a keyword (ASCII letters,
// digits and _): setting bit 5 of two bytes makes them equal exactly when they are one
// letter in either case or the same digit or _, and a multi-byte character never equals
// an ASCII byte; for strings of equal length no other Unicode folding can match (the two
// folds to an ASCII letter, K and ſ, are longer than it).
func foldEq(a, w string) bool {
	for i := 0; i < len(w); i++ {
		if a[i]|0x20 != w[i]|0x20 {
			return false
		}
	}
	return true
}

// is reports whether the current token is w.
func (p *rd) is(w string) bool { return isTok(p.toks[p.i], w) }

// isAny reports whether the current token is one of ws.
func (p *rd) isAny(ws ...string) bool {
	t := p.toks[p.i]
	for _, w := range ws {
		if len(t.text) == len(w) && sameLen(t, w) {
			return true
		}
	}
	return false
}

// at reports whether the tokens from the current one are ws, in order.
func (p *rd) at(ws ...string) bool {
	for k, w := range ws {
		if t := p.ahead(k); len(t.text) != len(w) || !sameLen(t, w) {
			return false
		}
	}
	return true
}

// sameLen is isTok for a w as long as t's text, which isAny and at compare without the
// call a string comparison makes when w is not a constant.
func sameLen(t token, w string) bool {
	switch t.kind {
	case tIdent:
		return foldEq(t.text, w)
	case tOp:
		for i := 0; i < len(w); i++ {
			if t.text[i] != w[i] {
				return false
			}
		}
		return true
	}
	return false
}

// next consumes the current token and returns it.
func (p *rd) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// accept consumes the current token if it is w.
func (p *rd) accept(w string) bool {
	if p.is(w) {
		p.i++
		return true
	}
	return false
}

// acceptSeq consumes the tokens ws if they come next, in order, and reports whether it did.
func (p *rd) acceptSeq(ws ...string) bool {
	if !p.at(ws...) {
		return false
	}
	p.i += len(ws)
	return true
}

// expect consumes w or records an error.
func (p *rd) expect(w string) bool {
	if p.accept(w) {
		return true
	}
	p.fail(fmt.Sprintf("%q", strings.ToUpper(w)))
	return false
}

// pos is the position of the current token.
func (p *rd) pos() pos { return pos{Offset: p.toks[p.i].off} }

// endPos is the end of the last consumed token.
func (p *rd) endPos() pos {
	if p.i == 0 {
		return pos{Offset: p.toks[0].off}
	}
	return pos{Offset: p.toks[p.i-1].end}
}

// fail records a syntax error at the current token, naming what was expected when that is
// one thing, and moves to the end so that every caller returns.
func (p *rd) fail(expected string) {
	if p.err != nil {
		return
	}
	t := p.tok()
	what := fmt.Sprintf("%q", t.text)
	if t.kind == tEOF {
		what = `"<EOF>"`
	}
	msg := "unexpected token " + what
	if expected != "" {
		msg += " (expected " + expected + ")"
	}
	p.failAt(t.off, msg)
}

// failAt records an error with its own message at offset off.
func (p *rd) failAt(off int, msg string) {
	if p.err == nil {
		p.err = &rdErr{off: off, msg: msg}
	}
	p.i = len(p.toks) - 1
}

// enter counts one level of recursion; false (with an error) past maxDepth.
func (p *rd) enter() bool {
	p.depth++
	if p.depth > maxDepth {
		p.failAt(p.tok().off, fmt.Sprintf("nesting deeper than %d levels is not read", maxDepth))
		return false
	}
	return true
}

func (p *rd) leave() { p.depth-- }

// isName reports whether t can be a name part: an identifier, a quoted name or a template.
func isName(t token) bool { return t.kind == tIdent || t.kind == tQuoted || t.kind == tTemplate }

// matching returns the index of the bracket closing the one at index i, or -1.
func (p *rd) matching(i int) int {
	if p.match == nil {
		p.match = borrow(p.buf, len(p.toks), func(s *scratch) *[]int32 { return &s.match })
		var open []int32
		for j, t := range p.toks {
			p.match[j] = -1
			switch {
			case t.kind != tOp:
			case t.text == "(" || t.text == "[":
				open = append(open, int32(j))
			case (t.text == ")" || t.text == "]") && len(open) > 0:
				p.match[open[len(open)-1]] = int32(j)
				open = open[:len(open)-1]
			}
		}
	}
	if i < 0 || i >= len(p.match) {
		return -1
	}
	return int(p.match[i])
}

// memo returns the remembered answer of question q (0 or 1) about the token at index i, or
// computes and remembers it: the lookahead questions that walk into nested brackets are
// answered once per token, which keeps deep nesting linear.
func (p *rd) memo(q, i int, f func() bool) bool {
	if p.memos[q] == nil {
		p.memos[q] = borrow(p.buf, len(p.toks), func(s *scratch) *[]int8 { return &s.memos[q] })
	}
	if i < 0 || i >= len(p.toks) {
		return f()
	}
	switch p.memos[q][i] {
	case 1:
		return true
	case 2:
		return false
	}
	v := f()
	p.memos[q][i] = 2
	if v {
		p.memos[q][i] = 1
	}
	return v
}

// borrow returns n zeroed elements of the buffer of s that at selects, grown when too
// short, or new ones when s is nil.
func borrow[T any](s *scratch, n int, at func(*scratch) *[]T) []T {
	if s == nil {
		return make([]T, n)
	}
	b := at(s)
	if cap(*b) < n {
		*b = make([]T, n)
	}
	out := (*b)[:n]
	clear(out)
	return out
}

// skipGroup consumes a bracketed group starting at the current "(" and returns its tokens
// as innerToks (nested groups kept), or records an error.
func (p *rd) skipGroup() []*innerTok {
	if !p.is("(") {
		p.fail(`"("`)
		return nil
	}
	end := p.matching(p.i)
	if end < 0 {
		p.fail("")
		return nil
	}
	out := rawToks(p.toks[p.i+1 : end])
	p.i = end + 1
	return out
}

// rawToks turns a token range with balanced parentheses into innerToks, groups nested.
func rawToks(toks []token) []*innerTok {
	// Each list's length is counted first (n[0] the top level's, n[i+1] that of the group
	// opened at i), so that all lists are cut from one array and never regrown.
	n := make([]int32, len(toks)+1)
	open := []int{0}
	for i, t := range toks {
		switch {
		case t.kind == tOp && t.text == "(":
			n[open[len(open)-1]]++
			open = append(open, i+1)
		case t.kind == tOp && t.text == ")" && len(open) > 1:
			open = open[:len(open)-1]
		default:
			n[open[len(open)-1]]++
		}
	}
	total := 0
	for _, k := range n {
		total += int(k)
	}
	lists := make([]*innerTok, total)
	cut := func(k int) []*innerTok {
		l := lists[:0:n[k]]
		lists = lists[n[k]:]
		return l
	}
	out := cut(0)
	stack := []*[]*innerTok{&out}
	// every token is at most one innerTok: they are allocated together
	pool := make([]innerTok, len(toks))
	for i, t := range toks {
		cur := stack[len(stack)-1]
		switch {
		case t.kind == tOp && t.text == "(":
			g := &pool[i]
			g.Group = cut(i + 1)
			*cur = append(*cur, g)
			stack = append(stack, &g.Group)
		case t.kind == tOp && t.text == ")" && len(stack) > 1:
			stack = stack[:len(stack)-1]
		default:
			pool[i].Tok = t.text
			*cur = append(*cur, &pool[i])
		}
	}
	return out
}

// adjacent reports whether the tokens at i and i+1 touch (no blank between them).
func (p *rd) adjacent(i int) bool {
	return i+1 < len(p.toks) && p.toks[i].end == p.toks[i+1].off
}

// shiftOp returns the shift operator (<<, >>, >>>) made of adjacent < or > characters at the
// current token, or "".
func (p *rd) shiftOp() string {
	t := p.tok()
	if t.kind != tOp || (t.text != "<" && t.text != ">") || !p.adjacent(p.i) || p.ahead(1).text != t.text {
		return ""
	}
	if t.text == ">" && p.adjacent(p.i+1) && p.ahead(2).text == ">" && p.ahead(2).kind == tOp {
		return ">>>"
	}
	return t.text + t.text
}

// isPipe reports whether the current tokens are the pipe operator |> (adjacent | and >).
func (p *rd) isPipe() bool {
	return p.is("|") && p.adjacent(p.i) && isTok(p.ahead(1), ">")
}
