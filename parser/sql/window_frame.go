package sql

import (
	"slices"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// frameOf reads a ROWS or RANGE frame: "BETWEEN <bound> AND <bound>" or a single start
// bound, which ends at CURRENT ROW (Spark's AstBuilder.visitWindowFrame). Nil when none is
// written or the bounds cannot be read.
func frameOf(spec *windowSpec) *plan.WindowFrame {
	if spec.FrameKind == "" {
		return nil
	}
	var toks []string
	for _, t := range spec.Frame {
		if t.Tok == "" {
			return nil // a parenthesised bound such as INTERVAL (…) is not read
		}
		toks = append(toks, strings.ToUpper(t.Tok))
	}
	f := &plan.WindowFrame{Rows: strings.EqualFold(spec.FrameKind, "rows"), End: "CURRENT ROW"}
	if len(toks) > 0 && toks[0] == "BETWEEN" {
		and := slices.Index(toks, "AND")
		if and < 0 {
			return nil
		}
		f.Start, f.End = strings.Join(toks[1:and], " "), strings.Join(toks[and+1:], " ")
	} else {
		f.Start = strings.Join(toks, " ")
	}
	if f.Start == "" || f.End == "" {
		return nil
	}
	f.StartX, f.EndX = boundX(f.Start), boundX(f.End)
	return f
}

// boundX is a frame bound ("2 PRECEDING", "CURRENT ROW", upper case, single spaces) as Spark
// prints it in a SpecifiedWindowFrame: unboundedpreceding$(), currentrow$(),
// unboundedfollowing$(), or the offset, negative when preceding. The bound's words have no
// positions here, so neither has the tree.
func boundX(b string) *plan.X {
	call := func(name string) *plan.X { return &plan.X{Op: plan.OpCall, Name: name, Raw: name + "()"} }
	switch b {
	case "UNBOUNDED PRECEDING":
		return call("unboundedpreceding$")
	case "CURRENT ROW":
		return call("currentrow$")
	case "UNBOUNDED FOLLOWING":
		return call("unboundedfollowing$")
	}
	if v, ok := strings.CutSuffix(b, " PRECEDING"); ok {
		return plan.Negated(offsetX(strings.ToLower(v)))
	}
	return offsetX(strings.ToLower(strings.TrimSuffix(b, " FOLLOWING")))
}

// offsetX is a frame offset: a number literal, else the expression as written.
func offsetX(v string) *plan.X {
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return &plan.X{Op: plan.OpLiteral, Value: v, Raw: v}
	}
	return &plan.X{Op: plan.OpOther, Raw: v}
}
