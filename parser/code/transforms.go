package code

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// transformFns are the partition transform functions of Spark's functions module that
// DataFrameWriterV2.partitionedBy takes (functions.bucket, years, months, days, hours; in
// PySpark 4 also under pyspark.sql.functions.partitioning), with their argument counts.
var transformFns = map[string]int{"bucket": 2, "years": 1, "months": 1, "days": 1, "hours": 1} //nolint:gochecknoglobals // read-only table

// v2Partitioning reads writeTo's partitionedBy arguments into the write: plain columns
// (col("k"), $"k", "k") are partition columns; bucket(n, col) and the time transforms are
// transforms, as PARTITIONED BY (bucket(16, k)) declares them. When an argument is not known
// statically (a variable bound at run time, a count that is not a constant), TransformsExpr
// keeps the arguments as written.
func (ev *evaluator) v2Partitioning(w *plan.Write, args []arg) {
	w.PartitionBy, w.Transforms, w.TransformsExpr = nil, nil, ""
	known := true
	for _, n := range ev.expandCols(colArgs(args)) {
		if tr, ok := ev.transform(n); ok {
			w.Transforms = append(w.Transforms, tr)
			continue
		}
		if name, ok := ev.columnName(n); ok {
			w.PartitionBy = append(w.PartitionBy, name)
			continue
		}
		known = false
	}
	if !known {
		w.TransformsExpr = ev.argsText(args)
	}
}

// columnName is a column argument's name, lower case, when it is a constant.
func (ev *evaluator) columnName(n *node) (string, bool) {
	names, known := ev.nameArgs([]arg{{val: n}})
	if !known || len(names) != 1 {
		return "", false
	}
	return names[0], true
}

// transform reads a call of a partition transform function with constant arguments.
func (ev *evaluator) transform(n *node) (plan.Transform, bool) {
	if n.kind != nCall {
		return plan.Transform{}, false
	}
	fn := ""
	switch n.x.kind {
	case nIdent:
		fn = n.x.name
	case nAttr:
		if q, ok := dotted(n.x.x); isFunctions(n.x.x) || ok && (q == "partitioning" || strings.HasSuffix(q, ".partitioning")) {
			fn = n.x.name
		}
	}
	want, ok := transformFns[fn]
	if !ok || len(n.args) != want {
		return plan.Transform{}, false
	}
	x := &plan.X{Op: plan.OpCall, Name: fn}
	text := make([]string, 0, want)
	rest := n.args
	if fn == "bucket" {
		count, ok := ev.bucketCount(n.args[0].val)
		if !ok {
			return plan.Transform{}, false
		}
		s := strconv.Itoa(count)
		x.Args = append(x.Args, &plan.X{Op: plan.OpLiteral, Type: "int", Value: s, Raw: s})
		text = append(text, s)
		rest = n.args[1:]
	}
	for _, a := range rest {
		name, ok := ev.columnName(a.val)
		if !ok {
			return plan.Transform{}, false
		}
		parts := strings.Split(name, ".")
		x.Args = append(x.Args, &plan.X{Op: plan.OpColumn, Name: parts[len(parts)-1], Qualifier: strings.Join(parts[:len(parts)-1], "."), Raw: name})
		text = append(text, name)
	}
	x.Raw = fn + "(" + strings.Join(text, ", ") + ")"
	return plan.Transform{Text: x.Raw, X: x}, true
}

// bucketCount is bucket()'s count: a positive integer constant, or lit() of one.
func (ev *evaluator) bucketCount(a *node) (int, bool) {
	if v := ev.eval(a); v.kind == vNum {
		return v.num, v.num > 0
	}
	if s, typ, ok := ev.literal(a); ok && typ == "int" {
		n, err := strconv.Atoi(s)
		return n, err == nil && n > 0
	}
	return 0, false
}
