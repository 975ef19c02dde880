// Package perr holds the positioned error every bucketlint parser returns. It is a leaf so that
// each sub-parser can import it; package parser re-exports it as parser.Error.
package perr

import (
	"fmt"
	"sort"

	"github.com/bucketlint/bucketlint/plan"
)

// An Error is a problem found in a user's input, at a position.
type Error struct {
	Pos plan.Pos
	Msg string
}

// Error formats the error as file:line:col: message.
func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Pos, e.Msg) }

// Errorf returns an Error at pos with a formatted message.
func Errorf(pos plan.Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// MaxPerFile is how many errors a parser reports for one file before it stops listing them,
// as go/scanner.ErrorList does.
const MaxPerFile = 10

// A List is a list of errors in one or more files.
type List []*Error

// Add appends an error at pos.
func (l *List) Add(pos plan.Pos, format string, args ...any) {
	*l = append(*l, Errorf(pos, format, args...))
}

// Sort orders the list by file, line and column.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Capped returns the list sorted and cut to MaxPerFile errors per file, with one final error
// per cut file saying how many more there were.
func (l List) Capped() List {
	l.Sort()
	var out List
	count := map[string]int{}
	last := map[string]plan.Pos{}
	for _, e := range l {
		count[e.Pos.File]++
		if count[e.Pos.File] <= MaxPerFile {
			out = append(out, e)
			last[e.Pos.File] = e.Pos
		}
	}
	seen := map[string]bool{}
	var final List
	for _, e := range out {
		final = append(final, e)
		f := e.Pos.File
		if n := count[f]; n > MaxPerFile && e.Pos == last[f] && !seen[f] {
			seen[f] = true
			final = append(final, Errorf(plan.Pos{File: f, Line: e.Pos.Line, Col: e.Pos.Col}, "%d more errors", n-MaxPerFile))
		}
	}
	return final
}

// Err returns the list as an error, nil when empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Error joins the messages, one per line.
func (l List) Error() string {
	s := ""
	for i, e := range l {
		if i > 0 {
			s += "\n"
		}
		s += e.Error()
	}
	return s
}
