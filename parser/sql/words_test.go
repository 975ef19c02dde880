package sql

import (
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"two statements", "SELECT 1; SELECT 2;", []string{"SELECT 1", " SELECT 2"}},
		{"semicolon in string", "SELECT ';'; SELECT 2", []string{"SELECT ';'", " SELECT 2"}},
		{"semicolon in comments", "SELECT 1 -- ;\n/* ; /* ; */ ; */;", []string{"SELECT 1     \n                 "}},
		{"semicolon in backticks", "SELECT `a;b` FROM t", []string{"SELECT `a;b` FROM t"}},
		{"escaped quote", `SELECT 'it\'s;'; SELECT 2`, []string{`SELECT 'it\'s;'`, " SELECT 2"}},
		{"unclosed bracket ends at semicolon", "SELECT (a; SELECT 2", []string{"SELECT (a", " SELECT 2"}},
		{"comments only dropped", "-- x;\n;/* y */", nil},
		{"template tag blanked", "{% if x %}SELECT 1{% endif %}", []string{"          SELECT 1           "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, c := range split(tc.src) {
				got = append(got, c.text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("split(%q) = %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}

func TestUnquote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`'a'`:            "a",
		`"a b"`:          "a b",
		`'it\'s'`:        "it's",
		`'it''s'`:        "it's",
		`r'a\d'`:         `a\d`,
		`'tab\there'`:    "tab\there",
		"`odd``name`":    "odd`name",
		"`MixedCase`":    "mixedcase",
		"{{ ref('X') }}": "{{ ref('X') }}",
	} {
		got := unquoteString(in)
		if in[0] == '`' || in[0] == '{' {
			got = unquoteIdent(in)
		}
		if got != want {
			t.Errorf("unquote(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestScopeName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		parts    []string
		db, want string
	}{
		{[]string{"t"}, "", "t"},
		{[]string{"t"}, "sales", "sales.t"},
		{[]string{"db", "t"}, "sales", "db.t"},
		{[]string{"spark_catalog", "db", "t"}, "", "db.t"},
		{[]string{"cat", "ns1", "ns2", "t"}, "x", "cat.ns1.ns2.t"},
		{[]string{"{{ ref('t') }}"}, "sales", "{{ ref('t') }}"},
	} {
		if got := scopeName(tc.parts, tc.db); got != tc.want {
			t.Errorf("scopeName(%q, %q) = %q, want %q", tc.parts, tc.db, got, tc.want)
		}
	}
}

func TestUnbalanced(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]int{
		"f(a, (b))":      -1,
		"f(a":            1,
		"a)":             1,
		"x[1)":           3,
		"'(' || \"(\"":   -1,
		"{{ f(') }} (a)": -1,
	} {
		if got, _ := brackets(src); got != want {
			t.Errorf("brackets(%q) = %d, want %d", src, got, want)
		}
	}
	// Too deep is said where the nesting passes the limit, unless a bracket has no partner.
	deep := strings.Repeat("(", maxNesting+1) + "a" + strings.Repeat(")", maxNesting+1)
	for src, want := range map[string]int{deep: maxNesting, deep + ")": len(deep), deep[:len(deep)-1]: 0} {
		if got, msg := brackets(src); got != want {
			t.Errorf("brackets(%d brackets) = %d (%s), want %d", len(src), got, msg, want)
		}
	}
}

// TestLinePositions asks for positions in every order: the remembered line must never
// answer for an offset off it.
func TestLinePositions(t *testing.T) {
	t.Parallel()
	src := "ab\n\ncd\nefg\n"
	want := map[int][2]int{0: {1, 1}, 2: {1, 3}, 3: {2, 1}, 4: {3, 1}, 6: {3, 3}, 7: {4, 1}, 10: {4, 4}, 11: {5, 1}, 99: {5, 1}, -1: {1, 1}}
	lines := newLineIndex("f", src)
	for _, off := range []int{10, 0, 4, 3, 7, 6, 2, 11, 99, -1, 6, 6, 3, 10} {
		p := lines.pos(off)
		if w := want[off]; p.Line != w[0] || p.Col != w[1] {
			t.Errorf("pos(%d) = %d:%d, want %d:%d", off, p.Line, p.Col, w[0], w[1])
		}
	}
}
