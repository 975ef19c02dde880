package sql

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// corpusDir returns $BUCKETLINT_CORPUS or ../shared/corpus from the module root.
func corpusDir() string {
	if d := os.Getenv("BUCKETLINT_CORPUS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "corpus")
}

// A block is one "-- !query" block of a SQLQueryTestSuite golden file.
type block struct {
	sql, output string
	line        int
}

// blocks splits a .sql.out file (2.4's numbered "-- !query N" headers included).
func blocks(src string) []block {
	var out []block
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		if !isHeader(lines[i], "") {
			continue
		}
		b := block{line: i + 2}
		j := i + 1
		for ; j < len(lines) && !isHeader(lines[j], "schema"); j++ {
			b.sql += lines[j] + "\n"
		}
		for j < len(lines) && !isHeader(lines[j], "output") {
			j++
		}
		k := j + 1
		for ; k < len(lines) && !isHeader(lines[k], ""); k++ {
			b.output += lines[k] + "\n"
		}
		b.output = strings.TrimRight(b.output, "\n")
		out = append(out, b)
		i = k - 1
	}
	return out
}

// isHeader reports whether l is "-- !query[ N][ suffix]".
func isHeader(l, suffix string) bool {
	if !strings.HasPrefix(l, "-- !query") {
		return false
	}
	f := strings.Fields(strings.TrimPrefix(l, "-- !query"))
	if len(f) > 0 && f[0] != "" && f[0][0] >= '0' && f[0][0] <= '9' {
		f = f[1:]
	}
	if suffix == "" {
		return len(f) == 0
	}
	return len(f) == 1 && f[0] == suffix
}

// corpusStats counts what TestCorpus checked.
type corpusStats struct {
	statements, creates, describes, showCreates, matched, bucketed, skipped int
}

// TestCorpus reads every describe*.sql.out and show-create-table.sql.out of the Spark golden
// corpus: the CREATE TABLE, DESCRIBE and SHOW CREATE statements parse, and the SHOW CREATE
// TABLE and DESCRIBE outputs parse into tables whose bucket spec, partition columns and format
// equal those of the CREATE TABLE statement of the same file that made the table.
func TestCorpus(t *testing.T) {
	root := filepath.Join(corpusDir(), "spark-golden")
	files, _ := filepath.Glob(filepath.Join(root, "*", "sql/core/src/test/resources/sql-tests/results/*.sql.out"))
	files = slices.DeleteFunc(files, func(f string) bool {
		b := filepath.Base(f)
		return !strings.HasPrefix(b, "describe") && b != "show-create-table.sql.out"
	})
	if len(files) == 0 {
		t.Skipf("corpus not found under %s (set BUCKETLINT_CORPUS)", root)
	}
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var st corpusStats
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		corpusFile(t, p, rel, string(src), &st)
	}
	t.Logf("%d files: %d statements parsed (%d CREATE TABLE, %d DESCRIBE, %d SHOW CREATE); %d outputs matched their CREATE TABLE (%d with a bucket spec), %d outputs without a table to compare",
		len(files), st.statements, st.creates, st.describes, st.showCreates, st.matched, st.bucketed, st.skipped)
	if st.matched < 100 || st.bucketed < 20 {
		t.Errorf("only %d outputs matched (%d bucketed); expected over 100 (20)", st.matched, st.bucketed)
	}
}

func corpusFile(t *testing.T, p *Parser, name, src string, st *corpusStats) {
	t.Helper()
	tables := map[string]*plan.Table{}
	for _, b := range blocks(src) {
		failed := strings.Contains(firstLine(b.output), "Exception")
		w := leadingWords(b.sql, 6)
		kind := classify(w)
		isDesc := len(w) > 0 && (w[0] == "describe" || w[0] == "desc")
		isShow := len(w) > 2 && w[0] == "show" && w[1] == "create" && w[2] == "table"
		if kind != stmtCreate && kind != stmtAlter && kind != stmtDrop && !isDesc && !isShow {
			continue
		}
		f, errs := p.ParseFile(name, []byte(b.sql))
		if len(errs) > 0 && !failed {
			t.Errorf("%s:%d: %v", name, b.line, errs)
			continue
		}
		st.statements++
		switch {
		case kind == stmtCreate:
			st.creates++
			for _, tab := range f.Tables {
				if !failed {
					tables[lastPart(tab.Name)] = tab
				}
			}
		case kind == stmtDrop || kind == stmtAlter:
			for _, ch := range f.Changes {
				if ch.Kind == ChangeDrop && !failed {
					delete(tables, lastPart(ch.Table))
				}
			}
		case isShow:
			st.showCreates++
			if !failed && strings.HasPrefix(b.output, "CREATE TABLE") {
				got, errs := p.ParseShowCreate(name, []byte(b.output))
				compare(t, name, b, got, errs, tables[lastPart(stmtTable(b.sql, 3))], st, true)
			}
		case isDesc:
			st.describes++
			if failed || w[1] == "query" || w[1] == "function" || strings.Contains(strings.ToLower(b.sql), "partition") || hasColumnArg(b.sql) {
				continue
			}
			got, errs := p.ParseDescribe(name, []byte(b.output))
			detailed := strings.Contains(b.output, "# Detailed Table Information") || strings.HasPrefix(b.output, "{")
			compare(t, name, b, got, errs, tables[lastPart(descTable(b.sql))], st, detailed)
		}
	}
}

// compare checks an output's table against the created one.
func compare(t *testing.T, name string, b block, got *plan.Table, errs perr.List, want *plan.Table, st *corpusStats, detailed bool) {
	t.Helper()
	if len(errs) > 0 || got == nil {
		t.Errorf("%s:%d: output does not parse: %v", name, b.line, errs)
		return
	}
	if want == nil {
		st.skipped++
		return
	}
	if !slices.Equal(got.PartitionColumns, want.PartitionColumns) {
		t.Errorf("%s:%d: partition columns %v, created with %v", name, b.line, got.PartitionColumns, want.PartitionColumns)
	}
	if detailed {
		if !sameBucket(got.Buckets(), want.Buckets()) {
			t.Errorf("%s:%d: bucket %s, created with %s", name, b.line, bucketString(got.Buckets()), bucketString(want.Buckets()))
		}
		if want.Format != "" && got.Format != want.Format {
			t.Errorf("%s:%d: format %q, created with %q", name, b.line, got.Format, want.Format)
		}
	}
	st.matched++
	if want.Buckets() != nil && detailed {
		st.bucketed++
	}
}

// stmtTable returns the n-th word of a statement (the table of SHOW CREATE TABLE t), unquoted.
func stmtTable(sql string, n int) string {
	f := strings.Fields(sql)
	if len(f) <= n {
		return ""
	}
	return strings.ToLower(strings.ReplaceAll(f[n], "`", ""))
}

// descArgs returns the words of a DESCRIBE statement after its keywords: the table and what
// follows it.
func descArgs(sql string) []string {
	f := strings.Fields(sql)[1:]
	for len(f) > 0 {
		switch strings.ToLower(f[0]) {
		case "table", "extended", "formatted":
			f = f[1:]
			continue
		}
		break
	}
	return f
}

func descTable(sql string) string {
	f := descArgs(sql)
	if len(f) == 0 {
		return ""
	}
	return strings.ToLower(strings.ReplaceAll(f[0], "`", ""))
}

// hasColumnArg reports a DESCRIBE of one column ("DESC t a", not "DESC t AS JSON").
func hasColumnArg(sql string) bool {
	f := descArgs(sql)
	return len(f) > 1 && !strings.EqualFold(f[1], "as")
}

func lastPart(name string) string {
	if i := strings.LastIndex(name, "."); i >= 0 {
		return name[i+1:]
	}
	return name
}

func sameBucket(a, b *plan.BucketSpec) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.NumBuckets == b.NumBuckets && slices.Equal(a.Columns, b.Columns) && slices.Equal(a.SortColumns, b.SortColumns)
}

func bucketString(b *plan.BucketSpec) string {
	if b == nil {
		return "none"
	}
	return fmt.Sprintf("%d by %v sorted %v", b.NumBuckets, b.Columns, b.SortColumns)
}
