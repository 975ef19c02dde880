package lsp

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// workspace is a project whose job joins two tables declared in other files; with equal
// bucket counts the join needs no shuffle.
func workspace(t *testing.T, customerBuckets string) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"ddl/orders.sql":    "CREATE TABLE orders (id INT, amt DOUBLE) USING parquet /* 注文 😀 */ CLUSTERED BY (id) INTO 8 BUCKETS;\n",
		"ddl/customers.sql": customersDDL(customerBuckets),
		"jobs/report.sql":   "-- the nightly report\nSELECT o.amt, c.name FROM orders o JOIN customers c ON o.id = c.id;\n",
		"jobs/copy.py":      pyJob,
		"ddl/pair.sql":      "CREATE TABLE pa (id INT) USING parquet; CREATE TABLE pb (id INT) USING orc;\n",
	})
	return dir
}

// pyJob reads one table and writes another, bucketed.
const pyJob = `from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
df = spark.table("orders")
df.write.format("parquet").bucketBy(8, "id").saveAsTable("orders_copy")
`

func customersDDL(buckets string) string {
	return "CREATE TABLE customers (id INT, name STRING) USING parquet\nCLUSTERED BY (id) INTO " + buckets + " BUCKETS;\n"
}

// TestDDLChangeReaches edits a DDL file in the editor without saving it: the job in another
// file that joins its table gets a bucket-count finding (with the rule's link, the other
// tables' DDL as related places), and loses it when the edit is undone; closing the document
// goes back to the file on disk.
func TestDDLChangeReaches(t *testing.T) {
	t.Parallel()
	dir := workspace(t, "8")
	c := start(t, Options{})
	c.initialize(map[string]any{}, dir)
	job, ddl := uriOf(dir, "jobs/report.sql"), uriOf(dir, "ddl/customers.sql")

	// A hover waits for the first check: nothing is reported for the job.
	c.call("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: job}, Position: position{Line: 1, Character: 0}})
	if ds := c.diags[job]; len(ds) > 0 {
		t.Fatalf("before the edit the job has diagnostics %+v", ds)
	}

	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: ddl, LanguageID: "sql", Version: 1, Text: customersDDL("8")}})
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   versionedTextDocumentIdentifier{URI: ddl, Version: 2},
		"contentChanges": []contentChange{{Text: customersDDL("16")}},
	})
	ds := c.waitDiagnostics(job, "BL301 on the job", func(ds []diagnostic) bool { return strings.Contains(codes(ds), "BL301") })
	d := ds[slices.IndexFunc(ds, func(d diagnostic) bool { return d.Code == "BL301" })]
	if d.Severity != severityWarning || d.Source != "bucketlint" || d.Range.Start.Line != 1 {
		t.Errorf("BL301 %+v", d)
	}
	if d.CodeDescription == nil || !strings.HasSuffix(d.CodeDescription.Href, "docs/rules.md#bl301-bucket-count-mismatch") {
		t.Errorf("BL301 links to %+v", d.CodeDescription)
	}
	var related []string
	for _, r := range d.RelatedInformation {
		related = append(related, r.Location.URI[strings.LastIndex(r.Location.URI, "/")+1:]+":"+r.Message)
	}
	if want := "customers.sql:customers is bucketed into 16 buckets on (id) here"; !slices.Contains(related, want) {
		t.Errorf("related %q, want %q among them", related, want)
	}

	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   versionedTextDocumentIdentifier{URI: ddl, Version: 3},
		"contentChanges": []contentChange{{Text: customersDDL("8")}},
	})
	c.waitDiagnostics(job, "the job's diagnostics cleared", func(ds []diagnostic) bool { return len(ds) == 0 })

	// Unsaved text again, then closed without saving: the file on disk (8 buckets) counts.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   versionedTextDocumentIdentifier{URI: ddl, Version: 4},
		"contentChanges": []contentChange{{Text: customersDDL("32")}},
	})
	c.waitDiagnostics(job, "BL301 again", func(ds []diagnostic) bool { return strings.Contains(codes(ds), "BL301") })
	c.notify("textDocument/didClose", didCloseParams{TextDocument: textDocumentIdentifier{URI: ddl}})
	c.waitDiagnostics(job, "the job's diagnostics cleared on close", func(ds []diagnostic) bool { return len(ds) == 0 })
	c.shutdown()
}

// TestCodeAction offers the finding's fix as a quick fix that edits the DDL in the other
// file, at the bucket count's UTF-16 position (the line holds characters outside ASCII and
// outside the Basic Multilingual Plane before it), versioned when the DDL is open.
func TestCodeAction(t *testing.T) {
	t.Parallel()
	dir := workspace(t, "16")
	c := start(t, Options{})
	c.initialize(map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}}}, dir)
	job, orders := uriOf(dir, "jobs/report.sql"), uriOf(dir, "ddl/orders.sql")
	ordersText := "CREATE TABLE orders (id INT, amt DOUBLE) USING parquet /* 注文 😀 */ CLUSTERED BY (id) INTO 8 BUCKETS;\n"
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: orders, LanguageID: "sql", Version: 7, Text: ordersText}})
	ds := c.waitDiagnostics(job, "BL301", func(ds []diagnostic) bool { return strings.Contains(codes(ds), "BL301") })
	var actions []codeAction
	c.result("textDocument/codeAction", map[string]any{
		"textDocument": textDocumentIdentifier{URI: job},
		"range":        lspRange{Start: ds[0].Range.Start, End: ds[0].Range.Start},
		"context":      map[string]any{"diagnostics": ds},
	}, &actions)
	if len(actions) != 1 {
		t.Fatalf("actions %+v, want one", actions)
	}
	a := actions[0]
	if a.Title != "Rebucket orders INTO 16 BUCKETS to match customers" || a.Kind != "quickfix" || !a.IsPreferred || len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != "BL301" {
		t.Errorf("action %+v", a)
	}
	if a.Edit == nil || len(a.Edit.DocumentChanges) != 1 {
		t.Fatalf("edit %+v", a.Edit)
	}
	dc := a.Edit.DocumentChanges[0]
	if dc.TextDocument.URI != orders || dc.TextDocument.Version == nil || *dc.TextDocument.Version != 7 {
		t.Errorf("edited document %+v", dc.TextDocument)
	}
	eight := strings.Index(ordersText, " 8 ") + 1
	col := len(utf16.Encode([]rune(ordersText[:eight])))
	want := textEdit{Range: lspRange{Start: position{0, col}, End: position{0, col + 1}}, NewText: "16"}
	if len(dc.Edits) != 1 || dc.Edits[0] != want {
		t.Errorf("edits %+v, want %+v (byte column %d)", dc.Edits, want, eight+1)
	}

	// Only refactorings asked for, or a range away from the finding: no quick fix.
	for _, params := range []map[string]any{
		{"textDocument": textDocumentIdentifier{URI: job}, "range": ds[0].Range, "context": map[string]any{"only": []string{"refactor"}}},
		{"textDocument": textDocumentIdentifier{URI: job}, "range": lspRange{}, "context": map[string]any{}},
	} {
		var none []codeAction
		c.result("textDocument/codeAction", params, &none)
		if len(none) != 0 {
			t.Errorf("%v: actions %+v, want none", params, none)
		}
	}
	c.shutdown()
}

// TestCodeActionChanges answers a client without versioned document changes with plain
// changes by URI.
func TestCodeActionChanges(t *testing.T) {
	t.Parallel()
	dir := workspace(t, "16")
	c := start(t, Options{})
	c.initialize(map[string]any{}, dir)
	job := uriOf(dir, "jobs/report.sql")
	ds := c.waitDiagnostics(job, "BL301", func(ds []diagnostic) bool { return strings.Contains(codes(ds), "BL301") })
	var actions []codeAction
	c.result("textDocument/codeAction", map[string]any{"textDocument": textDocumentIdentifier{URI: job}, "range": ds[0].Range, "context": map[string]any{}}, &actions)
	if len(actions) != 1 || actions[0].Edit == nil || len(actions[0].Edit.Changes[uriOf(dir, "ddl/orders.sql")]) != 1 {
		t.Fatalf("actions %+v", actions)
	}
}

// TestHover shows a table's layout and where it is defined on its name, and the join's
// predicted plan around it; a comment shows nothing.
func TestHover(t *testing.T) {
	t.Parallel()
	dir := workspace(t, "16")
	c := start(t, Options{})
	c.initialize(map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown", "plaintext"}}}}, dir)
	job := uriOf(dir, "jobs/report.sql")
	line := "SELECT o.amt, c.name FROM orders o JOIN customers c ON o.id = c.id;"
	var h hoverResult
	c.result("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: job}, Position: position{Line: 1, Character: strings.Index(line, "customers") + 2}}, &h)
	for _, want := range []string{
		"**`customers`**: table, parquet",
		"- bucketing: `16 buckets by (id)`",
		"- columns: `id int, name string`",
		"- defined at [ddl/customers.sql:1](" + uriOf(dir, "ddl/customers.sql") + "#L1)",
		"**Inner join** of `orders` and `customers`, predicted for Spark 3.5",
		"- left `orders`: shuffled (Exchange): ",
		"- right `customers`: not shuffled; customers is 16 buckets by (id)",
		"== Physical Plan (predicted) ==",
		"Exchange hashpartitioning(",
	} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
	if h.Contents.Kind != "markdown" || h.Range == nil || h.Range.Start != (position{1, strings.Index(line, "customers")}) || h.Range.End != (position{1, strings.Index(line, "customers") + len("customers")}) {
		t.Errorf("hover kind %s range %+v", h.Contents.Kind, h.Range)
	}

	// On the DDL statement's line: the table it declares.
	c.result("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: uriOf(dir, "ddl/orders.sql")}, Position: position{Line: 0, Character: 15}}, &h)
	if !strings.Contains(h.Contents.Value, "- bucketing: `8 buckets by (id)`") {
		t.Errorf("hover on the DDL:\n%s", h.Contents.Value)
	}

	// Two declarations on one line: the one the position is in.
	for char, want := range map[int]string{3: "**`pa`**: table, parquet", 50: "**`pb`**: table, orc"} {
		c.result("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: uriOf(dir, "ddl/pair.sql")}, Position: position{Line: 0, Character: char}}, &h)
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover at character %d lacks %q:\n%s", char, want, h.Contents.Value)
		}
	}

	// In PySpark: the table read and the table written.
	for _, hc := range []struct{ at, want string }{
		{`spark.table("orders")`, "**`orders`**: table, parquet"},
		{`saveAsTable("orders_copy")`, "**`orders_copy`**: table"},
	} {
		i := strings.Index(pyJob, hc.at)
		lineNo := strings.Count(pyJob[:i], "\n")
		col := i - strings.LastIndex(pyJob[:i], "\n") - 1 + 3
		c.result("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: uriOf(dir, "jobs/copy.py")}, Position: position{Line: lineNo, Character: col}}, &h)
		if !strings.Contains(h.Contents.Value, hc.want) {
			t.Errorf("hover on %s lacks %q:\n%s", hc.at, hc.want, h.Contents.Value)
		}
	}

	resp := c.call("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: job}, Position: position{Line: 0, Character: 3}})
	if resp.Error != nil || string(resp.Result) != "null" {
		t.Errorf("hover on a comment: %s %v", resp.Result, resp.Error)
	}
}
