package sql

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusQueries parses the queries of every .sql.out golden file of the corpus (SELECT,
// WITH, INSERT, and the query of EXPLAIN [mode] …) that Spark ran without an exception, and
// reports those the grammar cannot read. At most maxQueryFailures may fail.
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
	parsed, failed, joins := 0, 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		for _, b := range blocks(string(src)) {
			sql := explainBody(b.sql)
			if classify(leadingWords(sql, 6)) != stmtQuery || strings.Contains(firstLine(b.output), "Exception") {
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
	t.Logf("%d corpus queries parsed (%d with joins), %d failed", parsed, joins, failed)
	if failed > maxQueryFailures {
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
