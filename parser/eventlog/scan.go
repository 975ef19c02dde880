package eventlog

import (
	"bytes"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner reads one line of JSON for the events read most (task ends, job starts, SQL
// execution starts and plan updates) without encoding/json's reflection: it validates the
// whole line as JSON and takes only the fields the reader needs. It gives up (ok false) on
// anything it does not read exactly as encoding/json would — a syntax error, a value of
// another type, a null, a duplicated or case-folded field name, deep nesting — and the
// caller then decodes the line with encoding/json, whose result or error stands. So a line
// decoded here holds what encoding/json would have given (FuzzScanAgreesWithJSON).
type scanner struct {
	b     []byte
	i     int
	depth int
}

// maxScanDepth is the deepest nesting the scanner follows; deeper lines go to encoding/json.
const maxScanDepth = 512

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// end reports whether only white space is left.
func (s *scanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}

// str reads a string at the cursor and returns its raw content (without the quotes), and
// whether it holds an escape or a byte outside ASCII.
func (s *scanner) str() (raw []byte, special, ok bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false, false
	}
	start := s.i + 1
	for i := start; i < len(s.b); i++ {
		c := s.b[i]
		switch {
		case c == '"':
			s.i = i + 1
			return s.b[start:i], special, true
		case c < 0x20:
			return nil, false, false
		case c >= utf8.RuneSelf:
			special = true
		case c == '\\':
			special = true
			i++
			if i >= len(s.b) {
				return nil, false, false
			}
			switch s.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(s.b) || !isHex4(s.b[i+1:i+5]) {
					return nil, false, false
				}
				i += 4
			default:
				return nil, false, false
			}
		}
	}
	return nil, false, false
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// strVal reads a string value as encoding/json decodes it: escapes resolved, a lone UTF-16
// surrogate and each byte of invalid UTF-8 replaced by U+FFFD.
func (s *scanner) strVal() (string, bool) {
	raw, special, ok := s.str()
	if !ok {
		return "", false
	}
	if !special {
		return string(raw), true
	}
	return unquote(raw), true
}

// unquote resolves the escapes of a string's raw content, which str has validated.
func unquote(raw []byte) string {
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			e := raw[i+1]
			i += 2
			switch e {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(raw[i:])
				i += 4
				if utf16.IsSurrogate(r) {
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if d := utf16.DecodeRune(r, hex4(raw[i+2:])); d != unicode.ReplacementChar {
							b = utf8.AppendRune(b, d)
							i += 6
							break
						}
					}
					r = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, r)
			default: // '"', '\\', '/'
				b = append(b, e)
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			b = utf8.AppendRune(b, r) // RuneError for an invalid byte
			i += size
		}
	}
	return string(b)
}

// hex4 is the value of four hexadecimal digits, which str has validated.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// num reads a number at the cursor (JSON's grammar) and returns its text.
func (s *scanner) num() ([]byte, bool) {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	out := b[s.i:i]
	s.i = i
	return out, true
}

// intVal reads an integer as encoding/json decodes one into an int64.
func (s *scanner) intVal() (int64, bool) {
	raw, ok := s.num()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(string(raw), 10, 64)
	return v, err == nil
}

// goInt reads an integer as encoding/json decodes one into an int.
func (s *scanner) goInt() (int, bool) {
	v, ok := s.intVal()
	return int(v), ok && int64(int(v)) == v
}

// boolVal reads true or false.
func (s *scanner) boolVal() (bool, bool) {
	switch {
	case bytes.HasPrefix(s.b[s.i:], []byte("true")):
		s.i += 4
		return true, true
	case bytes.HasPrefix(s.b[s.i:], []byte("false")):
		s.i += 5
		return false, true
	}
	return false, false
}

// skip reads any value and returns its raw text.
func (s *scanner) skip() ([]byte, bool) {
	start := s.i
	if s.i >= len(s.b) {
		return nil, false
	}
	var ok bool
	switch s.b[s.i] {
	case '"':
		_, _, ok = s.str()
	case '{':
		ok = s.object(nil, func(int) bool { _, ok := s.skip(); return ok })
	case '[':
		ok = s.array(func() bool { _, ok := s.skip(); return ok })
	case 't', 'f':
		_, ok = s.boolVal()
	case 'n':
		if ok = bytes.HasPrefix(s.b[s.i:], []byte("null")); ok {
			s.i += 4
		}
	default:
		_, ok = s.num()
	}
	return s.b[start:s.i], ok
}

// object reads an object at the cursor: for each member whose name is one of keys, field is
// called with its index to read the value; other members are skipped. It fails on a name
// that is one of keys only in another case (encoding/json would take it) and on a name of
// keys given twice (encoding/json would merge the two).
func (s *scanner) object(keys []string, field func(int) bool) bool {
	if s.i >= len(s.b) || s.b[s.i] != '{' || s.depth >= maxScanDepth {
		return false
	}
	s.depth++
	defer func() { s.depth-- }()
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return true
	}
	var seen uint64
	for {
		name, special, ok := s.str()
		if !ok || (special && len(keys) > 0) {
			return false // a name with escapes or bytes outside ASCII may be a key: encoding/json decides
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return false
		}
		s.i++
		s.ws()
		k := keyIndex(keys, name)
		switch {
		case k == -2:
			return false
		case k >= 0:
			if seen&(1<<k) != 0 {
				return false
			}
			seen |= 1 << k
			if !field(k) {
				return false
			}
		default:
			if _, ok := s.skip(); !ok {
				return false
			}
		}
		s.ws()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.ws()
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// keyIndex returns the index of name in keys, -1 when it is none of them, -2 when it is one
// of them only in another case.
func keyIndex(keys []string, name []byte) int {
	for i, k := range keys {
		if len(k) == len(name) && k == string(name) {
			return i
		}
	}
	for _, k := range keys {
		if bytes.EqualFold([]byte(k), name) {
			return -2
		}
	}
	return -1
}

// array reads an array at the cursor, calling elem to read each element.
func (s *scanner) array(elem func() bool) bool {
	if s.i >= len(s.b) || s.b[s.i] != '[' || s.depth >= maxScanDepth {
		return false
	}
	s.depth++
	defer func() { s.depth-- }()
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return true
	}
	for {
		if !elem() {
			return false
		}
		s.ws()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.ws()
		case ']':
			s.i++
			return true
		default:
			return false
		}
	}
}

// strMap reads an object of strings into a map, as encoding/json fills a map[string]string.
func (s *scanner) strMap() (map[string]string, bool) {
	if s.i >= len(s.b) || s.b[s.i] != '{' || s.depth >= maxScanDepth {
		return nil, false
	}
	s.depth++
	defer func() { s.depth-- }()
	m := map[string]string{}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return m, true
	}
	for {
		k, ok := s.strVal()
		if !ok {
			return nil, false
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return nil, false
		}
		s.i++
		s.ws()
		v, ok := s.strVal()
		if !ok {
			return nil, false
		}
		m[k] = v
		s.ws()
		if s.i >= len(s.b) {
			return nil, false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.ws()
		case '}':
			s.i++
			return m, true
		default:
			return nil, false
		}
	}
}
