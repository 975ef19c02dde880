package sql

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
)

// Statements move from the participle grammar to the hand-written parser one kind at a
// time. Each move is held by TestGrammarDifferential: every statement of that kind in Spark's
// SQL tests, the corpus and the repository's own SQL is read both ways and the results (the
// File and the errors, positions and messages included) must be the same.

// differentialTexts returns the SQL texts the differential test reads: each statement
// block of Spark's SQL test goldens (accepted or not), and every .sql file of the corpus
// and of the repository.
func differentialTexts(t *testing.T) []string {
	t.Helper()
	var out []string
	root := filepath.Join(sqlTestsDir(), "spark-4.1-dev", "sql/core/src/test/resources/sql-tests/results")
	for _, dir := range []string{root, corpusDir(), filepath.Join("..", "..")} {
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			switch {
			case strings.HasSuffix(path, ".sql.out"):
				src, err := os.ReadFile(path)
				if err == nil {
					for _, bl := range blocks(string(src)) {
						out = append(out, bl.sql)
					}
				}
			case strings.HasSuffix(path, ".sql"):
				if src, err := os.ReadFile(path); err == nil {
					out = append(out, string(src))
				}
			}
			return nil
		})
	}
	return out
}

// differentialEdges are statements written to reach the corners of the grammars.
var differentialEdges = []string{
	"CREATE OR VIEW v AS SELECT 1", "CREATE OR REPLACE GLOBAL TEMP VIEW IF NOT EXISTS v AS SELECT 1",
	"CREATE VIEW v WITH x AS SELECT 1", "CREATE VIEW v USING", "CREATE VIEW v AS", "CREATE VIEW v AS 1",
	"CREATE VIEW v AS SELECT 1 garbage )", "CREATE VIEW v AS SELECT 1 )", "CREATE VIEW v AS (SELECT 1) ORDER x",
	"CREATE VIEW v (a, b COMMENT 'c') COMMENT 'x' TBLPROPERTIES ('a'='b') AS SELECT 1, 2",
	"CREATE TEMP VIEW v USING parquet OPTIONS (path 'x')", "CREATE TEMP VIEW v (a INT) USING a.b.c",
	"CREATE TEMP VIEW v USING a.(b)", "CREATE TEMP VIEW v USING a. AS SELECT 1", "CREATE TEMP VIEW v USING )",
	"CREATE VIEW v COMMENT x AS SELECT 1", "CREATE VIEW v PARTITIONED ON (a) AS SELECT 1",
	"CREATE VIEW v PARTITIONED (a) AS SELECT 1", "CREATE VIEW v WITH SCHEMA TYPE EVOLUTION AS SELECT 1",
	"CREATE VIEW v WITH SCHEMA TYPE AS SELECT 1", "CREATE VIEW v WITH SCHEMA AS SELECT 1",
	"CREATE VIEW IDENTIFIER('a.b') AS SELECT 1", "CREATE VIEW IDENTIFIER(x || 'b') AS SELECT 1",
	"CREATE VIEW a.b.c AS WITH t AS (SELECT 1) SELECT * FROM t", "CREATE VIEW v AS INSERT INTO t SELECT 1",
	"CREATE VIEW v (a) AS SELECT 1 |> WHERE a > 0", "CREATE VIEW v AS VALUES (1), (2)", "CREATE VIEW",
	"CREATE VIEW v", "CREATE VIEW v ()", // unbalanced brackets never reach a grammar (precheck) "CREATE VIEW v AS SELECT 1 UNION SELECT",
	"REPLACE VIEW v AS SELECT 1", "CREATE TEMPORARY TEMP VIEW v AS SELECT 1", "CREATE VIEW v AS SELECT x -> 1",
	"CREATE VIEW `v` AS SELECT {{ x }} FROM t", "CREATE VIEW v TBLPROPERTIES AS SELECT 1",
}

// viewByGrammar is state.view as the participle grammar read CREATE VIEW.
func (st *state) viewByGrammar(g *participle.Parser[createView], c chunk, start int) {
	ast, err := g.ParseString(st.f.Name, c.text)
	switch {
	case err != nil:
		st.fail(c, err)
	case !st.versionOK(c, queryUses(ast.Query)):
	case ast.Query == nil:
		st.f.Other = append(st.f.Other, Statement{Pos: st.lines.pos(start), Text: strings.TrimSpace(c.text)})
	default:
		q := st.buildQuery(ast.Query, c)
		q.Target, q.View, q.Temp = st.name(ast.Name), true, ast.Temp
		q.ViewColumns = viewColumns(ast.Cols)
		st.f.Queries = append(st.f.Queries, q)
	}
}

// TestGrammarDifferential reads every CREATE VIEW both with the participle grammar it
// replaced and with the hand-written parser: the results must be the same.
func TestGrammarDifferential(t *testing.T) {
	opts, err := grammarOptions()
	if err != nil {
		t.Fatal(err)
	}
	views, err := participle.Build[createView](opts...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	n, diff := 0, 0
	texts := differentialTexts(t)
	for i, text := range append(texts, differentialEdges...) {
		// The statements written for the test may be worded differently when they fail,
		// not placed differently: the grammar's wording named its own productions.
		edge := i >= len(texts)
		for _, c := range split(text) {
			if classify(leadingWords(c.text, 6)) != stmtView {
				continue
			}
			n++
			start := c.offset + leadingSpace(c.text)
			old := &state{p: p, f: &File{Name: "f.sql"}, lines: newLineIndex("f.sql", text)}
			cur := &state{p: p, f: &File{Name: "f.sql"}, lines: newLineIndex("f.sql", text)}
			old.viewByGrammar(views, c, start)
			cur.view(c, start)
			if edge {
				for i := range min(len(old.errs), len(cur.errs)) {
					old.errs[i].Msg = cur.errs[i].Msg
				}
			}
			if !reflect.DeepEqual(old.f, cur.f) || !reflect.DeepEqual(old.errs, cur.errs) {
				diff++
				if diff <= 20 {
					t.Errorf("%s\ngrammar: %+v %v\nparser:  %+v %v", c.text, old.f, old.errs, cur.f, cur.errs)
				}
			}
		}
	}
	t.Logf("CREATE VIEW: %d statements, %d read differently", n, diff)
	if n == 0 {
		t.Skip("no statements found")
	}
}

// TestStatementsIndependent parses Spark's SQL tests and the repository's SQL as files, once
// as ParseFile does (the statements of a file share the parser's buffers and slabs) and once
// with fresh buffers for every statement: the results must be the same, so that no node of
// one statement outlives it into the next one's.
func TestStatementsIndependent(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	texts := differentialTexts(t)
	if len(texts) == 0 {
		t.Skip("no statements found")
	}
	for _, text := range []string{strings.Join(texts, ";\n"), strings.Join(differentialEdges, ";\n")} {
		whole, errs := p.ParseFile("f.sql", []byte(text))
		st := &state{p: p, f: &File{Name: "f.sql"}, lines: newLineIndex("f.sql", text)}
		for _, c := range split(text) {
			st.buf = scratch{}
			st.statement(c)
		}
		st.f.Database = st.db
		st.errs.Sort()
		if !reflect.DeepEqual(errs, st.errs) {
			t.Errorf("a file's statements read together fail differently from the same statements read apart:\n%v\n%v", errs, st.errs)
		}
		if !reflect.DeepEqual(whole, st.f) {
			t.Errorf("a file's statements read together differ from the same statements read apart (%d bytes)", len(text))
			for i := range min(len(whole.Queries), len(st.f.Queries)) {
				if !reflect.DeepEqual(whole.Queries[i], st.f.Queries[i]) {
					t.Errorf("first different: %s", whole.Queries[i].Text)
					break
				}
			}
		}
	}
}
