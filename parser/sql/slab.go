package sql

// slabFirst is the size of a slab's first chunk, each next chunk is twice the one before up
// to slabChunk nodes; slabKeep is how many chunks it keeps from one statement to the next (a
// statement that needed more gives them back to the collector, so a file's memory does not
// stay at its largest statement's). Small first chunks keep a parse of one short statement
// (a spark.sql string, a small file) from allocating and zeroing slabChunk nodes of each type.
const (
	slabFirst = 8
	slabChunk = 256
	slabKeep  = 32
)

// A slab hands out zeroed nodes of one type from chunks that the statements of a file reuse:
// the parser's structs live only while their statement is converted into plan values (what
// outlives the parse is copied out of them), so one statement's nodes can be the next one's.
// Nodes are never moved: a chunk, once allocated, stays where it is until reset.
type slab[T any] struct {
	chunks [][]T
	c, i   int // the chunk in use and the next node in it
}

// get returns a zeroed node.
func (s *slab[T]) get() *T {
	if s.c < len(s.chunks) && s.i == len(s.chunks[s.c]) {
		s.c, s.i = s.c+1, 0
	}
	if s.c == len(s.chunks) {
		s.chunks = append(s.chunks, make([]T, min(slabFirst<<min(s.c, 8), slabChunk)))
	}
	s.i++
	return &s.chunks[s.c][s.i-1]
}

// reset zeroes the nodes handed out since the last reset and makes them available again.
func (s *slab[T]) reset() {
	for c := 0; c <= s.c && c < len(s.chunks); c++ {
		used := len(s.chunks[c])
		if c == s.c {
			used = s.i
		}
		clear(s.chunks[c][:used])
	}
	if len(s.chunks) > slabKeep {
		clear(s.chunks[slabKeep:])
		s.chunks = s.chunks[:slabKeep]
	}
	s.c, s.i = 0, 0
}

// nodeSlabs are a slab for each of the parser's most frequent nodes.
type nodeSlabs struct {
	operands slab[operand]
	names    slab[qnameBlock]
	selects  slab[selectBlock]
	items    slab[selectItem]
	factors  slab[tableFactor]
	unaries  slab[unaryBlock]
}

func (n *nodeSlabs) reset() {
	n.operands.reset()
	n.names.reset()
	n.selects.reset()
	n.items.reset()
	n.factors.reset()
	n.unaries.reset()
}

// node returns a zeroed node from the slab of the parse's buffer that at selects, or a new
// one when the parse has no buffer (the DDL grammar's, which keeps its nodes).
func node[T any](p *rd, at func(*nodeSlabs) *slab[T]) *T {
	if p.buf == nil {
		return new(T)
	}
	return at(&p.buf.nodes).get()
}

// unaryBlock is a unary operand and its primary, which come together.
type unaryBlock struct {
	u  unary
	pr primary
}
