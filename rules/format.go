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
func (p *Pass) maxBuckets(pos plan.Pos) int {
	if v, ok := p.OptionsAt(pos).Confs["spark.sql.sources.bucketing.maxBuckets"]; ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			return n
		}
	}
	return 100000
}

// bytesText prints a byte count for people: "512 B", "2.0 MiB", "12.5 GiB".
func bytesText(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

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
