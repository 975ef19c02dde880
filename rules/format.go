package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// spark names the Spark version the pass models: "Spark 3.5".
func (p *Pass) spark() string { return "Spark " + p.Options.Version().String() }

// maxBuckets is spark.sql.sources.bucketing.maxBuckets at pos (default 100000).
func (p *Pass) maxBuckets(pos plan.Pos) int { return p.OptionsAt(pos).MaxBuckets() }

// quoted quotes a string for the code language of a file: Python and Scala both take
// double-quoted strings.
func quoted(s string) string { return strconv.Quote(s) }

// columnArgs prints columns as the arguments of a DataFrame call: "a", "b" in Python,
// col("a"), col("b") in Scala where a Column is wanted.
func columnArgs(lang string, cols []string, asColumns bool) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = quoted(c)
		if asColumns && lang == "scala" {
			out[i] = "col(" + out[i] + ")"
		}
	}
	return strings.Join(out, ", ")
}

// nextPowerOfTwo returns the least power of two ≥ n (1 for n ≤ 1).
func nextPowerOfTwo(n int64) int64 {
	p := int64(1)
	for p < n {
		p <<= 1
	}
	return p
}

// spanOrPos returns s, or a span at pos when s has no start.
func spanOrPos(s plan.Span, pos plan.Pos) plan.Span {
	if s.Start.IsValid() {
		return s
	}
	return plan.Span{Start: pos}
}

// contains reports whether list holds s, case-insensitively.
func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// plural prints a count with a noun: "1 bucketed table", "3 bucketed tables".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// nameSpan is the span of a name written on one line at pos (End exclusive).
func nameSpan(pos plan.Pos, name string) plan.Span {
	end := pos
	end.Col += len(name)
	return plan.Span{Start: pos, End: end}
}

// keysSpan is the span of keys as written, from the first key to the end of the last one on
// the same line (else to the end of the first); keys[0].Pos must be valid.
func keysSpan(keys []plan.ColumnRef) plan.Span {
	first := keys[0]
	sp := nameSpan(first.Pos, firstLine(first.Text))
	last := keys[len(keys)-1]
	if end, ok := oneLineEnd(last); ok && last.Pos.File == first.Pos.File && last.Pos.Line == first.Pos.Line && last.Pos.Col > first.Pos.Col {
		sp.End = end
	}
	return sp
}

// oneLineEnd is the end of a key written on one line: its tree's extent, or its text's
// length from its position; false for a key spanning lines.
func oneLineEnd(k plan.ColumnRef) (plan.Pos, bool) {
	if x := k.X; x != nil && x.Span.Start.IsValid() && x.Span.End.IsValid() {
		return x.Span.End, x.Span.End.Line == x.Span.Start.Line
	}
	sp := nameSpan(k.Pos, firstLine(k.Text))
	return sp.End, firstLine(k.Text) == k.Text
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// settingSpan is the span of a configuration setting as the parser recorded it: from the key
// to the end of its value (and a closing quote), else the key at c.Pos.
func (p *Pass) settingSpan(c plan.Conf) plan.Span {
	if c.Span.Start.IsValid() && c.Span.End.IsValid() {
		return c.Span
	}
	return nameSpan(c.Pos, c.Key)
}
