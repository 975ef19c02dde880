package code

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A writer is a DataFrameWriter (v2: DataFrameWriterV2) being configured; start is the text
// offset of the written frame's expression.
type writer struct {
	w     plan.Write
	v2    bool
	start int
}

func (ev *evaluator) newWriter(f *frame, recv *node, v2 bool) *value {
	w := &writer{v2: v2, start: recv.off}
	w.w.Frame = f.ref
	w.w.Repartition = f.repart
	return &value{kind: vWriter, writer: w}
}

// clip returns s with its capacity cut to its length, so that appending copies.
func clip[T any](s []T) []T { return s[:len(s):len(s)] }

// writerMethod evaluates one call of a writer chain; a terminal call records the Write.
func (ev *evaluator) writerMethod(old *writer, name string, n *node) *value {
	w := *old
	w.w.Options = clip(w.w.Options)
	sp := ev.src.span(n.x.dot, n.end)
	switch name {
	case "format", "using":
		w.w.Format = strings.ToLower(ev.strArg(n, 0, "source"))
	case "mode":
		w.w.Mode = ev.modeArg(n.args)
	case "option", "options", "tableProperty":
		if name != "tableProperty" {
			w.w.Options = ev.options(w.w.Options, n)
		}
	case "partitionBy", "partitionedBy":
		w.w.PartitionBySpan = sp
		if w.v2 {
			ev.v2Partitioning(&w.w, n.args)
		} else {
			w.w.PartitionBy = ev.knownNames(n.args)
		}
	case "bucketBy":
		ev.bucketBy(&w, n, sp)
	case "sortBy":
		w.w.SortBy, w.w.SortBySpan = ev.knownNames(n.args), sp
	case "saveAsTable", "insertInto", "save", "parquet", "orc", "csv", "json", "text", "avro", "jdbc",
		"xml", "create", "createOrReplace", "replace", "append", "overwrite", "overwritePartitions":
		ev.terminal(&w, name, n, sp)
		return unknown
	default:
		ev.evalEach(n.args)
		return unknown
	}
	return &value{kind: vWriter, writer: &w}
}

func (ev *evaluator) bucketBy(w *writer, n *node, sp plan.Span) {
	b := &plan.BucketSpec{Span: sp}
	w.w.BucketCountExpr = ""
	if len(n.args) > 0 {
		a := n.args[0].val
		if v := ev.eval(a); v.kind == vNum {
			b.NumBuckets = v.num
		} else {
			w.w.BucketCountExpr = ev.text(a)
		}
		if ev.isIntLiteral(a) {
			b.CountSpan = ev.src.span(a.off, a.end)
		}
		cols, known := ev.nameArgs(n.args[1:])
		if known {
			b.Columns = cols
		} else {
			b.ColumnsExpr = ev.argsText(n.args[1:])
		}
		if len(n.args) > 1 && n.end > 0 {
			b.ColumnsSpan = ev.src.span(n.args[1].val.off, n.end-1)
		}
	}
	w.w.Bucket = b
}

// isIntLiteral reports an integer written as a literal, possibly negative: 8, -1.
func (ev *evaluator) isIntLiteral(n *node) bool {
	if n.kind == nUnary && n.name == "-" && n.x != nil {
		n = n.x
	}
	if n.kind != nNum {
		return false
	}
	for _, c := range ev.text(n) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// terminal completes a writer chain with its terminal call and records the write.
func (ev *evaluator) terminal(w *writer, name string, n *node, sp plan.Span) {
	wr := w.w
	wr.Span = ev.src.span(w.start, n.end)
	if w.v2 {
		wr.Terminal = "writeTo"
		wr.Mode = strings.ToLower(name)
		ev.evalEach(n.args)
	} else {
		wr.Terminal, wr.TerminalSpan = name, sp
		ev.terminalArgs(&wr, name, n)
	}
	if wr.Bucket != nil {
		b := *wr.Bucket
		b.SortColumns = wr.SortBy
		wr.Bucket = &b
	}
	if wr.Path == "" {
		for _, o := range wr.Options {
			if strings.EqualFold(o.Key, "path") {
				wr.Path = o.Value
			}
		}
	}
	ev.out.Writes = append(ev.out.Writes, &wr)
}

func (ev *evaluator) terminalArgs(wr *plan.Write, name string, n *node) {
	switch name {
	case "saveAsTable", "insertInto":
		if a := argNamed(n.args, 0, "name", "tableName"); a != nil {
			ev.setTable(wr, a)
		}
	case "jdbc":
		wr.Format = "jdbc"
		if a := argNamed(n.args, 1, "table"); a != nil {
			ev.setTable(wr, a)
		}
	default:
		if name != "save" {
			wr.Format = strings.ToLower(name)
		}
		if a := argNamed(n.args, 0, "path"); a != nil {
			v := ev.eval(a)
			if v.kind == vStr && v.resolved {
				wr.Path, wr.TargetExpr = v.str, ""
			} else {
				wr.TargetExpr = ev.exprText(v, a)
			}
		}
	}
	for _, a := range n.args {
		switch a.name {
		case "format":
			wr.Format = strings.ToLower(ev.strValueOf(a.val))
		case "mode":
			wr.Mode = ev.modeArg([]arg{{val: a.val}})
		case "partitionBy":
			wr.PartitionBy, wr.PartitionBySpan = ev.knownNames([]arg{{val: a.val}}), ev.span(a.val)
		case "overwrite":
			if v := ev.text(a.val); v == "True" || v == "true" {
				wr.Mode = "overwrite"
			}
		}
	}
	if name == "insertInto" && len(n.args) > 1 && n.args[1].name == "" {
		if v := ev.text(n.args[1].val); v == "True" || v == "true" {
			wr.Mode = "overwrite"
		}
	}
}

// argNamed returns the argument at position i (counting positional arguments only) or the
// one named by any of names.
func argNamed(args []arg, i int, names ...string) *node {
	pos := 0
	for _, a := range args {
		if a.name == "" {
			if pos == i {
				return a.val
			}
			pos++
			continue
		}
		for _, nm := range names {
			if a.name == nm {
				return a.val
			}
		}
	}
	return nil
}

func (ev *evaluator) setTable(wr *plan.Write, n *node) {
	v := ev.eval(n)
	if v.kind == vStr && v.resolved {
		wr.Table, wr.TargetExpr = normTable(v.str), ""
		return
	}
	wr.TargetExpr = ev.exprText(v, n)
}

// exprText is how a non-constant table or path argument is kept: a string with "{expr}"
// for its unknown parts (f"{base}/sales.db/orders" keeps "/sales.db/orders", which can
// still match a table location), else the expression as written.
func (ev *evaluator) exprText(v *value, n *node) string {
	if v.kind == vStr {
		return v.str
	}
	return ev.text(n)
}

// normTable is a table or view name given as a string (saveAsTable("db.t"), spark.table(…))
// as the model keeps it: Spark reads the string as a qualified identifier (backquoted parts,
// a doubled backquote inside one), so it is split into its parts, lower case, without a
// leading spark_catalog, and joined as plan.JoinName writes names. A part holding a
// template's placeholder (${db}, {{ var }}) stays as written, as the SQL parser keeps it. A
// string with a backquote left open is no identifier (Spark raises a ParseException): it is
// kept as written, lower case, and names no table.
func normTable(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if !plan.NameClosed(s) {
		return s
	}
	parts := plan.NameParts(s)
	if len(parts) > 1 && parts[0] == "spark_catalog" {
		parts = parts[1:]
	}
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
		if !strings.Contains(p, "{") {
			parts[i] = plan.QuoteNamePart(parts[i])
		}
	}
	return strings.Join(parts, ".")
}

// strArg returns argument i (or the one named name) as a constant string, else as written.
func (ev *evaluator) strArg(n *node, i int, name string) string {
	a := argNamed(n.args, i, name)
	if a == nil {
		return ""
	}
	return ev.strValueOf(a)
}

func (ev *evaluator) strValueOf(a *node) string {
	if v := ev.eval(a); v.kind == vStr && v.resolved {
		return v.str
	}
	return ev.text(a)
}

// modeArg reads a save mode: a string, or Scala's SaveMode.Overwrite.
func (ev *evaluator) modeArg(args []arg) string {
	a := argNamed(args, 0, "saveMode")
	if a == nil {
		return ""
	}
	if a.kind == nAttr {
		return strings.ToLower(a.name)
	}
	return strings.ToLower(ev.strValueOf(a))
}

// options appends .option(k, v) or .options(k=v, …) / .options(Map("k" -> "v")) settings.
func (ev *evaluator) options(opts []plan.Option, n *node) []plan.Option {
	if n.x.name == "option" {
		if len(n.args) >= 2 {
			k := ev.eval(n.args[0].val)
			if k.kind == vStr && k.resolved {
				opts = append(opts, plan.Option{Key: k.str, Value: ev.confValue(n.args[1].val), Pos: ev.src.pos(n.args[0].val.off)})
			}
		}
		return opts
	}
	for _, a := range n.args {
		switch {
		case a.name != "":
			opts = append(opts, plan.Option{Key: a.name, Value: ev.confValue(a.val), Pos: ev.src.pos(a.val.off)})
		case a.val.kind == nCall && a.val.x.kind == nIdent && a.val.x.name == "Map":
			for _, kv := range a.val.args {
				if kv.val.kind == nBin && kv.val.name == "->" {
					opts = append(opts, plan.Option{Key: ev.strValueOf(kv.val.x), Value: ev.confValue(kv.val.y), Pos: ev.src.pos(kv.val.off)})
				}
			}
		}
	}
	return opts
}

// confValue is a setting's value: a constant string, a number or boolean as Spark reads it
// (true/false lower case), or the expression as written.
func (ev *evaluator) confValue(n *node) string {
	v := ev.eval(n)
	switch {
	case v.kind == vStr && v.resolved:
		return v.str
	case n.kind == nIdent && (n.name == "True" || n.name == "true"):
		return "true"
	case n.kind == nIdent && (n.name == "False" || n.name == "false"):
		return "false"
	}
	return ev.text(n)
}
