package lsp

import (
	"bytes"
	"unicode/utf8"
)

// An encoding is how a position's character offset counts: UTF-16 code units (the
// protocol's default) or bytes (UTF-8, when the client offers it). bucketlint's columns count
// bytes, so UTF-16 offsets are converted line by line.
type encoding int

const (
	encUTF16 encoding = iota
	encUTF8
)

// String is the encoding's name in the protocol.
func (e encoding) String() string {
	if e == encUTF8 {
		return "utf-8"
	}
	return "utf-16"
}

// lines indexes a text's lines, as bucketlint numbers them: split at "\n" (a "\r" before it
// is not part of the line).
type lines struct {
	text   []byte
	starts []int
}

func newLines(text []byte) *lines {
	l := &lines{text: text, starts: []int{0}}
	for i, c := range text {
		if c == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// line returns line i (0-based) without its line ending; nil past the last line.
func (l *lines) line(i int) []byte {
	if i < 0 || i >= len(l.starts) {
		return nil
	}
	end := len(l.text)
	if i+1 < len(l.starts) {
		end = l.starts[i+1] - 1
	}
	return bytes.TrimSuffix(l.text[l.starts[i]:end], []byte{'\r'})
}

// position converts a 1-based line and 1-based byte column (0 or less: the line's start) to
// a protocol position; a column past the line's end is its end, a line past the text's end
// the end of the text.
func (l *lines) position(line, col int, enc encoding) position {
	if line < 1 {
		return position{}
	}
	if line > len(l.starts) {
		last := len(l.starts) - 1
		return position{Line: last, Character: units(l.line(last), enc)}
	}
	text := l.line(line - 1)
	b := min(max(col-1, 0), len(text))
	return position{Line: line - 1, Character: units(text[:b], enc)}
}

// lineEnd is the position at the end of a 1-based line.
func (l *lines) lineEnd(line int, enc encoding) position {
	return l.position(line, 1<<30, enc)
}

// pos converts a protocol position to a 1-based line and 1-based byte column, clamped to the
// text as position is.
func (l *lines) pos(p position, enc encoding) (line, col int) {
	if p.Line < 0 {
		return 1, 1
	}
	if p.Line >= len(l.starts) {
		last := len(l.starts) - 1
		return last + 1, len(l.line(last)) + 1
	}
	return p.Line + 1, byteCount(l.line(p.Line), p.Character, enc) + 1
}

// offset converts a protocol position to a byte offset into the text.
func (l *lines) offset(p position, enc encoding) int {
	line, col := l.pos(p, enc)
	return l.starts[line-1] + col - 1
}

// units counts b in the encoding's units: bytes, or UTF-16 code units (a byte that is not
// UTF-8 counts as one, as its replacement character would).
func units(b []byte, enc encoding) int {
	if enc == encUTF8 {
		return len(b)
	}
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// byteCount is the number of bytes of line that the first n units cover; an offset inside a
// character (between a surrogate pair's halves) stops before it, one past the line its end.
func byteCount(line []byte, n int, enc encoding) int {
	if n <= 0 {
		return 0
	}
	if enc == encUTF8 {
		return min(n, len(line))
	}
	b := 0
	for b < len(line) {
		r, size := utf8.DecodeRune(line[b:])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if w > n {
			break
		}
		n -= w
		b += size
		if n == 0 {
			break
		}
	}
	return b
}
