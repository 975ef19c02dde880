package sql

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// FuzzSQL feeds arbitrary text to ParseFile, ParseDescribe, ParseShowCreate and
// ParseTableSpec: none may panic, every error position lies inside the input, and every
// expression tree is walkable and no higher than maxTreeHeight.
func FuzzSQL(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, s := range ar.Files {
			if strings.HasSuffix(s.Name, ".sql") || strings.HasSuffix(s.Name, ".txt") {
				f.Add(s.Data)
			}
		}
	}
	f.Add([]byte("SELECT (((((a"))
	f.Add([]byte("SELECT f(x -> x + 1), CASE WHEN a THEN -1::int END, count(*) OVER (PARTITION BY k) FROM t WHERE a IN (1, 2) AND b IS NOT DISTINCT FROM c"))
	f.Add([]byte("CREATE TABLE t (a INT) USING parquet CLUSTERED BY (a) INTO 99999999999999999999 BUCKETS"))
	p, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte("SELECT /* a /* b */ */ x FROM t |> WHERE a ! IN (1) |> AGGREGATE count(*) GROUP BY k"))
	f.Add([]byte("WITH IDENTIFIER('v')(IDENTIFIER('c')) AS (SELECT map('a', 1).IDENTIFIER('a')) SELECT * FROM s.IDENTIFIER('t') " +
		"JOIN IDENTIFIER('s').u USING (IDENTIFIER('c')) WINDOW IDENTIFIER('w') AS (ORDER BY a COLLATE UTF8_LCASE_RTRIM) |> DROP t.a"))
	// The oldest release: every version check runs (nested comments, every construct too new).
	p30 := p.WithOptions(Options{Spark: Version{Major: 3, Minor: 0}})
	f.Fuzz(func(t *testing.T, src []byte) {
		file, errs := p.ParseFile("f.sql", src)
		inside(t, src, errs)
		_, errs = p30.ParseFile("f.sql", src)
		inside(t, src, errs)
		for _, q := range file.Queries {
			eachTree(q, func(x *plan.X) {
				if h := height(x); h > maxTreeHeight {
					t.Errorf("tree of height %d: %s", h, x.Raw)
				}
				x.Walk(func(*plan.X) bool { return true })
			})
		}
		_, errs = p.ParseDescribe("f.sql", src)
		inside(t, src, errs)
		_, errs = p.ParseShowCreate("f.sql", src)
		inside(t, src, errs)
		_, errs = p.ParseTableSpec("f.sql", string(src))
		inside(t, src, errs)
	})
}

// inside checks that every error position is within src.
func inside(t *testing.T, src []byte, errs perr.List) {
	t.Helper()
	lines := strings.Split(string(src), "\n")
	for _, e := range errs {
		if strings.HasPrefix(e.Msg, "internal error") {
			t.Errorf("%v", e)
		}
		l, c := e.Pos.Line, e.Pos.Col
		if l < 1 || l > len(lines) || c < 1 || c > len(lines[l-1])+1 {
			t.Errorf("error outside the input (%d lines): %v", len(lines), e)
		}
	}
}
