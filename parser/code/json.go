package code

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// A jval is a JSON value read with positions: for a string, the file offset of the raw
// character each decoded byte came from. The notebook reader needs those offsets, which
// encoding/json does not give.
type jval struct {
	kind   byte // 'o' object, 'a' array, 's' string, 'x' anything else
	keys   []string
	vals   []*jval
	str    string
	offs   []int
	offset int
}

func (v *jval) get(key string) *jval {
	if v == nil || v.kind != 'o' {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// maxJSONDepth bounds the nesting of a notebook's JSON: nbformat nests five deep.
const maxJSONDepth = 200

// A jsonReader is a small JSON reader that keeps offsets.
type jsonReader struct {
	src   []byte
	i     int
	depth int
}

func (r *jsonReader) ws() {
	for r.i < len(r.src) && (r.src[r.i] == ' ' || r.src[r.i] == '\t' || r.src[r.i] == '\n' || r.src[r.i] == '\r') {
		r.i++
	}
}

func (r *jsonReader) value() (*jval, error) {
	r.ws()
	if r.i >= len(r.src) {
		return nil, fmt.Errorf("unexpected end of JSON")
	}
	if r.depth >= maxJSONDepth {
		return nil, fmt.Errorf("JSON nested more than %d deep", maxJSONDepth)
	}
	r.depth++
	defer func() { r.depth-- }()
	switch c := r.src[r.i]; c {
	case '{':
		return r.object()
	case '[':
		return r.array()
	case '"':
		return r.string()
	}
	v := &jval{kind: 'x', offset: r.i}
	for r.i < len(r.src) && !isJSONDelim(r.src[r.i]) {
		r.i++
	}
	if r.i == v.offset {
		return nil, fmt.Errorf("unexpected %q in JSON", r.src[r.i])
	}
	return v, nil
}

func isJSONDelim(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r', ':', '"', '{', '[':
		return true
	}
	return false
}

func (r *jsonReader) object() (*jval, error) {
	v := &jval{kind: 'o', offset: r.i}
	r.i++
	for {
		r.ws()
		if r.i < len(r.src) && r.src[r.i] == '}' {
			r.i++
			return v, nil
		}
		k, err := r.value()
		if err != nil {
			return nil, err
		}
		if k.kind != 's' {
			return nil, fmt.Errorf("object key is not a string")
		}
		r.ws()
		if r.i >= len(r.src) || r.src[r.i] != ':' {
			return nil, fmt.Errorf("missing ':' after object key")
		}
		r.i++
		val, err := r.value()
		if err != nil {
			return nil, err
		}
		v.keys, v.vals = append(v.keys, k.str), append(v.vals, val)
		if err := r.sep('}'); err != nil {
			return nil, err
		}
	}
}

func (r *jsonReader) array() (*jval, error) {
	v := &jval{kind: 'a', offset: r.i}
	r.i++
	for {
		r.ws()
		if r.i < len(r.src) && r.src[r.i] == ']' {
			r.i++
			return v, nil
		}
		item, err := r.value()
		if err != nil {
			return nil, err
		}
		v.vals = append(v.vals, item)
		if err := r.sep(']'); err != nil {
			return nil, err
		}
	}
}

// sep consumes a comma, or leaves a closer for the caller.
func (r *jsonReader) sep(closer byte) error {
	r.ws()
	switch {
	case r.i < len(r.src) && r.src[r.i] == ',':
		r.i++
		return nil
	case r.i < len(r.src) && r.src[r.i] == closer:
		return nil
	}
	return fmt.Errorf("expected ',' or %q in JSON", closer)
}

func (r *jsonReader) string() (*jval, error) {
	v := &jval{kind: 's', offset: r.i}
	r.i++
	var b []byte
	for r.i < len(r.src) {
		c := r.src[r.i]
		switch {
		case c == '"':
			r.i++
			v.str = string(b)
			return v, nil
		case c == '\\' && r.i+1 < len(r.src):
			at := r.i
			e := r.src[r.i+1]
			r.i += 2
			var dec []byte
			switch e {
			case 'n':
				dec = []byte{'\n'}
			case 't':
				dec = []byte{'\t'}
			case 'r':
				dec = []byte{'\r'}
			case 'b':
				dec = []byte{'\b'}
			case 'f':
				dec = []byte{'\f'}
			case 'u':
				dec = r.unicode()
			default:
				dec = []byte{e}
			}
			for range dec {
				v.offs = append(v.offs, at)
			}
			b = append(b, dec...)
		default:
			b = append(b, c)
			v.offs = append(v.offs, r.i)
			r.i++
		}
	}
	return nil, fmt.Errorf("unterminated JSON string")
}

// unicode decodes the 4 hex digits of a \u escape (and a following low surrogate).
func (r *jsonReader) unicode() []byte {
	hex := func() (rune, bool) {
		if r.i+4 > len(r.src) {
			return 0, false
		}
		n, err := strconv.ParseUint(string(r.src[r.i:r.i+4]), 16, 32)
		if err != nil {
			return 0, false
		}
		r.i += 4
		return rune(n), true
	}
	ru, ok := hex()
	if !ok {
		return []byte{'?'}
	}
	if 0xD800 <= ru && ru < 0xDC00 && r.i+6 <= len(r.src) && r.src[r.i] == '\\' && r.src[r.i+1] == 'u' {
		r.i += 2
		if lo, ok := hex(); ok && 0xDC00 <= lo && lo < 0xE000 {
			ru = 0x10000 + (ru-0xD800)<<10 + (lo - 0xDC00)
		}
	}
	return utf8.AppendRune(nil, ru)
}
