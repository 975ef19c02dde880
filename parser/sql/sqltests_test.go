package sql

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sqlTestsDir returns $BUCKETLINT_SPARK_SQLTESTS or ../shared/spark-sqltests from the module
// root: Spark's own SQL test inputs with their golden results (see its README).
func sqlTestsDir() string {
	if d := os.Getenv("BUCKETLINT_SPARK_SQLTESTS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "spark-sqltests")
}

// sqlTestsFigures is what TestSparkSQLTests measures.
type sqlTestsFigures struct {
	accepted, acceptedParsed, rejected, rejectedRejected, bytes int
	cpu                                                         time.Duration
}

// TestSparkSQLTests parses every statement of Spark's own SQL tests one by one and prints how
// many of those Spark's parser accepted parse here, how many of those it rejected (a
// ParseException in the golden output) are rejected here, and the CPU time parsing took. The
// figures are recorded in BENCHMARKS.md; the test asserts only that they do not fall below
// what that file records (floors below).
func TestSparkSQLTests(t *testing.T) {
	// Floors: the figures measured when they were last recorded. Raise them as the grammar
	// grows; never lower them to get green.
	const minAcceptedParsed, minRejectedRejected = 14481, 365
	root := filepath.Join(sqlTestsDir(), "spark-4.1-dev", "sql/core/src/test/resources/sql-tests/results")
	var files []string
	_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".sql.out") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skipf("Spark SQL tests not found under %s (set BUCKETLINT_SPARK_SQLTESTS)", root)
	}
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	// The golden files are those of Spark's 4.1 development snapshot, whose syntax counts: it
	// is not the 4.1 release (pyspark 4.1.4 accepts 19 statements the snapshot rejects; the
	// features whose dev says so), and TestSparkSQLTestsByVersion compares the releases.
	p = p.WithOptions(Options{Spark: Version{Major: 4, Minor: 1}, devSnapshot: true})
	var fig sqlTestsFigures
	lenient := map[string]int{}
	before := cpuTime()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		session := sessionConfs(filepath.Join(root, "..", "inputs", strings.TrimSuffix(rel, ".out")))
		for _, b := range blocks(string(src)) {
			fig.bytes += len(b.sql)
			_, errs := p.ParseFile(rel, []byte(session+b.sql))
			if w := leadingWords(b.sql, 1); len(w) == 1 && w[0] == "set" && strings.Contains(b.sql, "spark.sql.") && strings.Contains(b.sql, "=") {
				session += strings.TrimSpace(b.sql) + ";\n"
			}
			if strings.Contains(b.output, "catalyst.parser.ParseException") {
				fig.rejected++
				if len(errs) > 0 {
					fig.rejectedRejected++
				} else {
					lenient[parseErrorClass(b.output)]++
					if testing.Verbose() {
						t.Logf("%s:%d: accepted, Spark rejected: %s", rel, b.line, shortLine(b.sql))
					}
				}
				continue
			}
			fig.accepted++
			if len(errs) == 0 {
				fig.acceptedParsed++
			} else if testing.Verbose() {
				t.Logf("%s:%d: %v\n\t%s", rel, b.line, errs[0], shortLine(b.sql))
			}
		}
	}
	fig.cpu = cpuTime() - before
	t.Logf("accepted statements parsed: %d / %d (%.1f%%)", fig.acceptedParsed, fig.accepted, pct(fig.acceptedParsed, fig.accepted))
	t.Logf("rejected statements rejected: %d / %d (%.1f%%)", fig.rejectedRejected, fig.rejected, pct(fig.rejectedRejected, fig.rejected))
	t.Logf("CPU time: %v for %d statements, %d bytes (%.0f statements/s, %.2f MB/s)",
		fig.cpu.Round(time.Millisecond), fig.accepted+fig.rejected, fig.bytes,
		float64(fig.accepted+fig.rejected)/fig.cpu.Seconds(), float64(fig.bytes)/1e6/fig.cpu.Seconds())
	t.Logf("accepted here, rejected by Spark, by error class: %v", sortedCounts(lenient))
	for class := range lenient {
		if why := lenientWhy()[class]; why != "" {
			t.Logf("  %s: %s", class, why)
		}
	}
	if fig.acceptedParsed < minAcceptedParsed {
		t.Errorf("%d accepted statements parse; at least %d did", fig.acceptedParsed, minAcceptedParsed)
	}
	if fig.rejectedRejected < minRejectedRejected {
		t.Errorf("%d rejected statements are rejected; at least %d were", fig.rejectedRejected, minRejectedRejected)
	}
}

// lenientWhy says why the parser accepts the statements Spark rejects, by error class.
func lenientWhy() map[string]string {
	return map[string]string{
		"INVALID_INLINE_TABLE.FAILED_SQL_EXPRESSION_EVALUATION": "Spark evaluates an inline table's rows while parsing " +
			"(VALUES … cast('nan' AS INT) fails under ANSI casts); bucketlint does not evaluate expressions",
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

// parseErrorClass returns the error class of a golden ParseException output, or "?".
func parseErrorClass(out string) string {
	const key = `"errorClass" : "`
	i := strings.Index(out, key)
	if i < 0 {
		return "?"
	}
	rest := out[i+len(key):]
	if j := strings.IndexByte(rest, '"'); j >= 0 {
		return rest[:j]
	}
	return "?"
}

// shortLine shortens a statement to one line for a log.
func shortLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// sortedCounts prints counts by key, largest first.
func sortedCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k + "=" + strconv.Itoa(m[k]))
	}
	return b.String()
}

// sessionConfs returns the --SET directives of a test input file as SET statements: the
// test runner applies them to the session before the file's statements, and some change how
// Spark parses (spark.sql.ansi.doubleQuotedIdentifiers).
func sessionConfs(input string) string {
	src, err := os.ReadFile(input)
	if err != nil {
		return ""
	}
	var b strings.Builder
	for _, l := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(l, "--SET "); ok {
			for _, kv := range strings.Split(rest, ",") {
				b.WriteString("SET " + strings.TrimSpace(kv) + ";\n")
			}
		}
	}
	return b.String()
}

// BenchmarkSparkSQLTests parses every statement of Spark's SQL tests that Spark accepted as
// one file (the statements joined by ";\n"); MB/s is per core with -cpu 1. The same bytes are written to
// $BUCKETLINT_BENCH_OUT when set, for a peer (cat, gzip) to be timed on.
func BenchmarkSparkSQLTests(b *testing.B) {
	root := filepath.Join(sqlTestsDir(), "spark-4.1-dev", "sql/core/src/test/resources/sql-tests/results")
	var sb strings.Builder
	_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".sql.out") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		for _, bl := range blocks(string(src)) {
			if !strings.Contains(bl.output, "catalyst.parser.ParseException") {
				sb.WriteString(strings.TrimSpace(bl.sql) + ";\n")
			}
		}
		return nil
	})
	if sb.Len() == 0 {
		b.Skipf("Spark SQL tests not found under %s", root)
	}
	src := []byte(sb.String())
	if out := os.Getenv("BUCKETLINT_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, src, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	p, err := New()
	if err != nil {
		b.Fatal(err)
	}
	loopCPU(b, len(src), func() { _, _ = p.ParseFile("sqltests.sql", src) })
}
