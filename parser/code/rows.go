package code

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// maxKnownRows bounds the row counts the reader works with, so that arithmetic on constants
// cannot overflow.
const maxKnownRows = 1 << 40

// literalRows is the number of elements of a literal list whose every element was read
// whole ([a, b], Seq(a, b)), 0 when one was not (a comprehension, a lambda) or a named or
// splatted argument makes the count unknown.
func literalRows(args []arg) int64 {
	for _, a := range args {
		if a.partial || a.name != "" || a.val == nil || a.val.kind == nOther ||
			a.val.kind == nUnary && (a.val.name == "*" || a.val.name == "**") {
			return 0
		}
	}
	return int64(len(args))
}

// scalaRange evaluates "a until b" and "a to b" on constants: a list of b-a (b-a+1) elements,
// whose values are not kept.
func scalaRange(op string, x, y *value) *value {
	if x.kind != vNum || y.kind != vNum {
		return unknown
	}
	n := int64(y.num) - int64(x.num)
	if op == "to" {
		n++
	}
	if n <= 0 || n > maxKnownRows {
		return &value{kind: vList}
	}
	return &value{kind: vList, rows: n}
}

// listMethod evaluates a method of a list: map keeps its length, toDF/toDS make it a local
// DataFrame of that many rows (Spark's LocalRelation).
func (ev *evaluator) listMethod(r *value, name string, n *node) (*value, bool) {
	switch name {
	case "map":
		ev.evalEach(n.args)
		return &value{kind: vList, rows: r.rows}, true
	case "toDF", "toDS":
		ev.evalEach(n.args)
		return ev.localFrame(n, r.rows), true
	}
	return nil, false
}

// localFrame is a DataFrame built from data in the program, of at most rows rows (0: unknown).
func (ev *evaluator) localFrame(n *node, rows int64) *value {
	return &value{kind: vFrame, frame: &frame{ref: plan.FrameRef{Text: ev.shortText(n), Span: ev.span(n), MaxRows: rows, Local: true}}}
}

// sessionFrame evaluates spark.createDataFrame(data, …), spark.range(…) and
// sc.parallelize(data, …) (an RDD, read as the frame its toDF makes), with the rows known
// when the data is a literal list or the range's bounds are constants.
func (ev *evaluator) sessionFrame(name string, n *node) *value {
	vs := ev.evalArgs(n.args)
	var rows int64
	local := false
	switch name {
	case "range":
		rows = rangeRows(n.args, vs)
		v := ev.localFrame(n, rows)
		v.frame.ref.Local, v.frame.ref.RangeRows = false, rows > 0
		return v
	default: // createDataFrame, parallelize, makeRDD
		if len(vs) > 0 && n.args[0].name == "" || len(vs) > 0 && n.args[0].name == "data" {
			switch d := vs[0]; d.kind {
			case vList:
				rows, local = d.rows, true
			case vFrame:
				rows, local = d.frame.ref.MaxRows, d.frame.ref.Local
			}
		}
	}
	v := ev.localFrame(n, rows)
	v.frame.ref.Local = local
	return v
}

// keepsRange reports the methods after which a spark.range frame is still its id column
// alone, at most as many rows: Spark sizes it as the range.
func keepsRange(name string) bool {
	switch name {
	case "filter", "where", "orderBy", "sort", "sortWithinPartitions", "cache", "persist",
		"limit", "repartition", "repartitionByRange", "coalesce", "hint", "alias", "as",
		"distinct", "dropDuplicates", "sample":
		return true
	}
	return false
}

// rangeRows is the row count of spark.range(end) or spark.range(start, end[, step[,
// numPartitions]]) on constants, 0 when not known.
func rangeRows(args []arg, vs []*value) int64 {
	num := func(i int, named string) (int64, bool) {
		for j, a := range args {
			if a.name == named || a.name == "" && j == i {
				if vs[j].kind == vNum {
					return int64(vs[j].num), true
				}
				return 0, false
			}
		}
		return 0, false
	}
	start, end, step := int64(0), int64(0), int64(1)
	var ok bool
	switch {
	case len(args) == 1 && args[0].name == "":
		end, ok = num(0, "end")
	default:
		var ok1, ok2 bool
		start, ok1 = num(0, "start")
		end, ok2 = num(1, "end")
		ok = ok1 && ok2
		if s, given := num(2, "step"); given {
			step = s
		} else if hasArg(args, 2, "step") {
			ok = false
		}
	}
	if !ok || step <= 0 || end <= start {
		return 0
	}
	rows := (end - start + step - 1) / step
	if rows > maxKnownRows {
		return 0
	}
	return rows
}

func hasArg(args []arg, i int, named string) bool {
	for j, a := range args {
		if a.name == named || a.name == "" && j == i {
			return true
		}
	}
	return false
}

// keepsRows reports whether a DataFrame method returns at most the rows it is called on:
// filters, projections without a generator (explode, inline, stack make rows), sorting,
// caching, limits, samples without replacement, column renames and the like. Anything else
// (flatMap, mapPartitions, transform, an unknown method) makes the count unknown.
func (ev *evaluator) keepsRows(name string, n *node) bool {
	switch name {
	case "filter", "where", "orderBy", "sort", "sortWithinPartitions", "cache", "persist",
		"unpersist", "checkpoint", "localCheckpoint", "limit", "toDF", "toDS", "drop",
		"withColumnRenamed", "withColumnsRenamed", "dropna", "fillna", "replace", "map", "agg",
		"hint", "alias", "as":
		return true
	case "select", "selectExpr", "withColumn", "withColumns":
		return !generates(strings.ToLower(ev.text(n)))
	case "sample":
		return !strings.Contains(strings.ToLower(ev.text(n)), "true") // withReplacement
	}
	return false
}

// generates reports whether a projection's text calls one of Spark's generators, which
// make several rows of one.
func generates(text string) bool {
	for _, g := range []string{"explode", "inline", "stack", "udtf"} {
		if strings.Contains(text, g) {
			return true
		}
	}
	return false
}

// addRows is the row bound of a union of a frame of rows rows with the frame a: the sum
// when both are known.
func addRows(rows int64, a *value) int64 {
	if rows == 0 || a.kind != vFrame || a.frame.ref.MaxRows == 0 || rows+a.frame.ref.MaxRows > maxKnownRows {
		return 0
	}
	return rows + a.frame.ref.MaxRows
}
