package sql

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// A describer reads DESCRIBE rows section by section.
type describer struct {
	p *Parser
	t *plan.Table
	// lp are the layout rows, composed once the format is known.
	lp   layoutParts
	file string
	// section is "" for the schema, else the "# …" header last seen.
	section                 string
	catalog, database, name string
	v2Name                  string
	bucketCols, sortCols    []string
	numBuckets, bucketLine  int
	hasBuckets              bool
	serde, inputFormat      string
}

// row reads one row.
func (d *describer) row(r describeRow, errs *perr.List) {
	if strings.HasPrefix(r.name, "# ") {
		h := strings.TrimPrefix(r.name, "# ")
		if h != "col_name" {
			d.section = h
		}
		return
	}
	if r.name == "" && r.typ == "" {
		if d.section == "" || d.section == "Partition Information" || d.section == "Clustering Information" {
			d.section = "blank"
		}
		return
	}
	switch d.section {
	case "":
		if r.comment == "NULL" {
			r.comment = ""
		}
		d.t.Columns = append(d.t.Columns, plan.Column{Name: strings.ToLower(r.name), Type: plan.CanonicalType(r.typ), Comment: r.comment, Pos: plan.Pos{File: d.file, Line: r.line, Col: 1}})
	case "Partition Information":
		d.t.PartitionColumns = append(d.t.PartitionColumns, strings.ToLower(r.name))
	case "Clustering Information":
		d.lp.cluster = append(d.lp.cluster, strings.ToLower(r.name))
	case "Partitioning":
		d.transform(r.typ)
	case "Detailed Table Information":
		d.detail(r, errs)
	}
}

// transform reads a v2 "Part N  bucket(4, a)" row.
func (d *describer) transform(s string) {
	s = strings.ToLower(strings.TrimSpace(s))
	if !strings.Contains(s, "(") {
		d.t.PartitionColumns = append(d.t.PartitionColumns, strings.Trim(s, "`"))
		return
	}
	if strings.HasPrefix(s, "identity(") {
		d.t.PartitionColumns = append(d.t.PartitionColumns, strings.Trim(strings.TrimSuffix(strings.TrimPrefix(s, "identity("), ")"), "`"))
		return
	}
	d.lp.transforms = append(d.lp.transforms, plan.Transform{Text: strings.ReplaceAll(s, "`", ""), X: d.transformTree(s)})
}

// transformTree reads a transform DESCRIBE printed; its spans are left out, as a row's
// columns are not known. A transform the grammar cannot read is an OpOther of its text.
func (d *describer) transformTree(s string) *plan.X {
	ast, err := d.p.transform.ParseString(d.file, s)
	if err != nil {
		return &plan.X{Op: plan.OpOther, Raw: s}
	}
	st := &state{p: d.p, f: &File{Name: d.file}, lines: newLineIndex(d.file, s)}
	x := ast.tree(newTrees(st, chunk{text: s, raw: s}))
	x.Walk(func(n *plan.X) bool {
		n.Span = plan.Span{}
		return true
	})
	return x
}

// detail reads a "Key  value" row of the detailed table information. The CLI golden files
// glue some keys to their values ("Location [not included in comparison]/{warehouse_dir}/t").
func (d *describer) detail(r describeRow, errs *perr.List) {
	key, val := r.name, r.typ
	if val == "" {
		if k, v, ok := strings.Cut(key, "]"); ok {
			if name, _, ok := strings.Cut(k, "[not included"); ok {
				key, val = strings.TrimSpace(name), v
			}
		}
	}
	switch key {
	case "Catalog":
		d.catalog = strings.ToLower(val)
	case "Database", "Namespace":
		d.database = strings.ToLower(val)
	case "Table":
		d.name = strings.ToLower(val)
	case "Name":
		d.v2Name = strings.ToLower(val)
	case "Provider":
		d.t.Format = strings.ToLower(val)
		if d.t.Format == "hive" {
			d.t.Hive = true
		}
	case "Num Buckets":
		n, ok := parseCount(val)
		if !ok {
			errs.Add(plan.Pos{File: d.file, Line: r.line, Col: 1}, "num buckets %q is not an integer", val)
			return
		}
		d.numBuckets, d.hasBuckets, d.bucketLine = n, true, r.line
	case "Bucket Columns":
		d.bucketCols = bracketList(val)
	case "Sort Columns":
		d.sortCols = bracketList(val)
	case "Location":
		d.t.Location = val
	case "Serde Library":
		d.serde = val
	case "InputFormat":
		d.inputFormat = val
	case "Statistics":
		d.t.SizeInBytes, d.t.RowCount = statistics(val)
	}
}

// finish sets the name and the bucket spec once every row is read.
func (d *describer) finish() {
	switch {
	case d.v2Name != "":
		d.t.Name = scopeName(strings.Split(d.v2Name, "."), "")
	case d.name != "" && d.database != "":
		d.t.Name = d.database + "." + d.name
	default:
		d.t.Name = d.name
	}
	if d.t.Hive {
		d.t.HiveFormat = hiveFormatOfDescribe(d.serde, d.inputFormat)
	}
	if d.hasBuckets {
		pos := plan.Pos{File: d.file, Line: d.bucketLine, Col: 1}
		d.lp.spec = &plan.BucketSpec{NumBuckets: d.numBuckets, Columns: d.bucketCols, SortColumns: d.sortCols, Span: plan.Span{Start: pos}}
	}
	d.t.Layout = plan.ComposeLayout(d.t.Format, d.t.Hive, d.lp.spec, d.lp.transforms, d.lp.cluster)
	if b := d.t.DeclaredBuckets(); b != nil && b.Span.Start.Line == 0 && len(d.t.Sources) > 0 {
		b.Span.Start = d.t.Sources[0]
	}
}

// bracketList reads "[`a`, `b`]" into [a b].
func bracketList(s string) []string {
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "["), "]")
	if s == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Split(s, ", ") {
		out = append(out, unquoteIdent(strings.TrimSpace(p)))
	}
	return out
}

// statistics reads "1234 bytes, 5 rows" (rows optional); -1 for what is absent.
func statistics(s string) (size, rows int64) {
	size, rows = -1, -1
	for _, part := range strings.Split(s, ",") {
		f := strings.Fields(part)
		if len(f) != 2 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			continue
		}
		switch f[1] {
		case "bytes":
			size = n
		case "rows":
			rows = n
		}
	}
	return size, rows
}
