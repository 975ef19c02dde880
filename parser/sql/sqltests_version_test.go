package sql

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var writeStatements = flag.String("write-sqltests-statements", "",
	"write every statement of Spark's SQL tests, with the settings in force for it, to this JSON file for oracle/syntaxcheck.py --statements")

// sqlTestStatement is one statement of Spark's SQL tests as oracle/syntaxcheck.py reads it.
type sqlTestStatement struct {
	// ID is the golden file (relative to the results folder) and the statement's line.
	ID string `json:"id"`
	// Hash is the first 12 hex digits of the SHA-256 of SQL: a recording of a changed corpus
	// is not compared.
	Hash string `json:"hash"`
	SQL  string `json:"sql"`
	// Confs are the settings in force: the file's --SET directives and the SETs before it.
	Confs map[string]string `json:"confs,omitempty"`
	// Rejected4 is set when Spark 4.1-dev's golden output is a ParseException.
	Rejected4 bool `json:"rejected_4_1_dev,omitempty"`
}

// sqlTestStatements returns every statement of Spark's SQL tests with the settings in force
// for it, in file order; nil when the tests are not found.
func sqlTestStatements(t *testing.T) []sqlTestStatement {
	t.Helper()
	root := filepath.Join(sqlTestsDir(), "spark-4.1-dev", "sql/core/src/test/resources/sql-tests/results")
	var files []string
	_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".sql.out") {
			files = append(files, path)
		}
		return nil
	})
	var out []sqlTestStatement
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		confs := map[string]string{}
		for _, l := range strings.Split(sessionConfs(filepath.Join(root, "..", "inputs", strings.TrimSuffix(rel, ".out"))), "\n") {
			if k, v, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(l, "SET "), ";"), "="); ok {
				confs[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		for _, b := range blocks(string(src)) {
			sum := sha256.Sum256([]byte(b.sql))
			st := sqlTestStatement{
				ID: rel + ":" + itoa(b.line), Hash: hex.EncodeToString(sum[:6]), SQL: b.sql,
				Rejected4: strings.Contains(b.output, "catalyst.parser.ParseException"),
			}
			if len(confs) > 0 {
				st.Confs = make(map[string]string, len(confs))
				for k, v := range confs {
					st.Confs[k] = v
				}
			}
			out = append(out, st)
			if w := leadingWords(b.sql, 1); len(w) == 1 && w[0] == "set" && strings.Contains(b.sql, "spark.sql.") {
				kv := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(b.sql), ";"))
				if k, v, ok := strings.Cut(kv[len("set"):], "="); ok {
					confs[strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
			}
		}
	}
	return out
}

// TestWriteSQLTestsStatements writes the statements oracle/syntaxcheck.py --statements hands
// to each release's parser, when -write-sqltests-statements names a file.
func TestWriteSQLTestsStatements(t *testing.T) {
	if *writeStatements == "" {
		t.Skip("-write-sqltests-statements not given")
	}
	sts := sqlTestStatements(t)
	if len(sts) == 0 {
		t.Fatalf("Spark SQL tests not found under %s", sqlTestsDir())
	}
	data, err := json.Marshal(sts)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*writeStatements, data, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d statements written to %s", len(sts), *writeStatements)
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return string(b[i:])
}

// sqlTestsRun is a testdata/spark/<version>/sqltests.json recording by oracle/syntaxcheck.py
// --statements: the statements of Spark's SQL tests that release's parser rejected.
type sqlTestsRun struct {
	SparkVersion string `json:"spark_version"`
	Command      string `json:"command"`
	Statements   int    `json:"statements"`
	Rejected     []struct {
		ID    string `json:"id"`
		Hash  string `json:"hash"`
		Error string `json:"error"`
	} `json:"rejected"`
}

// TestSparkSQLTestsByVersion parses every statement of Spark's SQL tests with the parser
// configured for each recorded release, one subtest per testdata/spark/<version>/sqltests.json
// present (-run TestSparkSQLTestsByVersion/4.1.4 runs one), and compares the outcome with that
// release's own parser: it fails on a statement the release accepts and the parser rejects
// (valid SQL would be an input error), on a recording of another corpus or in another
// release's folder, and when fewer statements the release rejects are rejected here than
// sqlTestsRejectedFloor records; it prints both figures.
func TestSparkSQLTestsByVersion(t *testing.T) {
	runs, _ := filepath.Glob(filepath.Join("testdata", "spark", "*", "sqltests.json"))
	if len(runs) == 0 {
		t.Fatal("no testdata/spark/*/sqltests.json")
	}
	sts := sqlTestStatements(t)
	if len(sts) == 0 {
		t.Skipf("Spark SQL tests not found under %s (set BUCKETLINT_SPARK_SQLTESTS)", sqlTestsDir())
	}
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	hashes := make(map[string]string, len(sts))
	for _, st := range sts {
		hashes[st.ID] = st.Hash
	}
	for _, file := range runs {
		release := filepath.Base(filepath.Dir(file))
		t.Run(release, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var run sqlTestsRun
			if err := json.Unmarshal(data, &run); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if run.SparkVersion != release {
				t.Fatalf("%s: recorded with pyspark %s, not %s", file, run.SparkVersion, release)
			}
			if run.Statements != len(sts) {
				t.Fatalf("%s: recorded over %d statements, the corpus has %d: record it again", file, run.Statements, len(sts))
			}
			rejected := map[string]string{}
			for _, r := range run.Rejected {
				if hashes[r.ID] != r.Hash {
					t.Fatalf("%s: %s (hash %s) is not a statement of the corpus: record it again", file, r.ID, r.Hash)
				}
				rejected[r.ID] = r.Error
			}
			fig := sqlTestsByVersion(t, p.WithOptions(Options{Spark: seriesOf(t, release)}), release, sts, rejected)
			t.Logf("Spark %s: accepted statements parsed %d / %d; rejected statements rejected %d / %d (%.1f%%)",
				release, fig.acceptedParsed, fig.accepted, fig.rejectedRejected, fig.rejected, pct(fig.rejectedRejected, fig.rejected))
			if fig.acceptedParsed < fig.accepted {
				t.Errorf("Spark %s accepts %d statements the parser configured for it rejects", release, fig.accepted-fig.acceptedParsed)
			}
			if floor := sqlTestsRejectedFloor[release]; fig.rejectedRejected < floor {
				t.Errorf("%d statements Spark %s rejects are rejected; at least %d were", fig.rejectedRejected, release, floor)
			}
		})
	}
}

// sqlTestsRejectedFloor is, per recorded release, how many of the statements it rejects the
// parser configured for it rejected when last measured. Raise a floor as the gating improves;
// never lower one to get green.
var sqlTestsRejectedFloor = map[string]int{
	"3.0.3": 1585,
	"3.1.3": 1670,
	"3.2.4": 1418,
	"3.3.4": 1324,
	"3.4.4": 1167,
	"3.5.9": 1144,
	"4.0.5": 380,
	"4.1.4": 346,
	"4.2.1": 345,
	"4.3.0": 345,
}

// sqlTestsByVersion parses each statement with q, with the settings in force for it, and
// counts the outcomes against rejected (the statements the release rejects, by ID, with its
// error). It reports the first statements the release accepts and q rejects.
func sqlTestsByVersion(t *testing.T, q *Parser, release string, sts []sqlTestStatement, rejected map[string]string) sqlTestsFigures {
	t.Helper()
	var fig sqlTestsFigures
	for _, st := range sts {
		var b strings.Builder
		for _, k := range sortedKeys(st.Confs) {
			b.WriteString("SET " + k + "=" + st.Confs[k] + ";\n")
		}
		_, errs := q.ParseFile(st.ID, []byte(b.String()+st.SQL))
		why, no := rejected[st.ID]
		switch {
		case no:
			fig.rejected++
			if len(errs) > 0 {
				fig.rejectedRejected++
			} else if testing.Verbose() {
				t.Logf("Spark %s rejects %s, the parser configured for it accepts it: %s\n\t%s", release, st.ID, why, shortLine(st.SQL))
			}
		case len(errs) > 0:
			fig.accepted++
			if fig.accepted-fig.acceptedParsed <= 20 {
				t.Errorf("Spark %s accepts %s, the parser configured for it rejects it: %v\n\t%s", release, st.ID, errs[0], shortLine(st.SQL))
			}
		default:
			fig.accepted++
			fig.acceptedParsed++
		}
	}
	return fig
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestDoubleQuotedIdentifiersNeedANSI checks that spark.sql.ansi.doubleQuotedIdentifiers
// makes "t" a name only under ANSI mode, on by default from 4.0 (pyspark 3.5.9 rejects
// SELECT 1 FROM "not_exist" of Spark's double-quoted-identifiers-enabled.sql, 4.0.5 accepts
// it: testdata/spark/*/sqltests.json).
func TestDoubleQuotedIdentifiersNeedANSI(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	const dq = "SET spark.sql.ansi.doubleQuotedIdentifiers=true;\n"
	for _, tc := range []struct {
		v      Version
		sql    string
		accept bool
	}{
		{Version{3, 5}, dq + `SELECT 1 FROM "t"`, false},
		{Version{3, 5}, dq + "SET spark.sql.ansi.enabled=true;\n" + `SELECT 1 FROM "t"`, true},
		{Version{4, 0}, dq + `SELECT 1 FROM "t"`, true},
		{Version{4, 0}, dq + "SET spark.sql.ansi.enabled=false;\n" + `SELECT 1 FROM "t"`, false},
	} {
		_, errs := p.WithOptions(Options{Spark: tc.v}).ParseFile("q.sql", []byte(tc.sql))
		if got := len(errs) == 0; got != tc.accept {
			t.Errorf("%s, %q: accepted %v, want %v (%v)", tc.v, tc.sql, got, tc.accept, errs)
		}
	}
}
