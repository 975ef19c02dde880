package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestEscapes(t *testing.T) {
	cases := []struct {
		name, got, want string
	}{
		{"clean", Clean("a\nb\x1b[31m\u202e\x01\tc\xff"), `a\u000ab\u001b[31m\u202e\u0001` + "\tc\uFFFD"},
		{"block", cleanBlock("a\nb\r"), "a\nb\\u000d"},
		{"code span", codeSpan("a`b"), "`` a`b ``"},
		{"code span plain", codeSpan("a.sql:1:2"), "`a.sql:1:2`"},
		{"markdown", mdInline("![i](http://e) <b> www.x.com a@b |"), `\!\[i\]\(http\://e\) \<b\> www\.x.com a\@b \|`},
		{"html", htmlText(`<b>"x"`), "&lt;b&gt;&#34;x&#34;"},
		{"github data", escapeData("a\n::error::x ##[error] 50%\x1b"), `a%0A::error::x #\u0023[error] 50%25\u001b`},
		{"github property", escapeProperty("a:b,c\n"), `a%3Ab%2Cc\u000a`},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
}

// TestGuard writes hostile lines through a Guard in pieces: controls are escaped, bucketlint's
// own colours pass only when colour is on, and no line starts a workflow command.
func TestGuard(t *testing.T) {
	in := "ok \x1b[1;31merror\x1b[0m\n  ::error file=x::y\n\x1b]0;t\x07 ##[group]\npartial"
	for _, c := range []struct {
		color bool
		want  string
	}{
		{true, "ok \x1b[1;31merror\x1b[0m\n  \\u003a:error file=x::y\n\\u001b]0;t\\u0007 #\\u0023[group]\npartial"},
		{false, "ok \\u001b[1;31merror\\u001b[0m\n  \\u003a:error file=x::y\n\\u001b]0;t\\u0007 #\\u0023[group]\npartial"},
	} {
		var b bytes.Buffer
		g := NewGuard(&b, c.color)
		for i := 0; i < len(in); i += 5 {
			if _, err := g.Write([]byte(in[i:min(i+5, len(in))])); err != nil {
				t.Fatal(err)
			}
		}
		if err := g.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("color=%v:\n got %q\nwant %q", c.color, b.String(), c.want)
		}
		if got := string(Guarded([]byte(in))); !c.color && got != c.want {
			t.Errorf("Guarded:\n got %q\nwant %q", got, c.want)
		}
	}
}

// FuzzGuardPlain holds a Guard's pass-through of plain text to escaping every line with
// guardLine, with colour on and off.
func FuzzGuardPlain(f *testing.F) {
	for _, s := range []string{
		"ok\n", "  ::error x\n", "a ##[group]\n", "\t:: x", "a:: b\n::", "#\n#[", "café\n", "\x1b[1mx\x1b[0m\n",
		"{\n  \"a\": [\n    1\n  ]\n}\n", "x\r\ny", "\u2028", "##", "#", ":", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, color := range []bool{false, true} {
			var want strings.Builder
			for i, line := range strings.Split(string(data), "\n") {
				if i > 0 {
					want.WriteByte('\n')
				}
				want.WriteString(guardLine(line, color))
			}
			var got bytes.Buffer
			g := NewGuard(&got, color)
			_, _ = g.Write(data)
			_ = g.Flush()
			if got.String() != want.String() {
				t.Fatalf("color=%v %q:\n got %q\nwant %q", color, data, got.String(), want.String())
			}
		}
	})
}
