package workload

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/resolve/*.txtar")

// TestResolve resolves the query of every testdata/resolve/*.txtar (ddl.sql: tables and
// views; query.sql: one query) and compares its joins, views and unresolved names with the
// want section.
func TestResolve(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "resolve", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no testdata/resolve/*.txtar")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string]string{}
			for _, f := range ar.Files {
				sections[f.Name] = string(f.Data)
			}
			cat, q := parse(t, sections["ddl.sql"], sections["query.sql"])
			got := describe(Resolve(cat, q)) + "\n"
			if *update {
				var keep []txtar.File
				for _, f := range ar.Files {
					if f.Name != "want" {
						keep = append(keep, f)
					}
				}
				keep = append(keep, txtar.File{Name: "want", Data: []byte(got)})
				ar.Files = keep
				if err := os.WriteFile(file, txtar.Format(ar), 0o600); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := sections["want"]; got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestResolveBothOrders checks that every equality gives the same keys whichever order it
// is written in, and whichever side each relation is on.
func TestResolveBothOrders(t *testing.T) {
	ddl := `CREATE TABLE ss (s_item INT, s_store INT, s_qty INT) USING parquet CLUSTERED BY (s_item) INTO 8 BUCKETS;
CREATE TABLE item (i_item INT, i_store INT, i_name STRING) USING parquet;`
	for _, tc := range []struct{ a, b string }{
		{"SELECT * FROM ss JOIN item ON s_item = i_item", "SELECT * FROM ss JOIN item ON i_item = s_item"},
		{"SELECT * FROM ss JOIN item ON s_item = i_item AND s_store = i_store", "SELECT * FROM ss JOIN item ON i_item = s_item AND i_store = s_store"},
		{"SELECT * FROM ss JOIN item ON s_item = i_item AND s_store = i_store", "SELECT * FROM ss JOIN item ON s_item = i_item AND i_store = s_store"},
		{"SELECT * FROM ss JOIN item ON ss.s_item = item.i_item", "SELECT * FROM ss JOIN item ON item.i_item = s_item"},
		{"SELECT * FROM ss, item WHERE s_item = i_item", "SELECT * FROM ss, item WHERE i_item = s_item"},
		{"SELECT * FROM ss s JOIN item i ON s.s_item = i_item", "SELECT * FROM ss s JOIN item i ON i_item = s.s_item"},
	} {
		ca, qa := parse(t, ddl, tc.a)
		cb, qb := parse(t, ddl, tc.b)
		ka, kb := joinKeys(Resolve(ca, qa)), joinKeys(Resolve(cb, qb))
		if ka != kb || strings.Contains(ka, "?") {
			t.Errorf("%s\n  %s\n%s\n  %s", tc.a, ka, tc.b, kb)
		}
	}
}

// joinKeys lists the keys of the query's top join as relation.column pairs.
func joinKeys(res *Resolved) string {
	j := res.Query.Root.Select.From.Join
	var pairs []string
	for i := range j.LeftKeys {
		l, r := j.LeftKeys[i], j.RightKeys[i]
		pairs = append(pairs, orNone(l.Relation)+"."+l.Column+"="+orNone(r.Relation)+"."+r.Column)
	}
	return strings.Join(pairs, " ")
}

func orNone(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// TestResolveKeepsInput checks that the query given is not changed.
func TestResolveKeepsInput(t *testing.T) {
	cat, q := parse(t, "CREATE TABLE a (x INT) USING parquet; CREATE TABLE b (y INT) USING parquet; CREATE VIEW v AS SELECT * FROM a;",
		"SELECT * FROM b JOIN v ON x = y")
	before := q.Root.Select.From.Join.LeftKeys[0]
	res := Resolve(cat, q)
	if after := q.Root.Select.From.Join.LeftKeys[0]; after != before {
		t.Errorf("input key changed: %+v -> %+v", before, after)
	}
	if q.Root.Select.From.Join.Right.Kind != plan.TableRel {
		t.Error("input view scan replaced")
	}
	if res.Query.Root.Select.From.Join.Right.View != "v" {
		t.Errorf("view not expanded in the copy: %+v", res.Query.Root.Select.From.Join.Right)
	}
	if res.Query.Text != q.Text {
		t.Errorf("text changed: %q -> %q", q.Text, res.Query.Text)
	}
}

// TestResolveNil checks the degenerate inputs.
func TestResolveNil(t *testing.T) {
	if Resolve(nil, nil) != nil {
		t.Error("nil query resolved")
	}
	q := &plan.Query{Root: &plan.Relation{Kind: plan.TableRel, Table: "t"}}
	if res := Resolve(nil, q); res == nil || len(res.Unresolved) != 0 {
		t.Errorf("%+v", res)
	}
}

// TestResolveCorpus resolves every query of the SQL parser's test cases and of the recorded
// Spark scenarios, each against the tables and views of its own file: nothing panics, join
// keys stay pairwise, residual conjuncts keep their trees pairwise, and the query given is
// not changed.
func TestResolveCorpus(t *testing.T) {
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	var sources [][]byte
	cases, _ := filepath.Glob(filepath.Join("..", "parser", "sql", "testdata", "*.txtar"))
	for _, c := range cases {
		ar, err := txtar.ParseFile(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".sql") {
				sources = append(sources, f.Data)
			}
		}
	}
	scenarios, _ := filepath.Glob(filepath.Join("..", "fixtures", "spark", "3.5", "*", "*", "scenario.json"))
	for _, s := range scenarios {
		sources = append(sources, scenarioSQL(t, s))
	}
	n := 0
	for _, src := range sources {
		f, _ := p.ParseFile("q.sql", src)
		if f == nil {
			continue
		}
		cat := &testCatalog{tables: map[string]*plan.Table{}, views: map[string]*plan.Query{}}
		for _, tb := range f.Tables {
			cat.tables[tb.Name] = tb
		}
		for _, q := range f.Queries {
			if q.View {
				cat.views[q.Target] = q
			}
		}
		for _, q := range f.Queries {
			before := fmt.Sprintf("%+v", *q.Root)
			res := Resolve(cat, q)
			n++
			if after := fmt.Sprintf("%+v", *q.Root); after != before {
				t.Errorf("%s: the query given changed", q.Text)
			}
			checkPairs(t, q.Text, res.Query.Root)
			for _, c := range res.Query.CTEs {
				checkPairs(t, q.Text, c.Root)
			}
		}
	}
	t.Logf("%d queries resolved", n)
	if n < 100 {
		t.Errorf("only %d queries resolved", n)
	}
}

// scenarioSQL returns a recorded scenario's DDL, statements and queries as one SQL text.
func scenarioSQL(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sc struct {
		Tables     []struct{ DDL string }
		Statements []struct{ SQL string }
		Queries    []struct{ SQL string }
	}
	if err := json.Unmarshal(b, &sc); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, tb := range sc.Tables {
		if tb.DDL != "" {
			parts = append(parts, tb.DDL)
		}
	}
	for _, s := range sc.Statements {
		parts = append(parts, s.SQL)
	}
	for _, q := range sc.Queries {
		parts = append(parts, q.SQL)
	}
	return []byte(strings.Join(parts, ";\n") + ";\n")
}

// checkPairs checks the pairwise lists of every join under rel.
func checkPairs(t *testing.T, text string, rel *plan.Relation) {
	t.Helper()
	if rel == nil {
		return
	}
	if j := rel.Join; j != nil {
		if len(j.LeftKeys) != len(j.RightKeys) {
			t.Errorf("%s: %d left keys, %d right keys", text, len(j.LeftKeys), len(j.RightKeys))
		}
		if j.ResidualX != nil && len(j.ResidualX) != len(j.Residual) {
			t.Errorf("%s: %d residual conjuncts, %d trees", text, len(j.Residual), len(j.ResidualX))
		}
		checkPairs(t, text, j.Left)
		checkPairs(t, text, j.Right)
	}
	if rel.Select != nil {
		checkPairs(t, text, rel.Select.From)
	}
	for _, in := range rel.Inputs {
		checkPairs(t, text, in)
	}
}
