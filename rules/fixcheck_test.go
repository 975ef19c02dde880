package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/internal/golden"
	"github.com/bucketlint/bucketlint/parser/code"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// TestEveryFixIsValid runs every rule over every case of testdata and re-checks each fix: its
// code (the layout after "…:" and a SET statement) parses as SQL, PySpark or Scala; every
// bucket, sort, partition and repartition column it names is a column of the table when the
// table's columns are known; and each edit, applied to its file, leaves a file that parses
// with no more errors than before.
func TestEveryFixIsValid(t *testing.T) {
	t.Parallel()
	sp, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	checked := 0
	for _, path := range paths {
		for _, c := range golden.Load(t, path, false) {
			w, src, d := buildCase(t, sp, c)
			d.Source = func(f string) []byte { return src[f] }
			diags, err := d.Run(w, All())
			if err != nil {
				continue
			}
			for _, dg := range diags {
				if dg.Fix == nil {
					continue
				}
				checked++
				where := c.Path + ": " + dg.Rule + " " + dg.Message
				for _, problem := range fixProblems(sp, w.Project(), src, dg.Fix) {
					t.Errorf("%s: %s", where, problem)
				}
			}
		}
	}
	t.Logf("%d fixes checked", checked)
	if checked < 50 {
		t.Errorf("only %d fixes checked", checked)
	}
}

// TestFixProblems checks that the checker finds a fix naming a missing column, code that does
// not parse and an edit that breaks its file.
func TestFixProblems(t *testing.T) {
	sp, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	p := &plan.Project{Tables: map[string]*plan.Table{"t": {Name: "t", Columns: []plan.Column{{Name: "k", Type: "int"}}}}}
	src := map[string][]byte{"a.sql": []byte("CREATE TABLE t (k INT) USING parquet CLUSTERED BY (k) INTO 4 BUCKETS;")}
	for _, tc := range []struct {
		fix  Fix
		want string
	}{
		{Fix{Description: "Bucket t:\nCREATE TABLE t\nUSING parquet\nCLUSTERED BY (x) INTO 4 BUCKETS\nAS SELECT * FROM t_old;"}, "column x"},
		{Fix{Description: "Bucket t:\nCREATE TABLE t ()\nUSING parquet"}, "does not parse"},
		{Fix{Description: "Bucket t:\n(df\n    .repartition(4, \"x\")\n    .write.bucketBy(4, \"k\")\n    .saveAsTable(\"t\"))"}, "column x"},
		{Fix{Description: "SET a.b=1 (Spark 3.3+): why"}, ""},
		{Fix{Description: "x", Edits: []Edit{{Span: plan.Span{Start: plan.Pos{File: "a.sql", Line: 1, Col: 52}, End: plan.Pos{File: "a.sql", Line: 1, Col: 53}}, Text: "("}}}, "unparsable"},
	} {
		got := strings.Join(fixProblems(sp, p, src, &tc.fix), "; ")
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%q: problems %q, want %q", tc.fix.Description, got, tc.want)
		}
	}
}

// fixProblems re-checks a fix: its code and its edits.
func fixProblems(sp *sql.Parser, p *plan.Project, src map[string][]byte, f *Fix) []string {
	return append(codeProblems(sp, p, f.Description), editProblems(sp, src, f.Edits)...)
}

// codeProblems parses the code of a fix's description and checks the columns it names.
func codeProblems(sp *sql.Parser, p *plan.Project, desc string) []string {
	block := ""
	if i := strings.Index(desc, ":\n"); i >= 0 {
		block = desc[i+2:]
	}
	if strings.HasPrefix(desc, "SET ") {
		first, _, _ := strings.Cut(desc, ":")
		first, _, _ = strings.Cut(first, " (")
		block = first + "\n" + block
	}
	if strings.TrimSpace(block) == "" {
		return nil
	}
	switch {
	case strings.HasPrefix(block, "{{ config("):
		return dbtProblems(sp, p, block)
	case strings.Contains(block, "import static org.apache.spark"):
		return codeFileProblems(p, "Fix.java", block)
	case strings.Contains(block, "from pyspark") || strings.HasPrefix(strings.TrimSpace(block), "(df"):
		return codeFileProblems(p, "fix.py", block)
	case strings.Contains(block, "import org.apache.spark") || strings.Contains(block, "df.repartition") || strings.Contains(block, "val "):
		return codeFileProblems(p, "Fix.scala", block)
	}
	f, errs := sp.ParseFile("fix.sql", []byte(block))
	if len(errs) > 0 {
		return []string{"the fix's SQL does not parse: " + errs.Err().Error() + "\n" + block}
	}
	var out []string
	for _, tab := range f.Tables {
		var cols []string
		if b := tab.Buckets(); b != nil {
			cols = append(append(cols, b.Columns...), b.SortColumns...)
		}
		cols = append(cols, tab.PartitionColumns...)
		out = append(out, columnProblems(p, tab.Name, cols)...)
	}
	return out
}

// codeFileProblems parses a fix's PySpark or Scala and checks its writes' columns.
func codeFileProblems(p *plan.Project, name, block string) []string {
	cf, errs := code.Parse(name, []byte(block))
	if len(errs) > 0 || cf == nil {
		return []string{"the fix's code does not parse: " + errs.Err().Error() + "\n" + block}
	}
	var out []string
	for _, w := range cf.Writes {
		var cols []string
		if w.Bucket != nil {
			cols = append(append(cols, w.Bucket.Columns...), w.Bucket.SortColumns...)
		}
		cols = append(cols, w.PartitionBy...)
		for _, tr := range w.Transforms {
			for _, a := range tr.X.Args {
				if a.Op == plan.OpColumn {
					cols = append(cols, a.Name)
				}
			}
		}
		if w.TransformsExpr != "" {
			out = append(out, "the fix's partitionedBy is not read statically: "+w.TransformsExpr)
		}
		if w.Repartition != nil {
			cols = append(cols, trimQuotes(w.Repartition.Cols)...)
		}
		out = append(out, columnProblems(p, w.Table, cols)...)
	}
	return out
}

// columnProblems reports the columns the table is known not to have.
func columnProblems(p *plan.Project, table string, cols []string) []string {
	tab := lookup(p.Tables, table)
	if tab == nil || len(tab.Columns) == 0 {
		return nil
	}
	var out []string
	for _, c := range cols {
		if _, ok := tab.Column(c); !ok {
			out = append(out, "the fix names column "+c+", which "+table+" does not have")
		}
	}
	return out
}

// editProblems applies each edit to its file and re-parses it.
func editProblems(sp *sql.Parser, src map[string][]byte, edits []Edit) []string {
	var out []string
	for _, e := range edits {
		data, ok := src[e.Span.Start.File]
		if !ok {
			out = append(out, "an edit of "+e.Span.Start.File+", which is not an input")
			continue
		}
		from, ok1 := offsetOf(data, e.Span.Start)
		to, ok2 := offsetOf(data, e.Span.End)
		if !ok1 || !ok2 || to < from {
			out = append(out, "an edit span outside its file: "+e.Span.Start.String())
			continue
		}
		after := string(data[:from]) + e.Text + string(data[to:])
		name := e.Span.Start.File
		if before, now := parseErrors(sp, name, data), parseErrors(sp, name, []byte(after)); now > before {
			out = append(out, "the edit to "+strconvQuote(e.Text)+" leaves "+name+" unparsable:\n"+after)
		}
	}
	return out
}

func strconvQuote(s string) string { return "\"" + s + "\"" }

// offsetOf returns the byte offset of a 1-based line and column.
func offsetOf(data []byte, p plan.Pos) (int, bool) {
	line, off := 1, 0
	for off < len(data) && line < p.Line {
		if data[off] == '\n' {
			line++
		}
		off++
	}
	off += p.Col - 1
	return off, line == p.Line && off <= len(data)
}

// parseErrors counts a file's parse errors.
func parseErrors(sp *sql.Parser, name string, data []byte) int {
	switch filepath.Ext(name) {
	case ".sql":
		_, errs := sp.ParseFile(name, data)
		return len(errs)
	case ".py", ".scala", ".java":
		_, errs := code.Parse(name, data)
		return len(errs)
	}
	return 0
}
