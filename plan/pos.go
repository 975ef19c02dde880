package plan

import "fmt"

// A Pos is a position in a user's input. Line and Col are 1-based; Col counts bytes, as in
// go/token. The zero Pos means "no position".
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col, leaving out the parts that are unknown.
func (p Pos) String() string {
	switch {
	case !p.IsValid() && p.File == "":
		return "-"
	case !p.IsValid():
		return p.File
	case p.Col <= 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// A Span is the stretch of input a value came from: Start is the first byte, End the position
// just after the last one (End may be the zero Pos when only the start is known).
type Span struct {
	Start Pos
	End   Pos
}

// String formats the span by its start.
func (s Span) String() string { return s.Start.String() }

// Before orders positions by file, line and column: it reports whether p comes before q.
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Contains reports whether p lies in s: in its file, not before its start and not past its
// end, End's own column included. With no End known, s is the rest of its start line; an End
// without a column ends with its line.
func (s Span) Contains(p Pos) bool {
	if p.File != s.Start.File || p.Before(s.Start) {
		return false
	}
	end := s.End
	if !end.IsValid() {
		end = Pos{File: s.Start.File, Line: s.Start.Line}
	}
	if p.Line != end.Line {
		return p.Line < end.Line
	}
	return end.Col <= 0 || p.Col <= end.Col
}
