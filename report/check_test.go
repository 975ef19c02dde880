package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/bucketlint/bucketlint/internal/golden"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

var update = flag.Bool("update", false, "rewrite golden sections")

func span(file string, l, c, el, ec int) plan.Span {
	return plan.Span{Start: plan.Pos{File: file, Line: l, Col: c}, End: plan.Pos{File: file, Line: el, Col: ec}}
}

// sampleCheck is a run with one finding of each severity, related positions, a fix with an
// edit, a message that needs escaping everywhere and a non-ASCII line.
func sampleCheck() *Check {
	src := map[string]string{
		"jobs/daily.sql": "-- é\nSELECT * FROM orders o JOIN customers c ON o.id = c.id;\n",
		"ddl/orders.sql": "CREATE TABLE orders (id INT, amt DOUBLE) USING parquet CLUSTERED BY (id) INTO 8 BUCKETS;\n",
	}
	return &Check{
		Tool:  Tool{Name: "bucketlint", Version: "0.1.0-test"},
		Files: 3,
		Rules: []*rules.Rule{
			{ID: "BL103", Name: "invalid-bucket-count", Title: "bucket count outside 1..maxBuckets", Doc: "Spark raises.\n\nMore.", Bad: "INTO 0 BUCKETS", Good: "INTO 8 BUCKETS", Spark: "3.0–4.x", Severity: rules.Error, Default: true},
			{ID: "BL301", Name: "bucket-count-mismatch", Title: "join of tables bucketed with different counts", Doc: "The smaller side is shuffled.", Bad: "8 vs 16", Good: "16 vs 16", Spark: "3.0–4.x", Severity: rules.Warning, Default: true},
			{ID: "BL308", Name: "broadcast-beats-bucketing", Title: "one side small enough to broadcast", Doc: "Broadcast it.", Bad: "b", Good: "g", Spark: "3.0–4.x", Severity: rules.Info, Default: true},
		},
		Findings: []rules.Diagnostic{
			{Rule: "BL103", Name: "invalid-bucket-count", Severity: rules.Error, Span: span("ddl/orders.sql", 1, 60, 1, 75), Message: "bucket count 0: Spark raises INVALID_BUCKET_COUNT"},
			{
				Rule: "BL301", Name: "bucket-count-mismatch", Severity: rules.Warning, Span: span("jobs/daily.sql", 2, 24, 2, 56),
				Message: "join of orders (8 buckets) and customers (16 buckets) shuffles orders: 100% of rows, a,b",
				Related: []rules.Related{{Span: span("ddl/customers.sql", 4, 1, 4, 20), Message: "customers is bucketed into 16 buckets here"}},
				Fix:     &rules.Fix{Description: "Rebucket orders INTO 16 BUCKETS", Edits: []rules.Edit{{Span: span("ddl/orders.sql", 1, 79, 1, 80), Text: "16"}}},
			},
			{Rule: "BL308", Name: "broadcast-beats-bucketing", Severity: rules.Info, Span: span("jobs/daily.sql", 2, 40, 2, 50), Message: "customers (2 MB) is small enough to broadcast"},
		},
		Errors: []PositionedError{{File: "bad.sql", Line: 3, Column: 7, Message: "unexpected token \"FORM\""}},
		Source: func(f string) []byte {
			if s, ok := src[f]; ok {
				return []byte(s)
			}
			return nil
		},
	}
}

// TestFormats renders the sample run in every format against testdata/check_formats.txtar.
func TestFormats(t *testing.T) {
	c := golden.Load(t, "testdata/check_formats.txtar", *update)[0]
	for _, name := range Formats() {
		f, ok := FormatByName(name)
		if !ok {
			t.Fatalf("format %s not found", name)
		}
		var b bytes.Buffer
		if err := f(&b, sampleCheck()); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c.Check(t, name, b.Bytes())
	}
	c.Save(t)
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	// The schema is the SARIF 2.1.0 (rtm.5) JSON schema as shipped in the npm package
	// @microsoft/jest-sarif 1.0.0-beta.0 (lib/schemas/sarif-2.1.0-rtm.5.json, MIT).
	const schemaFile = "testdata/sarif-2.1.0-rtm.5.json"
	comp := jsonschema.NewCompiler()
	sch, err := comp.Compile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*Check{"sample": sampleCheck(), "empty": {Tool: Tool{Name: "bucketlint", Version: "1.0.0"}}} {
		var b bytes.Buffer
		if err := SARIF(&b, c); err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(&b)
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(doc); err != nil {
			t.Errorf("%s: SARIF does not validate: %v", name, err)
		}
	}
}

func TestSARIFColumnsAreUTF16AndFingerprintsStable(t *testing.T) {
	c := sampleCheck()
	c.Source = func(string) []byte { return []byte("x\né😀 SELECT\n") }
	c.Findings = c.Findings[1:2]
	c.Findings[0].Span = span("jobs/daily.sql", 2, 8, 2, 14) // after é (2 bytes) 😀 (4 bytes) and a space
	var b bytes.Buffer
	if err := SARIF(&b, c); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						Region sarifRegion `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	r := log.Runs[0].Results[0]
	if got := r.Locations[0].PhysicalLocation.Region.StartColumn; got != 5 {
		t.Errorf("start column = %d, want 5 (é is 1 UTF-16 unit, 😀 2)", got)
	}
	moved := c.Findings[0]
	moved.Span = span("jobs/daily.sql", 40, 1, 40, 2)
	if Fingerprint(&moved) != Fingerprint(&c.Findings[0]) {
		t.Error("fingerprint changed when the finding moved")
	}
	other := c.Findings[0]
	other.Message = strings.Replace(other.Message, "16 buckets", "32 buckets", 1)
	if Fingerprint(&other) == Fingerprint(&c.Findings[0]) {
		t.Error("fingerprint did not change with the message")
	}
	if fp := r.PartialFingerprints["primaryLocationLineHash"]; !strings.HasSuffix(fp, ":1") {
		t.Errorf("primaryLocationLineHash = %q, want an occurrence suffix", fp)
	}
}

// manyFindings returns n findings of each severity in one file.
func manyFindings(n int) []rules.Diagnostic {
	var ds []rules.Diagnostic
	for i := 0; i < n; i++ {
		for _, s := range []rules.Severity{rules.Error, rules.Warning, rules.Info} {
			ds = append(ds, rules.Diagnostic{
				Rule: "BL301", Name: "bucket-count-mismatch", Severity: s,
				Span: span("a.sql", i+1, 1, i+1, 5), Message: fmt.Sprintf("%s finding %d", s, i),
			})
		}
	}
	SortFindings(ds)
	return ds
}

func TestGitHubAnnotationLimits(t *testing.T) {
	var out, summary bytes.Buffer
	c := &Check{Tool: Tool{Name: "bucketlint"}, Findings: manyFindings(12), StepSummary: &summary}
	if err := GitHub(&out, c); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		level, _, _ := strings.Cut(strings.TrimPrefix(l, "::"), " ")
		counts[level]++
	}
	// 10 of each level, plus the overflow note as an 11th notice GitHub may drop.
	if counts["error"] != 10 || counts["warning"] != 10 || counts["notice"] != 11 {
		t.Errorf("annotations per level = %v, want 10 error, 10 warning, 10+1 notice", counts)
	}
	if !strings.Contains(out.String(), "6 more findings not annotated") {
		t.Errorf("no overflow note in:\n%s", out.String())
	}
	rows := strings.Count(summary.String(), "\n| `a.sql:")
	if rows != 6 {
		t.Errorf("step summary lists %d findings, want 6:\n%s", rows, summary.String())
	}
	if !strings.Contains(summary.String(), "| `a.sql:11:1` | error | BL301 | error finding 10 |") {
		t.Errorf("step summary misses the 11th error:\n%s", summary.String())
	}
}

func TestGitHubEscaping(t *testing.T) {
	var out bytes.Buffer
	c := &Check{Findings: []rules.Diagnostic{{
		Rule: "BL301", Name: "n", Severity: rules.Warning,
		Span: span("dir,x/a:b.sql", 2, 3, 4, 5), Message: "100% of rows\nshuffled, twice: yes",
	}}}
	if err := GitHub(&out, c); err != nil {
		t.Fatal(err)
	}
	want := "::warning file=dir%2Cx/a%3Ab.sql,line=2,endLine=4,title=BL301 n::100%25 of rows%0Ashuffled, twice: yes\n"
	if out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
}

func TestMarkdownStaysUnderLimit(t *testing.T) {
	c := &Check{Tool: Tool{Name: "bucketlint"}, Files: 1, Findings: manyFindings(2000)}
	for i := range c.Findings {
		c.Findings[i].Message += " " + strings.Repeat("long explanation ", 4)
	}
	var out bytes.Buffer
	if err := Markdown(&out, c); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if len(s) > MarkdownLimit {
		t.Errorf("comment is %d bytes, limit %d", len(s), MarkdownLimit)
	}
	if !strings.HasPrefix(s, MarkdownMarker+"\n") {
		t.Error("comment does not start with the marker")
	}
	if !strings.Contains(s, "more findings not shown") {
		t.Error("comment does not say that findings were left out")
	}
	if n := strings.Count(s, "\n- :"); n < 100 {
		t.Errorf("only %d findings shown; the comment should fill its budget", n)
	}
}

func TestMarkdownDrawsThePlanOfAJoinFinding(t *testing.T) {
	scan := &plan.FileScan{Table: "orders"}
	e := &plan.Explain{File: "plans/q1.txt", Pos: plan.Pos{File: "plans/q1.txt", Line: 1}, Plans: []plan.Section{{Name: "Physical Plan", Root: scan}}}
	c := &Check{Tool: Tool{Name: "bucketlint"}, Explains: []*plan.Explain{e}, Findings: []rules.Diagnostic{
		{Rule: "BL310", Name: "shuffle-on-bucketed-join", Severity: rules.Warning, Span: span("plans/q1.txt", 3, 1, 3, 9), Message: "m"},
		{Rule: "BL310", Name: "shuffle-on-bucketed-join", Severity: rules.Warning, Span: span("plans/q1.txt", 5, 1, 5, 9), Message: "n"},
	}}
	var out bytes.Buffer
	if err := Markdown(&out, c); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "```mermaid"); n != 1 {
		t.Errorf("%d drawings, want the plan drawn once:\n%s", n, out.String())
	}
}

func TestTextColourOnlyWhenAsked(t *testing.T) {
	for _, color := range []bool{false, true} {
		c := sampleCheck()
		c.Color = color
		var b bytes.Buffer
		if err := Text(&b, c); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "\x1b["); got != color {
			t.Errorf("Color=%v: ANSI escapes present = %v", color, got)
		}
	}
}
