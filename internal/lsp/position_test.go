package lsp

import (
	"testing"
)

// TestPositions converts bucketlint's 1-based byte columns to protocol positions and back,
// in UTF-16 and UTF-8, over lines with multi-byte characters, a character outside the Basic
// Multilingual Plane (two UTF-16 units), bytes that are not UTF-8 and CRLF endings.
func TestPositions(t *testing.T) {
	t.Parallel()
	text := []byte("abc\r\nx é😀 y\n\xff\xfez\n")
	l := newLines(text)
	cases := []struct {
		line, col int
		enc       encoding
		want      position
	}{
		{1, 1, encUTF16, position{0, 0}},
		{1, 4, encUTF16, position{0, 3}},
		{1, 99, encUTF16, position{0, 3}}, // past the end: the line's end, "\r" excluded
		{1, 0, encUTF16, position{0, 0}},
		{2, 3, encUTF16, position{1, 2}},  // before é
		{2, 5, encUTF16, position{1, 3}},  // after é (2 bytes, 1 unit)
		{2, 10, encUTF16, position{1, 6}}, // after 😀 (4 bytes, 2 units) and a space
		{2, 10, encUTF8, position{1, 9}},
		{3, 3, encUTF16, position{2, 2}}, // each byte that is not UTF-8 is one unit
		{4, 1, encUTF16, position{3, 0}}, // the empty last line
		{9, 1, encUTF16, position{3, 0}}, // past the text: its end
		{0, 5, encUTF16, position{0, 0}},
	}
	for _, c := range cases {
		if got := l.position(c.line, c.col, c.enc); got != c.want {
			t.Errorf("position(%d, %d, %s) = %+v, want %+v", c.line, c.col, c.enc, got, c.want)
		}
	}
	back := []struct {
		p         position
		enc       encoding
		line, col int
	}{
		{position{0, 0}, encUTF16, 1, 1},
		{position{1, 3}, encUTF16, 2, 5},
		{position{1, 4}, encUTF16, 2, 5}, // inside 😀's surrogate pair: before it
		{position{1, 5}, encUTF16, 2, 9},
		{position{1, 99}, encUTF16, 2, 11},
		{position{1, 4}, encUTF8, 2, 5},
		{position{7, 0}, encUTF16, 4, 1},
		{position{-1, 0}, encUTF16, 1, 1},
		{position{0, -3}, encUTF16, 1, 1},
	}
	for _, c := range back {
		if line, col := l.pos(c.p, c.enc); line != c.line || col != c.col {
			t.Errorf("pos(%+v, %s) = %d:%d, want %d:%d", c.p, c.enc, line, col, c.line, c.col)
		}
	}
	if got := l.offset(position{1, 3}, encUTF16); string(text[got:got+2]) != "😀"[:2] {
		t.Errorf("offset of line 2 character 3 is %d", got)
	}
}

// TestURIs reads file: URIs as file names and writes them back.
func TestURIs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		uri, name string
		ok        bool
	}{
		{"file:///tmp/ws/a%20b.sql", "/tmp/ws/a b.sql", true},
		{"file:///tmp/ws/../ws/x.sql", "/tmp/ws/x.sql", true},
		{"file:///c%3A/Users/x/y.sql", "c:/Users/x/y.sql", true},
		{"file:///C:/Users/x/y.sql", "C:/Users/x/y.sql", true},
		{"file://server/share/y.sql", cleanName("//server/share/y.sql"), true}, // a UNC path on Windows
		{"file://localhost/tmp/y.sql", "/tmp/y.sql", true},
		{"untitled:Untitled-1", "", false},
		{"git:/tmp/ws/x.sql?ref", "", false},
		{"file:", "", false},
		{"%zz", "", false},
	}
	for _, c := range cases {
		name, ok := uriPath(c.uri)
		if name != c.name || ok != c.ok {
			t.Errorf("uriPath(%q) = %q, %v; want %q, %v", c.uri, name, ok, c.name, c.ok)
		}
		if !ok {
			continue
		}
		if back, _ := uriPath(fileURI(name)); back != name {
			t.Errorf("fileURI(%q) = %q reads back as %q", name, fileURI(name), back)
		}
	}
}
