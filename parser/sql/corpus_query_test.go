package sql

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusQueries reads every statement of every .sql.out golden file of the corpus: those
// Spark ran without an exception must not give an error (statements not modelled are kept as
// text), and the queries among them (SELECT, WITH, INSERT, views, and the query of EXPLAIN
// [mode] …) must parse. At most maxQueryFailures may fail.
func TestCorpusQueries(t *testing.T) {
	const maxQueryFailures = 0
	root := filepath.Join(corpusDir(), "spark-golden")
	files, _ := filepath.Glob(filepath.Join(root, "*", "sql/core/src/test/resources/sql-tests/results/*.sql.out"))
	if len(files) == 0 {
		t.Skipf("corpus not found under %s (set BUCKETLINT_CORPUS)", root)
	}
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	parsed, failed, joins, statements, otherFailed := 0, 0, 0, 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		for _, b := range blocks(string(src)) {
			statements++
			if _, errs := p.ParseFile(rel, []byte(b.sql)); len(errs) > 0 && !strings.Contains(firstLine(b.output), "Exception") {
				otherFailed++
				t.Logf("%s:%d: statement Spark ran: %v", rel, b.line, errs[0])
			}
			sql := explainBody(b.sql)
			if k := classify(leadingWords(sql, 6)); k != stmtQuery && k != stmtView || strings.Contains(firstLine(b.output), "Exception") {
				continue
			}
			file, errs := p.ParseFile(rel, []byte(sql))
			if len(errs) > 0 {
				failed++
				t.Logf("%s:%d: %v", rel, b.line, errs[0])
				continue
			}
			parsed++
			for _, q := range file.Queries {
				if strings.Contains(strings.ToUpper(q.Text), "JOIN") {
					joins++
				}
			}
		}
	}
	t.Logf("%d corpus statements of every kind, %d of those Spark ran gave errors; %d corpus queries parsed (%d with joins), %d failed",
		statements, otherFailed, parsed, joins, failed)
	if failed+otherFailed > maxQueryFailures {
		t.Errorf("%d corpus queries failed to parse; at most %d may", failed, maxQueryFailures)
	}
}

// explainBody strips "EXPLAIN [EXTENDED|FORMATTED|CODEGEN|COST]" from a statement.
func explainBody(sql string) string {
	w := leadingWords(sql, 2)
	if len(w) == 0 || w[0] != "explain" {
		return sql
	}
	s := strings.TrimSpace(sql[leadingSpace(sql):])[len("explain"):]
	s = strings.TrimSpace(s)
	for _, m := range []string{"extended", "formatted", "codegen", "cost"} {
		if len(s) > len(m) && strings.EqualFold(s[:len(m)], m) {
			return s[len(m):]
		}
	}
	return s
}
