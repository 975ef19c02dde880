package sql

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// IsDescribe reports whether src looks like the output of DESCRIBE [EXTENDED|FORMATTED] (in
// any of the layouts ParseDescribe reads) rather than SQL.
func IsDescribe(src []byte) bool {
	s := bytes.TrimSpace(src)
	if bytes.HasPrefix(s, []byte("{")) {
		return bytes.Contains(s, []byte(`"table_name"`)) || bytes.Contains(s, []byte(`"columns"`))
	}
	for _, m := range []string{"# Detailed Table Information", "# Partition Information", "col_name", "Row(col_name="} {
		if bytes.Contains(s, []byte(m)) {
			return true
		}
	}
	return false
}

// IsShowCreate reports whether src looks like the output of SHOW CREATE TABLE: a single
// CREATE TABLE statement, possibly in a show() box under a createtab_stmt header.
func IsShowCreate(src []byte) bool {
	s := string(bytes.TrimSpace(src))
	s = strings.TrimLeft(s, "+-|\n ")
	s = strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(s, "createtab_stmt")), "|")
	s = strings.TrimLeft(s, "+-|\n ")
	return len(s) >= 12 && strings.EqualFold(s[:12], "CREATE TABLE") || strings.HasPrefix(strings.ToUpper(s), "CREATE EXTERNAL TABLE")
}

// ParseShowCreate reads the output of SHOW CREATE TABLE [AS SERDE], in the plain layout of
// the spark-sql CLI or inside a show() box, and returns the table it creates.
func (p *Parser) ParseShowCreate(file string, src []byte) (*plan.Table, perr.List) {
	text, lines := unbox(src)
	f, errs := p.ParseFile(file, text)
	for _, e := range errs {
		e.Pos = lines.pos(e.Pos)
	}
	for _, t := range f.Tables {
		lines.table(t)
	}
	if len(f.Tables) == 0 {
		if len(errs) == 0 {
			errs.Add(plan.Pos{File: file, Line: 1, Col: 1}, "no CREATE TABLE statement in SHOW CREATE TABLE output")
		}
		return nil, errs
	}
	return f.Tables[0], errs
}

// unbox removes a show() box around text: border lines and the header become blank lines and
// the "|" of each row becomes a blank, so columns keep their places. The box prints a multi-line
// cell with its newlines escaped as \n; those become real line breaks, and the returned
// lineMap maps positions in the result back to the input.
func unbox(src []byte) ([]byte, lineMap) {
	lines := strings.Split(string(src), "\n")
	boxed := false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "+-") {
			boxed = true
		}
	}
	if !boxed {
		return src, nil
	}
	var out []string
	var m lineMap
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "+-"), strings.Trim(t, "| ") == "createtab_stmt":
			l = ""
		case strings.HasPrefix(t, "|"):
			j := strings.Index(l, "|")
			l = l[:j] + " " + l[j+1:]
			if k := strings.LastIndex(l, "|"); k >= 0 {
				l = l[:k]
			}
		}
		off := 0
		for _, piece := range strings.Split(l, `\n`) {
			out = append(out, piece)
			m = append(m, lineOrigin{line: i + 1, off: off})
			off += len(piece) + 2
		}
	}
	return []byte(strings.Join(out, "\n")), m
}

// A lineMap gives, for each line of unboxed text, where it starts in the input; nil is the
// identity.
type lineMap []lineOrigin

// A lineOrigin is an input line and the byte offset in it where an unboxed line starts.
type lineOrigin struct{ line, off int }

// pos maps a position in unboxed text back to the input.
func (m lineMap) pos(p plan.Pos) plan.Pos {
	if m == nil || p.Line < 1 || p.Line > len(m) {
		return p
	}
	o := m[p.Line-1]
	p.Line = o.line
	if p.Col > 0 {
		p.Col += o.off
	}
	return p
}

// table maps the positions of a table parsed from unboxed text back to the input.
func (m lineMap) table(t *plan.Table) {
	if m == nil {
		return
	}
	for i := range t.Sources {
		t.Sources[i] = m.pos(t.Sources[i])
	}
	for i := range t.Columns {
		t.Columns[i].Pos = m.pos(t.Columns[i].Pos)
	}
	if b := t.Buckets(); b != nil {
		b.Span = plan.Span{Start: m.pos(b.Span.Start), End: m.pos(b.Span.End)}
	}
}

// A describeRow is one (col_name, data_type, comment) row with its line.
type describeRow struct {
	name, typ, comment string
	line               int
}

// ParseDescribe reads the output of DESCRIBE [TABLE] [EXTENDED|FORMATTED] t: the spark-sql
// CLI layout (tab-separated columns padded to 20 characters), a DataFrame.show() box, pyspark
// Row(…) reprs, or the JSON object of DESCRIBE … AS JSON (4.0+). The table name is read from
// the Catalog/Database/Table (or v2 Name) rows, and is empty for plain DESCRIBE output.
func (p *Parser) ParseDescribe(file string, src []byte) (*plan.Table, perr.List) {
	if bytes.HasPrefix(bytes.TrimSpace(src), []byte("{")) {
		// The untrimmed input, so that a syntax error's offset is a position in it.
		return describeJSON(file, src)
	}
	rows := describeRows(string(src))
	var errs perr.List
	if len(rows) == 0 {
		errs.Add(plan.Pos{File: file, Line: 1, Col: 1}, "no DESCRIBE rows found")
		return nil, errs
	}
	t := &plan.Table{SizeInBytes: -1, RowCount: -1, Sources: []plan.Pos{{File: file, Line: rows[0].line, Col: 1}}}
	d := &describer{p: p, t: t, file: file}
	for _, r := range rows {
		d.row(r, &errs)
	}
	d.finish()
	return t, errs
}

// describeRows splits DESCRIBE output into rows, whatever its layout.
func describeRows(src string) []describeRow {
	var rows []describeRow
	for i, l := range strings.Split(src, "\n") {
		l = strings.TrimRight(l, "\r")
		t := strings.TrimSpace(l)
		var cells []string
		switch {
		case strings.HasPrefix(t, "+-"):
			continue
		case strings.HasPrefix(t, "Row(") && strings.HasSuffix(t, ")"):
			cells = rowRepr(t)
		case strings.HasPrefix(t, "|"):
			cells = strings.Split(strings.TrimSuffix(strings.TrimPrefix(t, "|"), "|"), "|")
		case strings.Contains(l, "\t"):
			cells = strings.Split(l, "\t")
		default:
			cells = []string{l}
		}
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		for len(cells) < 3 {
			cells = append(cells, "")
		}
		if cells[0] == "col_name" && cells[1] == "data_type" {
			continue
		}
		rows = append(rows, describeRow{name: cells[0], typ: cells[1], comment: cells[2], line: i + 1})
	}
	return rows
}

// rowRepr splits "Row(col_name='a', data_type='int', comment=None)".
func rowRepr(t string) []string {
	var cells []string
	for _, key := range []string{"col_name=", "data_type=", "comment="} {
		i := strings.Index(t, key)
		if i < 0 {
			cells = append(cells, "")
			continue
		}
		v := t[i+len(key):]
		if strings.HasPrefix(v, "'") {
			end := strings.Index(v[1:], "', ")
			if end < 0 {
				end = strings.LastIndex(v, "'") - 1
			}
			cells = append(cells, v[1:1+max(end, 0)])
		} else {
			cells = append(cells, "")
		}
	}
	return cells
}

// parseCount reads the integer of a "Num Buckets" row.
func parseCount(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil
}
