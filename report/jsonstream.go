package report

import (
	"io"
	"strconv"
	"unicode/utf8"
)

// A jsonStream writes one JSON value as it is produced, byte for byte what writeJSON prints
// for the same value (encoding/json without HTML escaping, then indentJSON): two spaces per
// level up to maxIndentLevels, empty objects and arrays as "{}" and "[]", a final newline.
// Nothing of the value is held but the open containers; the bytes go to the writer in
// blocks.
type jsonStream struct {
	w     io.Writer
	buf   []byte
	depth int
	// open has one entry per open container: whether nothing was written into it yet.
	open []bool
	// keyed is set after a key, whose value follows on the same line.
	keyed bool
	err   error
}

// jsonFlushAt is the buffered size from which the stream writes to its writer.
const jsonFlushAt = 64 << 10

// jsonBlanks is indentation appended a block at a time.
const jsonBlanks = "                                                                "

func newJSONStream(w io.Writer) *jsonStream {
	return &jsonStream{w: w, buf: make([]byte, 0, jsonFlushAt+4096)}
}

// value starts a value: after a key it follows the key; in a container it goes on a line of
// its own, after a comma unless it is the first.
func (s *jsonStream) value() {
	if s.keyed {
		s.keyed = false
		return
	}
	if len(s.open) == 0 {
		return
	}
	top := &s.open[len(s.open)-1]
	if *top {
		*top = false
		s.depth++
	} else {
		s.buf = append(s.buf, ',')
	}
	s.newline()
}

func (s *jsonStream) newline() {
	s.buf = append(s.buf, '\n')
	for n := 2 * min(s.depth, maxIndentLevels); n > 0; n -= len(jsonBlanks) {
		s.buf = append(s.buf, jsonBlanks[:min(n, len(jsonBlanks))]...)
	}
	if len(s.buf) >= jsonFlushAt {
		s.flush()
	}
}

// flush writes what is buffered; the first error is kept and later writes dropped.
func (s *jsonStream) flush() {
	if s.err == nil && len(s.buf) > 0 {
		_, s.err = s.w.Write(s.buf)
	}
	s.buf = s.buf[:0]
}

// begin opens an object ('{') or an array ('[').
func (s *jsonStream) begin(c byte) {
	s.value()
	s.buf = append(s.buf, c)
	s.open = append(s.open, true)
}

// end closes the innermost container with c ('}' or ']').
func (s *jsonStream) end(c byte) {
	empty := s.open[len(s.open)-1]
	s.open = s.open[:len(s.open)-1]
	if !empty {
		s.depth--
		s.newline()
	}
	s.buf = append(s.buf, c)
}

// key writes an object member's key; its value comes next.
func (s *jsonStream) key(k string) {
	s.value()
	s.buf = appendJSONString(s.buf, k)
	s.buf = append(s.buf, ':', ' ')
	s.keyed = true
}

func (s *jsonStream) str(v string) {
	s.value()
	s.buf = appendJSONString(s.buf, v)
}

func (s *jsonStream) int(v int) {
	s.value()
	s.buf = strconv.AppendInt(s.buf, int64(v), 10)
}

func (s *jsonStream) bool(v bool) {
	s.value()
	s.buf = strconv.AppendBool(s.buf, v)
}

func (s *jsonStream) null() {
	s.value()
	s.buf = append(s.buf, "null"...)
}

// strs writes a list of strings as encoding/json writes a []string: null when nil.
func (s *jsonStream) strs(vs []string) {
	if vs == nil {
		s.null()
		return
	}
	s.begin('[')
	for _, v := range vs {
		s.str(v)
	}
	s.end(']')
}

// close ends the value with a newline and writes out the rest.
func (s *jsonStream) close() error {
	s.buf = append(s.buf, '\n')
	s.flush()
	return s.err
}

const jsonHex = "0123456789abcdef"

// appendJSONString appends v quoted as encoding/json quotes a string without HTML escaping:
// '"', '\\' and control bytes escaped, invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, v string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(v); {
		if b := v[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, v[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', jsonHex[b>>4], jsonHex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(v[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, v[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, v[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', jsonHex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, v[start:]...)
	return append(dst, '"')
}
