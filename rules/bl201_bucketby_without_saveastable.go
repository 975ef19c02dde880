package rules

import (
	"fmt"
)

func bl201() *Rule {
	return &Rule{
		ID:    "BL201",
		Name:  "bucketby-without-saveastable",
		Title: "bucketBy written with save(), insertInto(), a path writer or jdbc(), which Spark rejects",
		Doc: "A bucket spec lives in the catalog, so only `saveAsTable` can record it. Spark checks the\n" +
			"terminal call before writing and raises:\n\n" +
			"- `save()`, `parquet(path)`, `orc`, `csv`, `json`, `text`, `format(f).save(path)`: `'save' does\n" +
			"  not support bucketBy right now` (`… bucketBy and sortBy …` with `sortBy`);\n" +
			"- `insertInto(t)`: `'insertInto' does not support bucketBy right now` (the target's own spec\n" +
			"  applies to an insert);\n" +
			"- `jdbc(…)`: `'jdbc' does not support bucketBy right now`.\n\n" +
			"(`_LEGACY_ERROR_TEMP_1312`/`1313` in 3.4+, with a final period.) Write with\n" +
			"`saveAsTable(\"db.table\")` — with `.option(\"path\", …)` for an external table — or drop the\n" +
			"`bucketBy`. For `insertInto(t)` the fix replaces the call with `.mode(…).saveAsTable(t)`, which\n" +
			"appends with the given spec (Spark checks that it matches the table's)." + suppressDoc("BL201"),
		Bad:      `df.write.bucketBy(16, "id").parquet("/warehouse/orders")`,
		Good:     `df.write.bucketBy(16, "id").option("path", "/warehouse/orders").saveAsTable("sales.orders")`,
		Spark:    "2.0–4.x",
		Since:    "0.1.0",
		Severity: Error,
		Default:  true,
		Run:      runBL201,
	}
}

func runBL201(p *Pass) error {
	for _, cf := range p.Project.Code {
		for _, w := range cf.Writes {
			if w.Bucket == nil || w.Terminal == "saveAsTable" || w.Terminal == "writeTo" || w.Terminal == "" {
				continue
			}
			op := "save"
			switch w.Terminal {
			case "insertInto", "jdbc":
				op = w.Terminal
			}
			what := "bucketBy"
			if len(w.Bucket.SortColumns) > 0 && op == "save" {
				what = "bucketBy and sortBy"
			}
			spark := fmt.Sprintf("'%s' does not support %s right now", op, what)
			if p.Options.Behaviour().ErrorClasses {
				spark += "."
			}
			d := Diagnostic{
				Span:    spanOrPos(w.TerminalSpan, w.Span.Start),
				Message: fmt.Sprintf("bucketBy with %s(): %s raises %q; only saveAsTable records a bucket spec", w.Terminal, p.spark(), spark),
				Related: []Related{{Span: w.Bucket.Span, Message: "bucketed here"}},
				Fix:     &Fix{},
			}
			switch {
			case w.Terminal == "insertInto" && w.Table != "":
				mode := w.Mode
				if mode == "" {
					mode = "append"
				}
				text := fmt.Sprintf(".mode(%s).saveAsTable(%s)", quoted(mode), quoted(w.Table))
				d.Fix.Description = "Replace ." + w.Terminal + "(…) with " + text
				if w.TerminalSpan.End.IsValid() {
					d.Fix.Edits = []Edit{{Span: w.TerminalSpan, Text: text}}
				}
			case w.Terminal == "jdbc":
				d.Fix.Description = "Remove .bucketBy(…): a JDBC table cannot be bucketed"
			case w.Path != "":
				d.Fix.Description = fmt.Sprintf("Write a table instead: .option(\"path\", %s).saveAsTable(\"<db.table>\"), or drop .bucketBy(…)", quoted(w.Path))
			default:
				d.Fix.Description = "Write a table instead: .saveAsTable(\"<db.table>\"), or drop .bucketBy(…)"
			}
			p.Report(d)
		}
	}
	return nil
}
