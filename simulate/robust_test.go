package simulate

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// TestParserCorpusNeverFails simulates every query of parser/sql's test inputs (every
// statement form the parser reads) under each era: no error and no panic, whatever the
// query's shape; what is not modelled is listed, never guessed.
func TestParserCorpusNeverFails(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "parser", "sql", "testdata", "*.txtar"))
	if len(files) == 0 {
		t.Skip("no parser/sql test inputs")
	}
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, sec := range a.Files {
			if sec.Name != "input.sql" {
				continue
			}
			pf, _ := p.ParseFile(f, sec.Data)
			tables := map[string]*plan.Table{}
			for _, tb := range pf.Tables {
				tables[tb.Name] = tb
			}
			for _, q := range pf.Queries {
				for _, v := range []Version{{3, 0, 1}, {3, 2, -1}, {3, 5, -1}, {4, 0, -1}} {
					n++
					res, err := Simulate(tables, q, Options{SparkVersion: v})
					if err != nil {
						t.Errorf("%s: %q on %s: %v", f, q.Text, v, err)
						continue
					}
					for _, b := range exprsWithoutTrees(res.Plan) {
						t.Errorf("%s: %q on %s: %s", f, q.Text, v, b)
					}
				}
			}
		}
	}
	t.Logf("%d simulations", n)
}

// FuzzSimulate feeds arbitrary SQL through parser/sql and the simulator: no panic.
func FuzzSimulate(f *testing.F) {
	for _, s := range []string{
		"SELECT * FROM t1 JOIN t2 ON t1.i = t2.i",
		"SELECT i, count(*) FROM t1 GROUP BY i",
		"SELECT /*+ BROADCAST(t2) */ * FROM t1 LEFT JOIN t2 ON t1.i = t2.j WHERE t1.i IN (1, 2)",
		"SELECT * FROM t1 JOIN t2 JOIN t3 ON t1.i = t2.i AND t2.i = t3.i",
		"WITH v AS (SELECT i FROM t1) SELECT i, sum(i) OVER (PARTITION BY i) FROM v UNION ALL SELECT i, 1 FROM t2",
	} {
		f.Add(s)
	}
	p, err := sql.New()
	if err != nil {
		f.Fatal(err)
	}
	ddl, _ := p.ParseFile("ddl.sql", []byte(`CREATE TABLE t1 (i INT, j INT) USING parquet CLUSTERED BY (i) INTO 8 BUCKETS;
CREATE TABLE t2 (i BIGINT, j STRING) USING parquet CLUSTERED BY (i, j) INTO 4 BUCKETS;
CREATE TABLE t3 (i INT) USING orc;`))
	tables := map[string]*plan.Table{}
	for _, tb := range ddl.Tables {
		tables[tb.Name] = tb
	}
	f.Fuzz(func(_ *testing.T, src string) {
		pf, _ := p.ParseFile("q.sql", []byte(src))
		for _, q := range pf.Queries {
			for _, v := range []Version{{3, 0, 1}, {3, 5, -1}} {
				_, _ = Simulate(tables, q, Options{SparkVersion: v})
			}
		}
	})
}
