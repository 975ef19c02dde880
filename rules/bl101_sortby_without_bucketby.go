package rules

import (
	"fmt"
	"strings"
)

func bl101() *Rule {
	return &Rule{
		ID:    "BL101",
		Name:  "sortby-without-bucketby",
		Title: "sortBy without bucketBy, which Spark rejects",
		Doc: "`DataFrameWriter.sortBy` only orders rows inside each bucket file, so it means nothing without\n" +
			"`bucketBy`: Spark checks this before writing anything and raises\n" +
			"`[SORT_BY_WITHOUT_BUCKETING] sortBy must be used together with bucketBy` (3.4+; earlier\n" +
			"versions print the same sentence without the class), for `saveAsTable` and `save` alike.\n\n" +
			"Remove the `sortBy`, or add the `bucketBy(n, cols…)` it was meant to go with. To sort the\n" +
			"files of an unbucketed write, use `sortWithinPartitions` on the DataFrame instead." + suppressDoc("BL101"),
		Bad:      `df.write.sortBy("id").saveAsTable("sales.orders")`,
		Good:     `df.write.bucketBy(64, "id").sortBy("id").saveAsTable("sales.orders")`,
		Spark:    "2.0–4.x",
		Since:    "0.1.0",
		Severity: Error,
		Default:  true,
		Run:      runBL101,
	}
}

func runBL101(p *Pass) error {
	for _, cf := range p.Project.Code {
		for _, w := range cf.Writes {
			if len(w.SortBy) == 0 || w.Bucket != nil {
				continue
			}
			msg := "sortBy must be used together with bucketBy."
			if p.Options.Behaviour().ErrorClasses {
				msg = "[SORT_BY_WITHOUT_BUCKETING] " + msg
			}
			d := Diagnostic{
				Span:    spanOrPos(w.SortBySpan, w.Span.Start),
				Message: fmt.Sprintf("sortBy(%s) without bucketBy: %s raises %q", strings.Join(w.SortBy, ", "), p.spark(), msg),
				Fix:     &Fix{Description: "Remove .sortBy(…), or bucket the write with .bucketBy(n, …) before it"},
			}
			if w.SortBySpan.Start.IsValid() && w.SortBySpan.End.IsValid() {
				d.Fix.Edits = []Edit{{Span: w.SortBySpan, Text: ""}}
			}
			p.Report(d)
		}
	}
	return nil
}
