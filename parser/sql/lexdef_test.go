package sql

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
	"golang.org/x/tools/txtar"
)

// rawTokens lexes s with the rules of lexer.go, or returns false when they fail.
func rawTokens(tb testing.TB, l *scanLexer, s string) ([]lexer.Token, bool) {
	tb.Helper()
	lx, err := l.rules.LexString("f.sql", s)
	if err != nil {
		tb.Fatal(err)
	}
	var out []lexer.Token
	for {
		tok, err := lx.Next()
		if err != nil {
			return nil, false
		}
		out = append(out, tok)
		if tok.EOF() {
			return out, true
		}
	}
}

// agree checks that scanLexer's tokens of s, when it gives them, are what the rules give:
// the same tokens the grammar reads (type, text, position), and after each of them the same
// position of the next token, elided or not (a node's EndPos).
func agree(t *testing.T, l *scanLexer, s string) {
	t.Helper()
	fast, ok := l.tokens("f.sql", s)
	if !ok {
		return
	}
	raw, ok := rawTokens(t, l, s)
	if !ok {
		t.Fatalf("the rules fail on %q, scan read it", s)
	}
	elided := map[lexer.TokenType]bool{l.syms["Whitespace"]: true, l.syms["Comment"]: true, l.syms["TemplateTag"]: true}
	kept := func(toks []lexer.Token) (out []lexer.Token, next []lexer.Position) {
		for i, tok := range toks {
			if !elided[tok.Type] {
				out = append(out, tok)
				if i+1 < len(toks) {
					next = append(next, toks[i+1].Pos)
				}
			}
		}
		return out, next
	}
	fk, fn := kept(fast)
	rk, rn := kept(raw)
	if len(fk) != len(rk) {
		t.Fatalf("%q: %d tokens, the rules read %d", s, len(fk), len(rk))
	}
	for i := range fk {
		if fk[i] != rk[i] {
			t.Fatalf("%q: token %d is %+v, the rules read %+v", s, i, fk[i], rk[i])
		}
	}
	for i := range fn {
		if fn[i] != rn[i] {
			t.Fatalf("%q: after token %d the next is at %+v, the rules say %+v", s, i, fn[i], rn[i])
		}
	}
}

// agreementSeeds are statements of the test data and forms where scan and the rules could
// part: numbers against names, quotes, hints, templates, blanks.
func agreementSeeds(tb testing.TB) []string {
	tb.Helper()
	seeds := []string{
		"CREATE TABLE t (a INT, `b c` STRING COMMENT 'it''s', d DECIMAL(10, 2)) USING parquet CLUSTERED BY (a) INTO 8 BUCKETS",
		"CREATE TABLE t (1a INT, 2012_s INT, x1 BIGINT) USING parquet",
		"SELECT 1.5e3BD, .5, 1., 1e, 1d, 0x1F, 12L, 'a\\'b', r'c\\d', \"e\"\"f\"",
		"CREATE TABLE {{ target }}_x (a INT) /*+ hint */ USING {{ fmt }} {% if x %} LOCATION '${path}' {% endif %}",
		"SELECT a\v FROM t", "SELECT 'open", "SELECT `open", "SELECT /*+ open", "SELECT $$ body $$",
		"SELECT é FROM t", "SELECT a <=> b, c :: int, d -> e, f => g, h || i, j && k, {x} FROM t",
		"CREATE TABLE t (a INT) TBLPROPERTIES ('k' = 'v') {# note #}",
	}
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".sql") {
				for _, c := range split(string(f.Data)) {
					seeds = append(seeds, c.text)
				}
			}
		}
	}
	return seeds
}

// TestScanLexerAgrees: wherever scanLexer gives the DDL grammar scan's tokens, they are the
// rules' tokens, so the grammar's results and errors do not depend on which lexer ran.
func TestScanLexerAgrees(t *testing.T) {
	l, err := newScanLexer()
	if err != nil {
		t.Fatal(err)
	}
	fast := 0
	seeds := agreementSeeds(t)
	for _, s := range seeds {
		agree(t, l, s)
		if _, ok := l.tokens("f.sql", s); ok {
			fast++
		}
	}
	if fast < len(seeds)/2 {
		t.Errorf("scan's tokens used for %d of %d statements", fast, len(seeds))
	}
}

// FuzzScanLexer: for any text, scanLexer either defers to the rules or agrees with them.
func FuzzScanLexer(f *testing.F) {
	for _, s := range agreementSeeds(f) {
		f.Add(s)
	}
	l, err := newScanLexer()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) { agree(t, l, s) })
}
