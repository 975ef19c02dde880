package code

import "testing"

// TestTokensBody checks the token ranges a function body reads again: the range, then a
// tEOF at the end of its last token, also when the range reaches the file's own tEOF.
func TestTokensBody(t *testing.T) {
	src := []byte("def f(a):\n    return a\n")
	all := lex(src, false)
	n := all.len()
	if last := all.at(n - 1); last.kind != tEOF || last.off != len(src) {
		t.Fatalf("last token %+v, want tEOF at %d", last, len(src))
	}
	cases := []struct {
		name     string
		from, to int
		want     int // tokens, the tEOF included
		eof      int
	}{
		{"inside", 1, 3, 3, all.at(2).end},
		{"to the end", 1, n - 1, n - 1, all.at(n - 2).end},
		{"through the tEOF", 1, n, n - 1, len(src)},
		{"empty", 2, 2, 1, all.at(2).off},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := all.body(c.from, c.to)
			if b.len() != c.want {
				t.Fatalf("len %d, want %d", b.len(), c.want)
			}
			for i := 0; i < b.len()-1; i++ {
				if got, want := b.at(i), all.at(c.from+i); got != want {
					t.Errorf("token %d: %+v, want %+v", i, got, want)
				}
			}
			if e := b.at(b.len() - 1); e.kind != tEOF || e.off != c.eof {
				t.Errorf("final token %+v, want tEOF at %d", e, c.eof)
			}
		})
	}
}
