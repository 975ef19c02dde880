package sql

import (
	"fmt"
	"io"
	"strings"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// Fprint writes a deterministic dump of a parsed file and its errors: one line per table,
// column, change, conf and query node, positions as line:col. Golden tests compare it.
func Fprint(w io.Writer, f *File, errs perr.List) error {
	p := &printer{w: w}
	for _, t := range f.Tables {
		p.table(t, "")
	}
	for _, c := range f.Changes {
		p.line("", "change %s %s%s @%s", c.Kind, c.Table, changeDetail(c), lc(c.Pos))
	}
	for _, c := range f.Confs {
		p.line("", "conf %s=%s @%s", c.Key, c.Value, lc(c.Pos))
	}
	for _, q := range f.Queries {
		p.query(q)
	}
	for _, s := range f.Other {
		p.line("", "other @%s %q", lc(s.Pos), firstLine(s.Text))
	}
	for _, e := range errs {
		p.line("", "error %s", e.Error())
	}
	return p.err
}

// FprintTable writes the dump of one table, as Fprint does.
func FprintTable(w io.Writer, t *plan.Table) error {
	p := &printer{w: w}
	p.table(t, "")
	return p.err
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(indent, format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, indent+format+"\n", args...)
	}
}

func lc(pos plan.Pos) string { return fmt.Sprintf("%d:%d", pos.Line, pos.Col) }

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func (p *printer) table(t *plan.Table, in string) {
	at := ""
	if len(t.Sources) > 0 {
		at = " @" + lc(t.Sources[0])
	}
	if t.HiveFormat != "" {
		at = fmt.Sprintf(" storage=%q", t.HiveFormat) + at
	}
	p.line(in, "table %s format=%q hive=%v%s", t.Name, t.Format, t.Hive, at)
	for _, c := range t.Columns {
		s := "  column " + c.Name + " " + c.Type
		if c.Comment != "" {
			s += fmt.Sprintf(" comment=%q", c.Comment)
		}
		p.line(in, "%s", s)
	}
	if len(t.PartitionColumns) > 0 {
		p.line(in, "  partitioned by %s", strings.Join(t.PartitionColumns, ", "))
	}
	var transforms []string
	b := t.Buckets()
	for _, tr := range t.PartitionTransforms() {
		if tr.FromBucketSpec {
			b = tr.Spec
			continue
		}
		transforms = append(transforms, tr.Text)
	}
	if len(transforms) > 0 {
		p.line(in, "  partition transforms %s", strings.Join(transforms, ", "))
	}
	if b != nil {
		n := fmt.Sprint(b.NumBuckets)
		if b.NumTemplate != "" {
			n = b.NumTemplate
		}
		p.line(in, "  bucket %s by (%s) sorted (%s) @%s", n, strings.Join(b.Columns, ", "), strings.Join(b.SortColumns, ", "), lc(b.Span.Start))
	}
	if cl := t.ClusterBy(); len(cl) > 0 {
		p.line(in, "  cluster by %s", strings.Join(cl, ", "))
	}
	if t.Like != "" {
		p.line(in, "  like %s", t.Like)
	}
	if t.Location != "" {
		p.line(in, "  location %s", t.Location)
	}
	if t.SizeInBytes >= 0 || t.RowCount >= 0 {
		p.line(in, "  stats %d bytes, %d rows", t.SizeInBytes, t.RowCount)
	}
}

func changeDetail(c Change) string {
	var s string
	if c.NewName != "" {
		s += " to " + c.NewName
	}
	if c.Location != "" {
		s += " location " + c.Location
	}
	if b := c.Bucket; b != nil {
		s += fmt.Sprintf(" bucket %d by (%s) sorted (%s)", b.NumBuckets, strings.Join(b.Columns, ", "), strings.Join(b.SortColumns, ", "))
	}
	if c.Kind == ChangeClusterBy {
		s += " cluster by (" + strings.Join(c.ClusterBy, ", ") + ")"
	}
	for _, col := range c.Columns {
		s += " " + col.Name + ":" + col.Type
	}
	if len(c.Properties) > 0 {
		s += " [" + strings.Join(c.Properties, " ") + "]"
	}
	return s
}
