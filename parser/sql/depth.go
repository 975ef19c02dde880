package sql

import (
	"strconv"
	"strings"
)

// maxNesting bounds how deeply a statement may nest brackets, CASE … END and lambdas before
// it is parsed. The grammar engine recurses for every level, and a statement nested tens of
// thousands deep would exhaust the stack, which no recover catches; Spark's own parser gives
// up on such input too.
const maxNesting = 256

// brackets finds what keeps s from being parsed before its grammar runs, in one pass over
// it: first a bracket without its partner (unbalanced), then nesting deeper than maxNesting
// outside quotes and templates, where open brackets, open CASEs and the lambda arrows of
// each bracket level (an arrow's body nests until the next comma or closing bracket) count
// one level each. It returns the offset and a message, or -1.
func brackets(s string) (int, string) {
	// open holds the offsets of the open brackets, arrows the lambda arrows per open bracket
	// level, the statement's own first; most statements fit in the arrays on the stack
	var openBuf, arrowBuf [32]int
	open, arrows := openBuf[:0], append(arrowBuf[:0], 0)
	sum, cases, deep := 0, 0, -1
	for i := 0; i < len(s); {
		c := s[i]
		if bracketPlain[c] {
			// changes no count: the depth it is at was checked where it last changed
			i++
			continue
		}
		if opaqueStart(c) {
			if j, ok := skipOpaque(s, i); ok {
				i = j
				continue
			}
		}
		switch {
		case c == '(' || c == '[':
			open = append(open, i)
			arrows = append(arrows, 0)
		case c == ')' || c == ']':
			want := byte('(')
			if c == ']' {
				want = '['
			}
			if len(open) == 0 || s[open[len(open)-1]] != want {
				return i, "unexpected " + string(c)
			}
			open = open[:len(open)-1]
			sum -= arrows[len(arrows)-1]
			arrows = arrows[:len(arrows)-1]
		case c == ',':
			sum -= arrows[len(arrows)-1]
			arrows[len(arrows)-1] = 0
		case c == '-' && i+1 < len(s) && s[i+1] == '>':
			arrows[len(arrows)-1]++
			sum++
		case isIdentStart(c):
			j := i
			for j < len(s) && identByte[s[j]] {
				j++
			}
			switch w := s[i:j]; {
			case len(w) == 4 && foldEq(w, "case"):
				cases++
			case len(w) == 3 && foldEq(w, "end") && cases > 0:
				cases--
			}
			if deep < 0 && len(arrows)-1+cases+sum > maxNesting {
				deep = i
			}
			i = j
			continue
		}
		if deep < 0 && len(arrows)-1+cases+sum > maxNesting {
			deep = i
		}
		i++
	}
	switch {
	case len(open) > 0:
		return open[len(open)-1], "unclosed " + string(s[open[len(open)-1]])
	case deep >= 0:
		return deep, "nesting deeper than " + strconv.Itoa(maxNesting) + " levels (brackets, CASE, lambdas) is not read"
	}
	return -1, ""
}

// bracketPlain marks the bytes brackets steps over: none opens or closes a bracket, a quote,
// a template, a lambda arrow or a word.
var bracketPlain = func() (t [256]bool) { //nolint:gochecknoglobals // a constant table
	for c := range 256 {
		b := byte(c)
		t[c] = !opaqueStart(b) && !isIdentStart(b) && !strings.ContainsRune("([)],-", rune(b))
	}
	return t
}()

// identByte marks the bytes of a word after its first: isIdentStart's and digits.
var identByte = func() (t [256]bool) { //nolint:gochecknoglobals // a constant table
	for c := range 256 {
		t[c] = isIdentStart(byte(c)) || isDigit(byte(c))
	}
	return t
}()
