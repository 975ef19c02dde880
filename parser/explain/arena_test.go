package explain

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// bareAttrCases are expressions at and around the shape bareAttr reads.
var bareAttrCases = []string{
	"k#1", "ss_item_sk#12", "d_year#5L", "k#x", "k#xL", "K#1", "Mixed_Case#7L", "$v#3", "_c0#9",
	"k#", "a1#2", "caf\u00e9#1", "1k#2", "#1", "k#1a", "k#1L2", "k#1 ", " k#1", "k#1,", "k#1#2",
	"k#12LL", "not#1", "null#4", "case#5", "k.f#1", "`k`#1", "k#-1", "max(v)#5", "k#1 AS x#2",
	strings.Repeat("a", maxBareName) + "#1", strings.Repeat("a", maxBareName+1) + "#1",
	strings.Repeat("a", maxNameLen+1) + "#1",
}

// TestBareAttrAgrees: an attribute read by the fast path is what the general path reads.
func TestBareAttrAgrees(t *testing.T) {
	for _, s := range bareAttrCases {
		checkBareAttr(t, s)
	}
}

func checkBareAttr(t *testing.T, s string) {
	t.Helper()
	var a, b arena
	got, want := a.read(s), b.parsedExpr(s)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read(%q) = %+v (tree %s), want %+v (tree %s)", s, got, dumpX(got.X), want, dumpX(want.X))
	}
}

// FuzzBareAttr holds the fast path for attributes to the general path on any text.
func FuzzBareAttr(f *testing.F) {
	for _, s := range bareAttrCases {
		f.Add(s)
	}
	for _, s := range bareListCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkBareAttr(t, s)
		checkBareList(t, s)
		if got, want := keywordOf(s), knownKeyword(strings.ToLower(s)); got != want {
			t.Errorf("keywordOf(%q) = %q, want %q", s, got, want)
		}
	})
}

// bareListCases are lists at and around the shapes plainList reads.
var bareListCases = []string{
	"[a#1, b#2L, c#x]", "[a#1,b#2]", "[ a#1 ,  b#2 ]", "[a#1]", "[]", "[a#1, ]", "[a#1,, b#2]",
	"[a#1, b#2", "a#1, b#2]", "[a#1, f(b#2)]", "[a#1, ... 3 more fields]", " [a#1] ", "[a#1\t, b#2]",
	"[a#1, 'x']", "[a#1]]", "[[a#1]]", "[a#1 b#2]", "[a#1,\u00a0b#2]", "[\u00a0a#1]", "[a#1 , , ]",
	"[k#1 = 5, a#2]", "[k#1 IN (1,2), a#2]", "[a#1\\, b#2]", "[a, \"b, c\"]", "[a#1,\vb#2]",
}

// TestBareListAgrees: a list of attributes read by the fast path is what splitting it and
// reading each part gives.
func TestBareListAgrees(t *testing.T) {
	for _, s := range bareListCases {
		checkBareList(t, s)
	}
}

func checkBareList(t *testing.T, s string) {
	t.Helper()
	var a, b arena
	got, gotOK := a.exprList(s)
	want, wantOK := b.splitList(s)
	if !reflect.DeepEqual(got, want) || gotOK != wantOK {
		t.Errorf("exprList(%q) = %+v, %v; want %+v, %v", s, got, gotOK, want, wantOK)
	}
}

// TestKeywordOf: keywords are found in any case, as Unicode lowers them.
func TestKeywordOf(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"AND", "and"},
		{"Or", "or"},
		{"inset", "inset"},
		{"TIMESTAMP_NTZ", "timestamp_ntz"},
		{"LI\u212aE", "like"},
		{"andx", ""},
		{"", ""},
		{"a", ""},
		{"BUILDING", ""},
		{strings.Repeat("x", 40), ""},
	} {
		if got := keywordOf(tt.in); got != tt.want {
			t.Errorf("keywordOf(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestExprsEmptyNotNil: what exprText and exprs gave before the arena, nil and empty lists
// alike, they give with it.
func TestExprsEmptyNotNil(t *testing.T) {
	var a arena
	if e := a.newExpr("a)#5"); e.Refs() == nil || len(e.Refs()) != 0 || e.Text() != "a)" {
		t.Errorf("id cut without a name: Refs %#v, Text %q; want empty, not nil, and \"a)\"", e.Refs(), e.Text())
	}
	if e := a.newExpr("k = 1"); e.Refs() != nil {
		t.Errorf("no id: Refs %#v, want nil", e.Refs())
	}
	if es := a.exprs([]string{"", "... 2 more fields"}); es == nil || len(es) != 0 {
		t.Errorf("only empty parts: %#v, want empty, not nil", es)
	}
	if es := a.exprs(nil); es != nil {
		t.Errorf("no parts: %#v, want nil", es)
	}
}

// TestRepeatsShared: an expression printed again shares the first one's tree.
func TestRepeatsShared(t *testing.T) {
	var a arena
	for _, s := range []string{"k#1", "(k#1 = 5)"} {
		if x, y := a.newExpr(s), a.newExpr(s); x.Tree() != y.Tree() || !reflect.DeepEqual(x, y) {
			t.Errorf("%q read twice: trees %p and %p", s, x.Tree(), y.Tree())
		}
	}
}

// TestArenaCapsSlices: a slice from the arena is capped, so appending to it leaves the
// next slice alone.
func TestArenaCapsSlices(t *testing.T) {
	var a arena
	x, y := a.node(plan0()), a.node(plan0())
	l1 := a.list(x)
	l2 := a.list(y)
	l1 = append(l1, y)
	if l2[0] != y || len(l1) != 2 {
		t.Fatal("appending to one list changed the next")
	}
	if a.list() != nil {
		t.Error("an empty list is not nil")
	}
}

func plan0() plan.X { return plan.X{} }
