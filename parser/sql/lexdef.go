package sql

import (
	"io"
	"regexp"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar of DDL reads its tokens from scanLexer: the statement is tokenized
// by scan.go's hand-written scanner, which reads what lexer.go's rules read in one pass,
// instead of by those rules' regular expressions (a third of the time of a long CREATE
// TABLE went to them). Where the two could read a statement differently (a character no
// rule reads, a quote or comment left open, a non-ASCII name, a name that starts with a
// digit, a dollar-quoted body, a vertical tab), the statement is tokenized by the rules,
// so that every statement gets the tokens, positions and errors the rules give.

// scanLexer is a participle lexer.Definition over scanInto.
type scanLexer struct {
	rules *lexer.StatefulDefinition
	syms  map[string]lexer.TokenType
	types [tBad + 1]lexer.TokenType
	ws    lexer.TokenType
}

// numberRE and templateRE are lexer.go's Number and Template rules, anchored: a token scan
// reads as a number or template is given to the grammar only when the rule reads the same.
var (
	numberRE   = regexp.MustCompile(`\A(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?i:BD|[lsydfb])?`)
	templateRE = regexp.MustCompile(`\A` + templatePattern)
)

func newScanLexer() (*scanLexer, error) {
	rules, err := newLexer()
	if err != nil {
		return nil, err
	}
	l := &scanLexer{rules: rules, syms: rules.Symbols(), ws: rules.Symbols()["Whitespace"]}
	for k, name := range map[tkind]string{
		tIdent: "Ident", tQuoted: "Quoted", tString: "String", tNumber: "Number", tOp: "Op",
		tHint: "Hint", tTemplate: "Template",
	} {
		l.types[k] = l.syms[name]
	}
	return l, nil
}

// Symbols implements lexer.Definition.
func (l *scanLexer) Symbols() map[string]lexer.TokenType { return l.syms }

// Lex implements lexer.Definition.
func (l *scanLexer) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return l.LexString(filename, string(b))
}

// LexString implements lexer.StringDefinition.
func (l *scanLexer) LexString(filename, s string) (lexer.Lexer, error) {
	if toks, ok := l.tokens(filename, s); ok {
		return &tokenLexer{toks: toks}, nil
	}
	return l.rules.LexString(filename, s)
}

// tokens returns the tokens of s as the rules read them, or false when scan could read s
// differently. Each run of blanks and {% … %} tags is one elided Whitespace token, so that
// a node's EndPos (the position of the next token, elided or not) is what the rules give.
func (l *scanLexer) tokens(filename, s string) ([]lexer.Token, bool) {
	sc := scanInto(nil, s)
	out := make([]lexer.Token, 0, 2*len(sc))
	at := lexer.Position{Filename: filename, Line: 1, Column: 1}
	// at is the position of offset from; end is where the last token ended
	from, end := 0, 0
	emit := func(typ lexer.TokenType, off, to int) {
		at.Advance(s[from:off])
		out = append(out, lexer.Token{Type: typ, Value: s[off:to], Pos: at})
		from, end = off, to
	}
	for _, t := range sc {
		if t.off > end {
			if !blankRun(s[end:t.off]) {
				return nil, false
			}
			emit(l.ws, end, t.off)
		}
		if t.kind == tEOF {
			break
		}
		if !sameAsRules(s, t) {
			return nil, false
		}
		emit(l.types[t.kind], t.off, t.end)
	}
	at.Advance(s[from:])
	return append(out, lexer.EOFToken(at)), true
}

// blankRun reports whether s is what the rules read as Whitespace and TemplateTag tokens:
// blanks and closed {% … %} or {# … #} tags.
func blankRun(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
		case c == '{' && i+1 < len(s) && (s[i+1] == '%' || s[i+1] == '#'):
			k := strings.Index(s[i+2:], string(s[i+1])+"}")
			if k < 0 {
				return false
			}
			i += 2 + k + 1
		default:
			return false
		}
	}
	return true
}

// sameAsRules reports whether the rules read the token t of s as scan did.
func sameAsRules(s string, t token) bool {
	text := s[t.off:t.end]
	switch t.kind {
	case tIdent:
		if isDigit(text[0]) {
			return false
		}
		for i := 0; i < len(text); i++ {
			if c := text[i]; !isIdentStart(c) && !isDigit(c) {
				return false
			}
		}
		return true
	case tOp:
		return true
	case tString, tQuoted:
		// closed before the end of the statement (an open quote runs to the end)
		return t.end < len(s) && text[0] != '$'
	case tHint:
		return t.end-t.off >= 5 && strings.HasSuffix(text, "*/") && !strings.Contains(text[2:len(text)-2], "/*")
	case tNumber:
		m := numberRE.FindStringIndex(s[t.off:])
		return m != nil && m[1] == len(text)
	case tTemplate:
		m := templateRE.FindStringIndex(s[t.off:])
		return m != nil && m[1] == len(text)
	}
	return false
}

// tokenLexer hands out tokens read beforehand.
type tokenLexer struct {
	toks []lexer.Token
	i    int
}

// Next implements lexer.Lexer; past the end it repeats the EOF token.
func (l *tokenLexer) Next() (lexer.Token, error) {
	t := l.toks[l.i]
	if l.i < len(l.toks)-1 {
		l.i++
	}
	return t, nil
}
