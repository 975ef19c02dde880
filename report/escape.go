package report

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strings"
	"unicode/utf8"
)

// Everything bucketlint prints comes partly from its inputs: file names, table and column
// names, SQL text. Those are escaped so that no input can drive the reader's tools: no
// control character, ANSI or OSC escape reaches a terminal, no line starts a GitHub Actions
// workflow command, no Markdown link, image or HTML comes alive, no XML report is
// ill-formed. Escapes are written \u001b, readable in every format and valid in JSON.

// mustEscape reports whether r is printed as an escape: C0 controls but tab, DEL, C1
// controls, the Unicode line and paragraph separators, and the bidirectional overrides and
// isolates that reorder what a reader sees ("Trojan Source").
func mustEscape(r rune) bool {
	switch {
	case r < 0x20 && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// escapeRune is the printed form of a rune that mustEscape.
func escapeRune(r rune) string { return fmt.Sprintf(`\u%04x`, r) }

// Clean returns s on one line with every control character escaped (a newline too), for
// a name or message printed as text.
func Clean(s string) string { return clean(s, false) }

// cleanBlock is Clean for text whose line breaks are kept (code given as a fix).
func cleanBlock(s string) string { return clean(s, true) }

func clean(s string, keepNewlines bool) string {
	if isClean(s, keepNewlines) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !validAt(s, i):
			b.WriteRune(utf8.RuneError)
		case r == '\n' && keepNewlines:
			b.WriteByte('\n')
		case mustEscape(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isClean reports whether clean would return s unchanged.
func isClean(s string, keepNewlines bool) bool {
	for i, r := range s {
		if (r == utf8.RuneError && !validAt(s, i)) || (mustEscape(r) && (r != '\n' || !keepNewlines)) {
			return false
		}
	}
	return true
}

// validAt reports whether the U+FFFD decoded at s[i] is written in s, not a decoding error.
func validAt(s string, i int) bool { return strings.HasPrefix(s[i:], "\uFFFD") }

// sgr are the colour sequences bucketlint's own text output writes; a Guard lets exactly
// these through when colour is on.
var sgr = []string{ansiReset, ansiBold, ansiDim, ansiRed, ansiGreen, ansiYellow, ansiCyan, "\x1b[1;31m", "\x1b[1;33m", "\x1b[1;36m"} //nolint:gochecknoglobals // a constant table

// guardLine escapes one line of output (without its line break): control characters
// (except bucketlint's own colours when color is set), and the two ways a line becomes a
// GitHub Actions workflow command: "::" at its start, after blanks, and "##[" anywhere.
func guardLine(line string, color bool) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == '\x1b' && color && ownColour(line[i:]) > 0:
			n = ownColour(line[i:])
			b.WriteString(line[i : i+n])
		case r == utf8.RuneError && n <= 1:
			b.WriteRune(utf8.RuneError)
		case r == '\r' || mustEscape(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(line[i : i+n])
		}
		i += n
	}
	out := b.String()
	if rest := strings.TrimLeft(out, " \t"); strings.HasPrefix(rest, "::") {
		out = out[:len(out)-len(rest)] + escapeRune(':') + rest[1:]
	}
	return strings.ReplaceAll(out, "##[", "#"+escapeRune('#')+"[")
}

// ownColour returns the length of the colour sequence bucketlint writes at the start of s,
// 0 when s starts with another escape.
func ownColour(s string) int {
	for _, c := range sgr {
		if strings.HasPrefix(s, c) {
			return len(c)
		}
	}
	return 0
}

// A Guard is an io.Writer that escapes, line by line, whatever a command prints (see
// guardLine). It holds a line until its end: Flush writes the last one.
type Guard struct {
	w     io.Writer
	color bool
	buf   []byte
	err   error
}

// NewGuard returns a Guard writing to w; color lets bucketlint's own colours through.
func NewGuard(w io.Writer, color bool) *Guard { return &Guard{w: w, color: color} }

// Write escapes and writes every complete line of p, holding the rest.
func (g *Guard) Write(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	g.buf = append(g.buf, p...)
	i := bytes.LastIndexByte(g.buf, '\n')
	if i < 0 {
		return len(p), nil
	}
	g.err = g.emit(g.buf[:i+1])
	g.buf = append(g.buf[:0], g.buf[i+1:]...)
	return len(p), g.err
}

// Flush writes the line held back, if any.
func (g *Guard) Flush() error {
	if g.err == nil && len(g.buf) > 0 {
		g.err = g.emit(g.buf)
		g.buf = g.buf[:0]
	}
	return g.err
}

// emit escapes and writes text, line by line; text that needs no escape is written as it
// is.
func (g *Guard) emit(text []byte) error {
	if plainText(text) {
		_, err := g.w.Write(text)
		return err
	}
	var b strings.Builder
	b.Grow(len(text)) // a report comes in one write: one allocation, not a doubling per size
	for len(text) > 0 {
		line, rest, found := bytes.Cut(text, []byte{'\n'})
		if plainText(line) {
			b.Write(line)
		} else {
			b.WriteString(guardLine(string(line), g.color))
		}
		if found {
			b.WriteByte('\n')
		}
		text = rest
	}
	_, err := io.WriteString(g.w, b.String())
	return err
}

// plainText reports whether guardLine leaves every line of text as it is: printable ASCII,
// tabs and line breaks only, no line starting with "::" after blanks, no "##[".
func plainText(text []byte) bool {
	lineStart := true
	for i, c := range text {
		switch {
		case c == '\n':
			lineStart = true
			continue
		case c == ' ' || c == '\t':
			continue
		case c < 0x20 || c >= 0x7f:
			return false
		case c == ':' && lineStart && i+1 < len(text) && text[i+1] == ':':
			return false
		case c == '#' && i+2 < len(text) && text[i+1] == '#' && text[i+2] == '[':
			return false
		}
		lineStart = false
	}
	return true
}

// Guarded returns data escaped as a Guard would write it, for report files.
func Guarded(data []byte) []byte {
	var b bytes.Buffer
	g := NewGuard(&b, false)
	_, _ = g.Write(data)
	_ = g.Flush()
	return b.Bytes()
}

// mdInline makes input text safe inline in Markdown, on one line: every character that
// could open a link, an image, an autolink, raw HTML, an entity, a code span, emphasis or a
// table cell is backslash-escaped (CommonMark escapes any ASCII punctuation), and "www."
// too, which GitHub turns into a link.
func mdInline(s string) string {
	s = Clean(lineBreaks.Replace(s))
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if strings.IndexByte("\\`*_~[]()<>!|&:@#", c) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
		if (c == 'w' || c == 'W') && strings.HasPrefix(strings.ToLower(s[i:]), "www.") {
			b.WriteString(s[i+1 : i+3])
			b.WriteString(`\.`)
			i += 3
		}
	}
	return b.String()
}

// htmlText escapes s for HTML text, where Markdown is not read (a <summary> line).
func htmlText(s string) string { return html.EscapeString(Clean(s)) }

// codeSpan returns s as a Markdown code span that s cannot close: fenced by one backtick
// more than its longest run of backticks, padded when it starts or ends with one; nothing
// inside a code span is a link or HTML.
func codeSpan(s string) string {
	s = Clean(lineBreaks.Replace(s))
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || longest > 0 {
		s = " " + s + " "
	}
	return fence + s + fence
}
