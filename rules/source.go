package rules

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// text is one input file's source with its line starts, to turn positions into byte offsets
// and back.
type text struct {
	file  string
	src   string
	lines []int // byte offset of the start of each line
}

func newText(file string, src []byte) *text {
	t := &text{file: file, src: string(src), lines: []int{0}}
	for i := 0; i < len(t.src); i++ {
		if t.src[i] == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// offset returns the byte offset of p, or -1 when p is outside the text.
func (t *text) offset(p plan.Pos) int {
	if p.Line < 1 || p.Line > len(t.lines) || p.Col < 1 {
		return -1
	}
	o := t.lines[p.Line-1] + p.Col - 1
	if o > len(t.src) {
		return -1
	}
	return o
}

// pos returns the position of byte offset o.
func (t *text) pos(o int) plan.Pos {
	line := 1
	for line < len(t.lines) && t.lines[line] <= o {
		line++
	}
	return plan.Pos{File: t.file, Line: line, Col: o - t.lines[line-1] + 1}
}

// sourceOf returns the text of the file a span is in, nil when the pass has none.
func (p *Pass) sourceOf(s plan.Span) *text {
	if p.Source == nil || s.Start.File == "" {
		return nil
	}
	src := p.Source(s.Start.File)
	if src == nil {
		return nil
	}
	return newText(s.Start.File, src)
}

// bucketCountSpan finds the bucket count inside a bucket clause or call: the n of
// "INTO n BUCKETS" (DDL) or the first argument of "bucketBy(n, …)" (code). ok is false when
// the source is not available or the count is not a plain number there.
func (p *Pass) bucketCountSpan(spec *plan.BucketSpec) (plan.Span, bool) {
	if spec == nil {
		return plan.Span{}, false
	}
	t := p.sourceOf(spec.Span)
	if t == nil {
		return plan.Span{}, false
	}
	return countSpan(t, spec.Span)
}

// countSpan is bucketCountSpan over a text.
func countSpan(t *text, s plan.Span) (plan.Span, bool) {
	start := t.offset(s.Start)
	end := len(t.src)
	if s.End.IsValid() {
		end = t.offset(s.End)
	}
	if start < 0 || end < start {
		return plan.Span{}, false
	}
	clause := strings.ToLower(t.src[start:end])
	at := -1
	if i := strings.Index(clause, "bucketby("); i >= 0 {
		at = i + len("bucketby(")
	} else if i := strings.LastIndex(clause, "into"); i >= 0 {
		at = i + len("into")
	}
	if at < 0 {
		return plan.Span{}, false
	}
	for at < len(clause) && (clause[at] == ' ' || clause[at] == '\t' || clause[at] == '\n' || clause[at] == '\r') {
		at++
	}
	n := at
	if n < len(clause) && clause[n] == '-' {
		n++
	}
	for n < len(clause) && clause[n] >= '0' && clause[n] <= '9' {
		n++
	}
	if n == at || (n == at+1 && clause[at] == '-') {
		return plan.Span{}, false
	}
	return plan.Span{Start: t.pos(start + at), End: t.pos(start + n)}, true
}

// bucketColumnsSpan finds the bucket column list inside a bucket clause or call: the text
// between the parentheses of "CLUSTERED BY (…)" (DDL), or the arguments after the count of
// "bucketBy(n, …)" (code). ok is false when the source is not available.
func (p *Pass) bucketColumnsSpan(spec *plan.BucketSpec) (s plan.Span, code, ok bool) {
	if spec == nil {
		return plan.Span{}, false, false
	}
	t := p.sourceOf(spec.Span)
	if t == nil {
		return plan.Span{}, false, false
	}
	start := t.offset(spec.Span.Start)
	end := len(t.src)
	if spec.Span.End.IsValid() {
		end = t.offset(spec.Span.End)
	}
	if start < 0 || end < start {
		return plan.Span{}, false, false
	}
	clause := strings.ToLower(t.src[start:end])
	var from, to int
	if i := strings.Index(clause, "bucketby("); i >= 0 {
		comma := strings.Index(clause[i:], ",")
		to = strings.LastIndex(clause, ")")
		if comma < 0 || to < i+comma {
			return plan.Span{}, false, false
		}
		from = i + comma + 1
		for from < to && clause[from] == ' ' {
			from++
		}
		code = true
	} else {
		by := strings.Index(clause, "by")
		open := strings.Index(clause[max(by, 0):], "(")
		if by < 0 || open < 0 {
			return plan.Span{}, false, false
		}
		from = by + open + 1
		to = strings.Index(clause[from:], ")")
		if to < 0 {
			return plan.Span{}, false, false
		}
		to += from
	}
	return plan.Span{Start: t.pos(start + from), End: t.pos(start + to)}, code, true
}
