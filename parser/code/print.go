package code

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// Fprint writes a deterministic dump of the facts of a file to w, one fact per line with
// indented details, positions as line:col (the file is named once, on the first line). It
// is what the golden tests compare.
func Fprint(w io.Writer, f *plan.CodeFile) error {
	var b strings.Builder
	fmt.Fprintf(&b, "file %s language=%s", f.File, f.Language)
	if f.Notebook != "" {
		fmt.Fprintf(&b, " notebook=%s", f.Notebook)
	}
	if f.Test {
		b.WriteString(" test")
	}
	b.WriteString("\n")
	for _, c := range f.Confs {
		fmt.Fprintf(&b, "conf %s %s=%q", pos(c.Pos), c.Key, c.Value)
		if c.Until.IsValid() {
			fmt.Fprintf(&b, " until=%s", pos(c.Until))
		}
		b.WriteString("\n")
	}
	for _, r := range f.Reads {
		printRead(&b, r)
	}
	for _, s := range f.SQL {
		printSQL(&b, s)
	}
	for _, j := range f.Joins {
		printJoin(&b, j)
	}
	for _, a := range f.Aggregates {
		fmt.Fprintf(&b, "aggregate %s %s frame=%s keys=%s\n", span(a.Span), a.Kind, frameRef(a.Frame), keys(a.Keys))
	}
	for _, wr := range f.Writes {
		printWrite(&b, wr)
	}
	for _, v := range f.TempViews {
		kind := "temp-view"
		if v.Global {
			kind = "global-temp-view"
		}
		fmt.Fprintf(&b, "%s %s %s frame=%s\n", kind, span(v.Span), v.Name, frameRef(v.Frame))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func pos(p plan.Pos) string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

func span(s plan.Span) string {
	if !s.End.IsValid() {
		return pos(s.Start)
	}
	return pos(s.Start) + "-" + pos(s.End)
}

func list(s []string) string { return "[" + strings.Join(s, ", ") + "]" }

func frameRef(f plan.FrameRef) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("var", f.Var)
	add("alias", f.Alias)
	if len(f.Tables) > 0 {
		add("tables", list(f.Tables))
	}
	if len(f.Paths) > 0 {
		add("paths", list(f.Paths))
	}
	for _, s := range f.SQL {
		add("sql", "@"+pos(s.Pos))
	}
	if f.Broadcast {
		parts = append(parts, "broadcast")
	}
	if len(f.Hints) > 0 {
		add("hints", list(f.Hints))
	}
	if f.Local {
		parts = append(parts, "local")
	}
	if f.RangeRows {
		parts = append(parts, "range")
	}
	if f.MaxRows > 0 {
		add("maxrows", strconv.FormatInt(f.MaxRows, 10))
	}
	if len(f.ConstColumns) > 0 {
		add("const", list(f.ConstColumns))
	}
	if len(f.Renamed) > 0 {
		var rs []string
		for to, from := range f.Renamed {
			rs = append(rs, from+"->"+to)
		}
		sort.Strings(rs)
		add("renamed", list(rs))
	}
	if !f.Resolved() {
		parts = append(parts, "unresolved")
	}
	add("text", strconv.Quote(f.Text))
	return "{" + strings.Join(parts, " ") + "}"
}

func keys(ks []plan.ColumnRef) string {
	var s []string
	for _, k := range ks {
		s = append(s, key(k))
	}
	return list(s)
}

func key(k plan.ColumnRef) string {
	var b strings.Builder
	if k.Column == "" {
		fmt.Fprintf(&b, "expr %q", k.Text)
	} else {
		if k.Qualifier != "" {
			b.WriteString(k.Qualifier + ".")
		}
		b.WriteString(k.Column)
	}
	if k.Cast != "" {
		b.WriteString(" as " + k.Cast)
	}
	if k.Desc {
		b.WriteString(" desc")
	}
	if k.Table != "" {
		b.WriteString(" (" + k.Table + ")")
	}
	b.WriteString(" @" + pos(k.Pos))
	return b.String()
}

func printRead(b *strings.Builder, r *plan.Read) {
	fmt.Fprintf(b, "read %s %s", span(r.Span), r.Kind)
	for _, kv := range [][2]string{{"table", r.Table}, {"path", r.Path}, {"format", r.Format}, {"expr", r.Expr}, {"var", r.Var}} {
		if kv[1] != "" {
			fmt.Fprintf(b, " %s=%q", kv[0], kv[1])
		}
	}
	if r.SQL != nil {
		fmt.Fprintf(b, " sql=@%s", pos(r.SQL.Pos))
	}
	b.WriteString("\n")
}

func printSQL(b *strings.Builder, s *plan.SQLString) {
	fmt.Fprintf(b, "sql %s span=%s resolved=%t verbatim=%t %q\n", pos(s.Pos), span(s.Span), s.Resolved, s.Verbatim, s.Text)
	if len(s.Lines) > 1 {
		var ls []string
		for _, p := range s.Lines {
			ls = append(ls, pos(p))
		}
		fmt.Fprintf(b, "  lines %s\n", strings.Join(ls, " "))
	}
}

func printJoin(b *strings.Builder, j *plan.CodeJoin) {
	fmt.Fprintf(b, "join %s how=%s type=%s", span(j.Span), j.How, j.Type)
	if j.Using {
		b.WriteString(" using")
	}
	if j.Broadcast != "" {
		b.WriteString(" broadcast=" + j.Broadcast)
	}
	if len(j.Hints) > 0 {
		b.WriteString(" hints=" + list(j.Hints))
	}
	fmt.Fprintf(b, "\n  left %s\n  right %s\n", frameRef(j.Left), frameRef(j.Right))
	if j.On != "" {
		fmt.Fprintf(b, "  on %q\n", j.On)
	}
	for i := range j.LeftKeys {
		fmt.Fprintf(b, "  key %s = %s\n", key(j.LeftKeys[i]), key(j.RightKeys[i]))
	}
	for _, r := range j.Residual {
		fmt.Fprintf(b, "  residual %q\n", r)
	}
}

func printWrite(b *strings.Builder, w *plan.Write) {
	fmt.Fprintf(b, "write %s %s@%s", span(w.Span), w.Terminal, span(w.TerminalSpan))
	for _, kv := range [][2]string{{"table", w.Table}, {"path", w.Path}, {"target", w.TargetExpr}, {"format", w.Format}, {"mode", w.Mode}} {
		if kv[1] != "" {
			fmt.Fprintf(b, " %s=%q", kv[0], kv[1])
		}
	}
	fmt.Fprintf(b, "\n  frame %s\n", frameRef(w.Frame))
	if w.Bucket != nil {
		n := strconv.Itoa(w.Bucket.NumBuckets)
		if w.BucketCountExpr != "" {
			n = strconv.Quote(w.BucketCountExpr)
		}
		fmt.Fprintf(b, "  bucketBy %s %s %s sortBy %s\n", span(w.Bucket.Span), n, list(w.Bucket.Columns), list(w.Bucket.SortColumns))
		if w.Bucket.ColumnsExpr != "" {
			fmt.Fprintf(b, "  bucket columns not known: %q\n", w.Bucket.ColumnsExpr)
		}
	}
	if len(w.SortBy) > 0 {
		fmt.Fprintf(b, "  sortBy %s %s\n", span(w.SortBySpan), list(w.SortBy))
	}
	if len(w.PartitionBy) > 0 {
		fmt.Fprintf(b, "  partitionBy %s %s\n", span(w.PartitionBySpan), list(w.PartitionBy))
	}
	for _, tr := range w.Transforms {
		fmt.Fprintf(b, "  transform %s\n", tr.Text)
	}
	if w.TransformsExpr != "" {
		fmt.Fprintf(b, "  partitioning not known: %q\n", w.TransformsExpr)
	}
	for _, o := range w.Options {
		fmt.Fprintf(b, "  option %s %s=%q\n", pos(o.Pos), o.Key, o.Value)
	}
	if r := w.Repartition; r != nil {
		n := strconv.Itoa(r.N)
		if r.NExpr != "" {
			n = strconv.Quote(r.NExpr)
		}
		fmt.Fprintf(b, "  %s %s n=%s cols=%s\n", r.Method, span(r.Span), n, list(r.Cols))
	}
}
