package code

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNumber
	tString
	tOp
	// tNewline ends a statement: a line break outside brackets (Python: ( [ {; Scala: ( [).
	tNewline
)

// A token is one lexeme of Python or Scala; off and end are byte offsets into the text.
type token struct {
	kind tokKind
	off  int
	end  int
	text string
	lit  *strLit
}

// A lexer splits Python or Scala text into tokens, dropping comments and the line breaks
// that do not end a statement. It never fails: an unterminated string or comment ends at
// the end of the text (single-quoted strings at the end of their line).
type lexer struct {
	src   []byte
	scala bool
	i     int
	depth int
	toks  *tokStore
}

func lex(src []byte, scala bool) tokens {
	lx := &lexer{src: src, scala: scala, toks: newTokStore()}
	lx.run()
	return tokens{s: lx.toks, n: lx.toks.n, eof: len(src)}
}

// maxLexDepth is the bracket depth past which tokens are not kept: the parser stops at
// maxDepth, far above any bracket level it reads, so what is deeper only costs memory (15 MB
// of "(" would be 15 million tokens). The brackets at the boundary are kept, so the tokens
// stay balanced.
const maxLexDepth = 10 * maxDepth

func (lx *lexer) emit(k tokKind, off int, lit *strLit) {
	if lx.depth > maxLexDepth {
		return
	}
	if k == tString {
		lx.toks.addLit(off, lx.i, lit)
		return
	}
	lx.toks.add(k, off, lx.i, lx.toks.id(lx.src[off:lx.i]))
}

func (lx *lexer) newline(off int) {
	if k := lx.toks.last(); lx.toks.n == 0 || k == tNewline {
		return
	}
	end := min(off+1, len(lx.src))
	lx.toks.add(tNewline, off, end, 0)
}

func (lx *lexer) peek(k int) byte {
	if lx.i+k < len(lx.src) {
		return lx.src[lx.i+k]
	}
	return 0
}

func (lx *lexer) run() {
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		start := lx.i
		switch {
		case c == '\n':
			lx.i++
			if lx.depth == 0 {
				lx.newline(start)
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			lx.i++
		case c == '\\' && !lx.scala && (lx.peek(1) == '\n' || lx.peek(1) == '\r'):
			lx.i += 2
			if lx.peek(0) == '\n' {
				lx.i++
			}
		case c == '#' && !lx.scala:
			lx.skipLine()
		case c == '/' && lx.scala && lx.peek(1) == '/':
			lx.skipLine()
		case c == '/' && lx.scala && lx.peek(1) == '*':
			lx.skipBlockComment()
		case c == '"' || (c == '\'' && !lx.scala):
			lit := lx.lexString("", start)
			lx.emit(tString, start, lit)
		case c == '\'' && lx.scala:
			lx.lexQuote(start)
		case c == '`' && lx.scala:
			lx.i++
			for lx.i < len(lx.src) && lx.src[lx.i] != '`' && lx.src[lx.i] != '\n' {
				lx.i++
			}
			id := lx.toks.id(lx.src[start+1 : lx.i])
			if lx.i < len(lx.src) && lx.src[lx.i] == '`' {
				lx.i++
			}
			lx.toks.add(tIdent, start, lx.i, id)
		case isDigit(c) || (c == '.' && isDigit(lx.peek(1))):
			lx.lexNumber()
			lx.emit(tNumber, start, nil)
		case isIdentStart(c):
			lx.lexIdent(start)
		default:
			lx.lexOp(start)
		}
	}
	lx.newline(len(lx.src))
}

func (lx *lexer) skipLine() {
	for lx.i < len(lx.src) && lx.src[lx.i] != '\n' {
		lx.i++
	}
}

// skipBlockComment skips a Scala /* */ comment; Scala block comments nest.
func (lx *lexer) skipBlockComment() {
	lx.i += 2
	nest := 1
	for lx.i < len(lx.src) && nest > 0 {
		switch {
		case lx.src[lx.i] == '/' && lx.peek(1) == '*':
			nest++
			lx.i += 2
		case lx.src[lx.i] == '*' && lx.peek(1) == '/':
			nest--
			lx.i += 2
		default:
			lx.i++
		}
	}
}

func (lx *lexer) lexNumber() {
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		switch {
		case isDigit(c) || isLetter(c) || c == '_' || c == '.':
			lx.i++
		case (c == '+' || c == '-') && lx.i > 0 && (lx.src[lx.i-1] == 'e' || lx.src[lx.i-1] == 'E'):
			lx.i++
		default:
			return
		}
	}
}

func (lx *lexer) lexIdent(start int) {
	for lx.i < len(lx.src) && isIdentPart(lx.src[lx.i]) {
		lx.i++
	}
	id := lx.toks.id(lx.src[start:lx.i])
	word := lx.toks.texts[id]
	if lx.i < len(lx.src) {
		q := lx.src[lx.i]
		if (q == '"' || (q == '\'' && !lx.scala)) && lx.isStringPrefix(word) {
			lit := lx.lexString(word, start)
			lx.emit(tString, start, lit)
			return
		}
	}
	lx.toks.add(tIdent, start, lx.i, id)
}

// isStringPrefix reports whether word directly before a quote makes it a string prefix:
// Python's r, b, u, f and their pairs; in Scala any identifier (an interpolator).
func (lx *lexer) isStringPrefix(word string) bool {
	if lx.scala {
		return true
	}
	if len(word) > 2 {
		return false
	}
	for i := 0; i < len(word); i++ {
		switch word[i] {
		case 'r', 'R', 'b', 'B', 'u', 'U', 'f', 'F':
		default:
			return false
		}
	}
	return true
}

// lexQuote reads a Scala character literal ('a', '\n') or the quote of a symbol ('k).
func (lx *lexer) lexQuote(start int) {
	switch {
	case lx.peek(1) == '\\':
		lx.i += 2
		for lx.i < len(lx.src) && lx.src[lx.i] != '\'' && lx.src[lx.i] != '\n' {
			lx.i++
		}
		if lx.peek(0) == '\'' {
			lx.i++
		}
		lx.emit(tString, start, &strLit{parts: []strPart{{lit: string(lx.src[start:lx.i])}}})
	case lx.peek(2) == '\'' && lx.peek(1) != '\n':
		lx.i += 3
		lx.emit(tString, start, &strLit{parts: []strPart{{lit: string(lx.src[start+1 : start+2])}}, verbatim: true, contentOff: start + 1})
	default:
		lx.i++
		lx.emit(tOp, start, nil)
	}
}

func (lx *lexer) lexOp(start int) {
	c := lx.src[lx.i]
	n := opLen(lx.src[lx.i:], lx.scala)
	lx.i += n
	keep := lx.depth <= maxLexDepth // an opening bracket counts at its own level
	switch c {
	case '(', '[':
		lx.depth++
	case '{':
		if !lx.scala {
			lx.depth++
		}
	case ')', ']':
		if lx.depth > 0 {
			lx.depth--
		}
	case '}':
		if !lx.scala && lx.depth > 0 {
			lx.depth--
		}
	}
	if c == ')' || c == ']' || c == '}' {
		keep = lx.depth <= maxLexDepth // a closing one at the level it returns to
	}
	if keep {
		lx.toks.add(tOp, start, lx.i, lx.toks.opID(lx.src[start:lx.i]))
	}
}

// opLen is the length of the operator at the start of b (at least 1).
func opLen(b []byte, scala bool) int {
	if len(b) >= 3 {
		switch string(b[:3]) {
		case "===", "=!=", "<=>", "**=", "...", "//=", ">>=", "<<=":
			return 3
		}
	}
	if len(b) >= 2 {
		switch string(b[:2]) {
		case "==", "!=", "<=", ">=", "&&", "||", "=>", "->", "<-", "**", ":=", "+=", "-=", "*=",
			"/=", "::", "<<", ">>", "%=", "&=", "|=", "++":
			return 2
		case "//":
			if !scala {
				return 2
			}
		}
	}
	return 1
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdentStart(c byte) bool {
	return isLetter(c) || c == '_' || c >= 0x80
}
func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) }
