package dbt

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// An Item is one written value: a string's text without its quotes, a number's digits, and
// where the text starts.
type Item struct {
	Text string
	Pos  plan.Pos
}

// A Value is one config value: a string or a number is one item, a list one item per element.
// Pos is where the key is written.
type Value struct {
	Items []Item
	Pos   plan.Pos
	// Other is set for a value that is not a string, a number or a list of them (a dict, a
	// Jinja expression): its items are unknown.
	Other bool
}

// Text returns a one-item value's text, "" for none or several.
func (v Value) Text() string {
	if len(v.Items) != 1 {
		return ""
	}
	return v.Items[0].Text
}

// A Config is a model's configuration: key → value, later sources over earlier ones.
type Config map[string]Value

// keys are the configs bucketlint reads; the others are ignored.
func known(key string) bool {
	switch key {
	case "materialized", "file_format", "partition_by", "clustered_by", "buckets", "enabled",
		"alias", "location_root", "incremental_strategy":
		return true
	}
	return false
}

// merge sets every key of c2 in c.
func (c Config) merge(c2 Config) {
	for k, v := range c2 {
		c[k] = v
	}
}

// kwargs reads the keyword arguments of a config(…) call: src is the text between the
// parentheses, starting at pos. Only keys bucketlint reads are kept.
func kwargs(src string, pos plan.Pos) Config {
	k := &kwScanner{src: src, pos: pos}
	out := Config{}
	for {
		k.space()
		if k.i >= len(k.src) {
			return out
		}
		name, at := k.ident()
		k.space()
		if name == "" || k.i >= len(k.src) || k.src[k.i] != '=' {
			k.skipArg()
			continue
		}
		k.i++
		k.space()
		v := k.value()
		v.Pos = at
		if known(name) {
			out[name] = v
		}
		k.skipArg()
	}
}

// A kwScanner walks the text of a call's arguments.
type kwScanner struct {
	src string
	i   int
	pos plan.Pos // the position of src[0]
}

// at returns the position of src[i].
func (k *kwScanner) at(i int) plan.Pos {
	p := k.pos
	for j := 0; j < i && j < len(k.src); j++ {
		if k.src[j] == '\n' {
			p.Line++
			p.Col = 1
		} else {
			p.Col++
		}
	}
	return p
}

func (k *kwScanner) space() {
	for k.i < len(k.src) && strings.IndexByte(" \t\r\n", k.src[k.i]) >= 0 {
		k.i++
	}
}

func (k *kwScanner) ident() (string, plan.Pos) {
	start := k.i
	for k.i < len(k.src) && isWord(k.src[k.i]) {
		k.i++
	}
	return k.src[start:k.i], k.at(start)
}

func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// value reads a string, a number or a list of them; anything else is Other, skipped.
func (k *kwScanner) value() Value {
	if k.i >= len(k.src) {
		return Value{Other: true}
	}
	switch c := k.src[k.i]; {
	case c == '\'' || c == '"':
		it, ok := k.str()
		return Value{Items: []Item{it}, Other: !ok}
	case '0' <= c && c <= '9':
		start := k.i
		for k.i < len(k.src) && '0' <= k.src[k.i] && k.src[k.i] <= '9' {
			k.i++
		}
		return Value{Items: []Item{{Text: k.src[start:k.i], Pos: k.at(start)}}}
	case c == '[':
		return k.list()
	}
	start := k.i
	if w, at := k.ident(); w != "" {
		switch lw := strings.ToLower(w); lw {
		case "true", "false", "none":
			return Value{Items: []Item{{Text: lw, Pos: at}}}
		}
	}
	k.i = start
	return Value{Other: true}
}

// str reads a quoted string without escapes; ok is false for one that does not end.
func (k *kwScanner) str() (Item, bool) {
	q := k.src[k.i]
	start := k.i + 1
	end := strings.IndexByte(k.src[start:], q)
	if end < 0 {
		k.i = len(k.src)
		return Item{}, false
	}
	k.i = start + end + 1
	return Item{Text: k.src[start : start+end], Pos: k.at(start)}, true
}

// list reads [a, b, …] of strings and numbers.
func (k *kwScanner) list() Value {
	k.i++ // [
	var v Value
	for {
		k.space()
		if k.i >= len(k.src) {
			v.Other = true
			return v
		}
		if k.src[k.i] == ']' {
			k.i++
			return v
		}
		e := k.value()
		if e.Other || len(e.Items) != 1 {
			v.Other = true
			return v
		}
		v.Items = append(v.Items, e.Items[0])
		k.space()
		if k.i < len(k.src) && k.src[k.i] == ',' {
			k.i++
		}
	}
}

// skipArg moves past the rest of the current argument: to after the next top-level comma.
func (k *kwScanner) skipArg() {
	depth := 0
	for k.i < len(k.src) {
		c := k.src[k.i]
		switch {
		case c == '\'' || c == '"':
			k.str()
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ',' && depth <= 0:
			k.i++
			return
		}
		k.i++
	}
}
