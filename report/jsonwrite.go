package report

import (
	"bytes"
	"encoding/json"
	"io"
)

// maxIndentLevels is the nesting from which JSON output is no longer indented further:
// deeper values are written at this indentation. Indenting every level would make the
// output of a plan n operators deep grow with n² (a node is an object holding an array of
// children, two levels per operator).
const maxIndentLevels = 128

// writeJSON writes v as encoding/json's Encoder does with SetIndent("", "  ") and
// SetEscapeHTML(false), one value and a newline, but indents the compact encoding itself,
// without a nesting limit and up to maxIndentLevels: the Encoder's indentation re-scans its
// output with a limit of 10,000 levels, which a plan 5,000 operators deep exceeded (issue 14).
func writeJSON(w io.Writer, v any) error {
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(indentJSON(make([]byte, 0, compact.Len()*2), compact.Bytes()))
	return err
}

// indentJSON appends src, compact JSON, to dst indented by two spaces per level as
// json.Indent does (empty objects and arrays stay "{}" and "[]") up to maxIndentLevels, in
// one pass and without recursion. Whitespace outside strings is dropped and a final newline
// added.
func indentJSON(dst, src []byte) []byte {
	depth := 0
	inString, escaped, open := false, false, false
	newline := func() {
		dst = append(dst, '\n')
		for range min(depth, maxIndentLevels) {
			dst = append(dst, ' ', ' ')
		}
	}
	for _, c := range src {
		if inString {
			dst = append(dst, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		if open {
			// The value after '{' or '[': a closing bracket keeps the pair empty.
			open = false
			if c == '}' || c == ']' {
				dst = append(dst, c)
				continue
			}
			depth++
			newline()
		}
		switch c {
		case '"':
			inString = true
			dst = append(dst, c)
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '\n')
}
