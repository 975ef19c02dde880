package sql

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar of DDL (grammar_ddl.go, grammar_stmt.go) reaches queries and
// expressions (CREATE TABLE … AS query, a view's query, a column's DEFAULT, a hint's
// arguments) through these Parse methods, which hand the tokens to the hand-written parser:
// queries and expressions have one grammar, rd's.

// kindOf returns the scan kind of a token the participle lexer read, from its text.
func kindOf(v string) tkind {
	switch c := v[0]; {
	case strings.HasPrefix(v, "/*+"):
		return tHint
	case len(v) > 1 && c != '`' && c != '\'' && c != '"' && strings.ContainsRune(v, '{'):
		return tTemplate
	case c == '\'' || c == '"' || (c == 'r' || c == 'R') && len(v) > 1 && (v[1] == '\'' || v[1] == '"'):
		return tString
	case c == '`':
		return tQuoted
	case isDigit(c) || c == '.' && len(v) > 1:
		return tNumber
	case isIdentStart(c):
		return tIdent
	}
	return tOp
}

// bridge collects the tokens ahead of lex (up to a top-level "," or unmatched ")" when
// oneExpr), without consuming them. A multi-character operator the participle lexer reads
// as one token that scan reads as several is split the same way.
func bridge(lex *lexer.PeekingLexer, oneExpr, angles bool) *rd {
	return bridgeUntil(lex, oneExpr, angles, nil)
}

// bridgeUntil is bridge that also stops once enough reports that the tokens collected are
// all the reader can look at: a name's reader does not need the rest of the statement.
func bridgeUntil(lex *lexer.PeekingLexer, oneExpr, angles bool, enough func([]token, int) bool) *rd {
	cp := lex.MakeCheckpoint()
	defer lex.LoadCheckpoint(cp)
	var toks []token
	depth := 0
	for {
		t := lex.Next()
		if t.EOF() {
			break
		}
		if t.Value == "" {
			continue
		}
		k := kindOf(t.Value)
		if oneExpr && k == tOp {
			switch t.Value {
			case "(", "[":
				depth++
			case ")", "]":
				depth--
			case "<":
				if angles {
					depth++
				}
			case ">":
				if angles {
					depth--
				}
			}
			if depth < 0 || depth == 0 && t.Value == "," {
				break
			}
		}
		toks = append(toks, token{kind: k, text: t.Value, off: t.Pos.Offset, end: t.Pos.Offset + len(t.Value)})
		if enough != nil && enough(toks, depth) {
			break
		}
	}
	end := 0
	if n := len(toks); n > 0 {
		end = toks[n-1].end
	}
	return &rd{toks: append(toks, token{kind: tEOF, off: end, end: end})}
}

// consume advances lex past the n tokens rd read.
func consume(lex *lexer.PeekingLexer, n int) {
	for range n {
		lex.Next()
	}
}

// Parse implements participle.Parseable: a query where the DDL grammar has one.
func (q *queryStmt) Parse(lex *lexer.PeekingLexer) error {
	p := bridge(lex, false, false)
	if !p.startsStatementQuery() {
		return participle.NextMatch
	}
	*q = *p.queryStmt()
	q.uses = p.uses
	if p.err != nil {
		return participle.Errorf(lexer.Position{Offset: p.err.off}, "%s", p.err.msg)
	}
	consume(lex, p.i)
	return nil
}

// Parse implements participle.Parseable: an expression where the DDL grammar has one.
func (e *expr) Parse(lex *lexer.PeekingLexer) error {
	p := bridge(lex, true, false)
	if t := p.tok(); t.kind == tEOF || isTok(t, ",") || isTok(t, ")") {
		return participle.NextMatch
	}
	*e = *p.expression()
	if p.err != nil {
		return participle.Errorf(lexer.Position{Offset: p.err.off}, "%s", p.err.msg)
	}
	consume(lex, p.i)
	return nil
}

// nameRead reports whether toks hold every token qname can look at (rd_types.go), the one
// it stops at included: IDENTIFIER(…) and the token after it, or name parts (a name or
// IDENTIFIER('…')) joined by dots and the token after them; depth is the bracket depth after
// the last token.
func nameRead(toks []token, depth int) bool {
	if isTok(toks[0], "IDENTIFIER") && (len(toks) == 1 || isTok(toks[1], "(")) {
		if len(toks) <= 2 || depth != 0 || isTok(toks[len(toks)-1], ")") {
			return false
		}
		if len(toks) < 5 || toks[2].kind != tString || !isTok(toks[3], ")") || !isTok(toks[4], ".") {
			return true
		}
		return partsRead(toks, 4)
	}
	return partsRead(toks, 1)
}

// partsRead reports whether toks hold the rest of a qualified name from j, just after a part.
func partsRead(toks []token, j int) bool {
	n := len(toks)
	for {
		switch {
		case j >= n:
			return false
		case !isTok(toks[j], "."):
			return true
		case j+1 >= n:
			return false
		case !isName(toks[j+1]):
			return true
		}
		j++
		if !isTok(toks[j], "IDENTIFIER") {
			j++
			continue
		}
		if j+3 >= n {
			return false
		}
		if !isTok(toks[j+1], "(") {
			j++
			continue
		}
		if toks[j+2].kind != tString || !isTok(toks[j+3], ")") {
			return true
		}
		j += 4
	}
}

// Parse implements participle.Parseable: a (qualified) name or IDENTIFIER(…) where the DDL
// grammar has one.
func (q *qname) Parse(lex *lexer.PeekingLexer) error {
	p := bridgeUntil(lex, true, false, nameRead)
	if !isName(p.tok()) {
		return participle.NextMatch
	}
	*q = *p.qname()
	if p.err != nil {
		return participle.Errorf(lexer.Position{Offset: p.err.off}, "%s", p.err.msg)
	}
	consume(lex, p.i)
	return nil
}

// Parse implements participle.Parseable: a type where the DDL grammar has one.
func (t *dataType) Parse(lex *lexer.PeekingLexer) error {
	p := bridge(lex, true, true)
	if p.tok().kind != tIdent {
		return participle.NextMatch
	}
	*t = *p.dataType()
	t.uses = p.uses
	if p.err != nil {
		return participle.Errorf(lexer.Position{Offset: p.err.off}, "%s", p.err.msg)
	}
	consume(lex, p.i)
	return nil
}
