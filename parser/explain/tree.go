package explain

import "strings"

// A rawNode is one operator line of a printed tree, placed by its indentation but not yet
// interpreted.
type rawNode struct {
	text string // the line after its tree marker
	line int    // 0-based line index
	col  int    // byte index of text in the (stripped) line
	// kids and inner are the data children and the inner children, each linked through its
	// next sibling (next).
	kids, inner rawList
	next        *rawNode
	subs        []*rawSub

	// The outline fields of a formatted line, read by readOutline: the codegen stage and
	// prefix length, then the title, id and statistics after the prefix.
	outlined, hasID bool
	stage, pre      int
	title, stats    string
	id              int
}

// A rawList is a list of sibling nodes linked through next, in the order they were added.
type rawList struct {
	first, last *rawNode
	n           int
}

// add appends n to the list.
func (l *rawList) add(n *rawNode) {
	if l.last == nil {
		l.first = n
	} else {
		l.last.next = n
	}
	l.last = n
	l.n++
}

// A rawSub is an adaptive plan's "+- == Final Plan ==" sub-header and the plan under it.
type rawSub struct {
	role string
	line int
	col  int
	root *rawNode
}

// A frame is an open line of the tree being read: a later line with its marker at col is a
// data child of the frame whose text starts at col, and an inner child of the one whose text
// starts at col-3.
type frame struct {
	col  int
	node *rawNode
	sub  *rawSub // a sub-header still waiting for its plan's root line
	dead bool    // a line that could not be placed: its descendants are dropped with it
}

// shape returns the column of a line's tree marker ("+- " or ":- ", -1 when there is none)
// and the column where its text starts. Only blanks and ":" continuation bars may precede
// the marker.
func shape(s string) (marker, text int) {
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case (c == '+' || c == ':') && i+1 < len(s) && s[i+1] == '-' && (i+2 == len(s) || s[i+2] == ' '):
			return i, min(i+3, len(s))
		case c == ':' && (i+1 == len(s) || s[i+1] == ' '):
			i++
			continue
		}
		break
	}
	return -1, i
}

// subHeader returns the role of an adaptive sub-header text "== Final Plan ==".
func subHeader(text string) (string, bool) {
	if !strings.HasPrefix(text, "== ") {
		return "", false
	}
	return header(text)
}

// readTree reads the tree whose root is line i and returns it with the index of the first
// line after it. The tree ends at a blank line or a line that is not part of it.
func (p *parser) readTree(i int) (*rawNode, int) {
	_, col := shape(p.lines[i].s)
	root := p.newRaw(p.lines[i].s[col:], i, col)
	stack := p.frames[:0]
	stack = append(stack, frame{col: col, node: root})
	defer func() { p.frames = stack[:0] }()
	j := i + 1
	for ; j < len(p.lines); j++ {
		s := p.lines[j].s
		marker, col := shape(s)
		if marker < 0 && p.blank(j) { // a line with a marker is not blank
			break
		}
		if marker < 0 {
			top := &stack[len(stack)-1]
			if top.sub == nil || top.sub.root != nil {
				break // text after the tree
			}
			n := p.newRaw(s[col:], j, col)
			top.sub.root = n
			stack = append(stack, frame{col: col, node: n, dead: top.dead})
			continue
		}
		for len(stack) > 1 && stack[len(stack)-1].col > marker {
			stack = stack[:len(stack)-1]
		}
		stack = p.place(stack, j, marker, col)
	}
	return root, j
}

// place attaches the marker line j to its parent on the stack and pushes it.
func (p *parser) place(stack []frame, j, marker, col int) []frame {
	text := p.lines[j].s[col:]
	top := &stack[len(stack)-1]
	if role, ok := subHeader(text); ok {
		if top.col != marker || top.sub != nil {
			if !top.dead {
				p.errorf(j, marker, "plan sub-header %q has no operator above it at column %d", role, marker+1)
			}
			return append(stack, frame{col: col, sub: &rawSub{}, dead: true})
		}
		sub := &rawSub{role: role, line: j, col: col}
		top.node.subs = append(top.node.subs, sub)
		return append(stack, frame{col: col, sub: sub, dead: top.dead})
	}
	n := p.newRaw(text, j, col)
	switch {
	case top.dead:
	case top.sub != nil:
		p.errorf(j, marker, "tree line under plan sub-header %q has no plan root above it", top.sub.role)
		return append(stack, frame{col: col, node: n, dead: true})
	case top.col == marker:
		top.node.kids.add(n)
	case top.col == marker-3:
		top.node.inner.add(n)
	default:
		p.errorf(j, marker, "tree line has no parent: no operator starts at column %d or %d above it", marker+1, marker-2)
		return append(stack, frame{col: col, node: n, dead: true})
	}
	return append(stack, frame{col: col, node: n, dead: top.dead})
}

// rawChunk is how many raw nodes newRaw allocates at once.
const rawChunk = 128

// newRaw returns a raw node, taken from a chunk allocated for many: trees are read line by
// line and a node per line would be one allocation per line.
func (p *parser) newRaw(text string, line, col int) *rawNode {
	if len(p.raws) == 0 {
		n := 1 // the lines up to a blank one: the tree cannot go further
		for k := line + 1; k < len(p.lines) && n < rawChunk && !p.blank(k); k++ {
			n++
		}
		p.raws = make([]rawNode, n)
	}
	n := &p.raws[0]
	p.raws = p.raws[1:]
	*n = rawNode{text: text, line: line, col: col}
	return n
}
