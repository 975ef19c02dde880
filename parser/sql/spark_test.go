package sql

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// sparkRun is a testdata/spark/<version>/ddl.json file written by oracle/ddlcheck.py.
type sparkRun struct {
	SparkVersion string      `json:"spark_version"`
	Command      string      `json:"command"`
	Cases        []sparkCase `json:"cases"`
}

type sparkCase struct {
	Name             string     `json:"name"`
	SQL              string     `json:"sql"`
	Accepted         bool       `json:"accepted"`
	Error            string     `json:"error"`
	ErrorClass       string     `json:"error_class"`
	CatalogError     string     `json:"catalog_bucket_error"`
	DescribeExtended string     `json:"describe_extended"`
	ShowCreate       string     `json:"show_create"`
	DescribeJSON     string     `json:"describe_json"`
	CatalogBucket    *sparkSpec `json:"catalog_bucket"`
}

type sparkSpec struct {
	NumBuckets    int      `json:"num_buckets"`
	BucketColumns []string `json:"bucket_columns"`
	SortColumns   []string `json:"sort_columns"`
}

func (s *sparkSpec) spec() *plan.BucketSpec {
	if s == nil {
		return nil
	}
	return &plan.BucketSpec{NumBuckets: s.NumBuckets, Columns: lower(s.BucketColumns), SortColumns: lower(s.SortColumns)}
}

// parseRejection reports whether Spark's error comes from its SQL parser (AstBuilder), which
// the parser must reproduce, rather than from analysis, which is the rules' business.
func parseRejection(class, msg string) bool {
	if class == "ParseException" {
		return true
	}
	for _, m := range []string{"PARSE_SYNTAX_ERROR", "Syntax error", "Operation not allowed", "DUPLICATE_CLAUSES", "Found duplicate clauses", "mismatched input"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// TestSparkDDL checks the parser against real Spark: for every statement recorded by
// oracle/ddlcheck.py, a statement Spark's parser rejected is a parse error here; one Spark
// accepted parses without error to the bucket spec Spark's catalog holds (CREATE TABLE LIKE
// resolved against the earlier statements); and the DESCRIBE EXTENDED, DESCRIBE … AS JSON and
// SHOW CREATE TABLE outputs Spark printed parse to that same spec.
func TestSparkDDL(t *testing.T) {
	files, _ := filepath.Glob("testdata/spark/*/ddl.json")
	if len(files) == 0 {
		t.Skip("no testdata/spark/*/ddl.json; run oracle/ddlcheck.py")
	}
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var run sparkRun
		if err := json.Unmarshal(data, &run); err != nil {
			t.Fatal(err)
		}
		v := seriesOf(t, run.SparkVersion)
		t.Run(run.SparkVersion, func(t *testing.T) { sparkRunCheck(t, p.WithOptions(Options{Spark: v}), run) })
	}
}

func sparkRunCheck(t *testing.T, p *Parser, run sparkRun) {
	t.Helper()
	created := map[string]*plan.Table{}
	var agree, accepted, outputs int
	var lintCases []string
	for _, c := range run.Cases {
		f, errs := p.ParseFile(c.Name+".sql", []byte(c.SQL))
		var tab *plan.Table
		if len(f.Tables) > 0 {
			tab = f.Tables[0]
		}
		switch {
		case !c.Accepted && strings.Contains(c.Error, "Number of buckets should be"):
			// Spark's parser checks the count against spark.sql.sources.bucketing.maxBuckets,
			// a conf the parser cannot see: it keeps the table for BL103 to report.
			if tab == nil || tab.Buckets() == nil || tab.Buckets().NumBuckets > 0 && tab.Buckets().NumBuckets <= 100000 {
				t.Errorf("%s: want a table with an out-of-range bucket count for %q", c.Name, c.SQL)
				continue
			}
			lintCases = append(lintCases, c.Name+" (BL103)")
		case !c.Accepted && parseRejection(c.ErrorClass, c.Error):
			if len(errs) == 0 {
				t.Errorf("%s: Spark's parser rejects %q (%s); the parser accepts it", c.Name, c.SQL, c.Error)
				continue
			}
			agree++
		case !c.Accepted:
			// Analysis rejects it (bucket count, missing column, format…): a rule's job.
			lintCases = append(lintCases, c.Name)
			if len(errs) == 0 && tab == nil {
				t.Errorf("%s: no table for %q", c.Name, c.SQL)
			}
		default:
			accepted++
			if len(errs) > 0 || tab == nil {
				t.Errorf("%s: Spark accepts %q; the parser: %v", c.Name, c.SQL, errs)
				continue
			}
			created[lastPart(tab.Name)] = tab
			if c.CatalogError != "" {
				// No catalog entry to compare with (a temporary table is a view).
				lintCases = append(lintCases, c.Name+" (no catalog entry)")
				continue
			}
			got := tab.Buckets()
			if tab.Like != "" && created[lastPart(tab.Like)] != nil {
				got = created[lastPart(tab.Like)].Buckets()
			}
			want := c.CatalogBucket.spec()
			if !sameBucket(got, want) {
				t.Errorf("%s: parser bucket %s, Spark catalog %s", c.Name, bucketString(got), bucketString(want))
				continue
			}
			agree++
			outputs += sparkOutputs(t, p, c, want)
		}
	}
	t.Logf("Spark %s: %d statements, %d accepted; parser agrees on %d; %d outputs parsed to the catalog spec; rejected by Spark but kept for lint rules: %s",
		run.SparkVersion, len(run.Cases), accepted, agree, outputs, strings.Join(lintCases, ", "))
}

// sparkOutputs checks that the outputs Spark printed for a table parse to its catalog spec.
func sparkOutputs(t *testing.T, p *Parser, c sparkCase, want *plan.BucketSpec) int {
	t.Helper()
	n := 0
	check := func(what string, tab *plan.Table, errs []error) {
		if len(errs) > 0 || tab == nil {
			t.Errorf("%s: %s does not parse: %v", c.Name, what, errs)
			return
		}
		if !sameBucket(tab.Buckets(), want) {
			t.Errorf("%s: %s bucket %s, Spark catalog %s", c.Name, what, bucketString(tab.Buckets()), bucketString(want))
			return
		}
		n++
	}
	asErrs := func(l perr.List) []error {
		out := make([]error, len(l))
		for i, e := range l {
			out[i] = e
		}
		return out
	}
	if c.DescribeExtended != "" {
		tab, errs := p.ParseDescribe(c.Name+".describe.txt", []byte(c.DescribeExtended))
		check("DESCRIBE EXTENDED", tab, asErrs(errs))
	}
	if c.DescribeJSON != "" {
		tab, errs := p.ParseDescribe(c.Name+".json", []byte(c.DescribeJSON))
		check("DESCRIBE AS JSON", tab, asErrs(errs))
	}
	if c.ShowCreate != "" {
		tab, errs := p.ParseShowCreate(c.Name+".show.sql", []byte(c.ShowCreate))
		check("SHOW CREATE TABLE", tab, asErrs(errs))
	}
	return n
}
