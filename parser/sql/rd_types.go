package sql

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// Names and types, after SqlBaseParser.g4's multipartIdentifier, identifierReference
// (IDENTIFIER(…)) and dataType (primitive types with parameters, interval types with their
// fields, ARRAY<…>, MAP<…, …>, STRUCT<…> with NOT NULL and COMMENT, COLLATE).

// qname reads a possibly qualified name, or IDENTIFIER(expr). From 4.1 a part may be
// IDENTIFIER('…') of one string (identifier-lite): IDENTIFIER('s').t, s.IDENTIFIER('t').
func (p *rd) qname() *qname { return p.qnameIn(false) }

// qnameExpr reads a name where an expression stands: IDENTIFIER('…').c is then the field c
// of the column IDENTIFIER('…') names (pyspark 4.0.5 accepts it), not a qualified name.
func (p *rd) qnameExpr() *qname { return p.qnameIn(true) }

func (p *rd) qnameIn(expr bool) *qname {
	b := node(p, func(n *nodeSlabs) *slab[qnameBlock] { return &n.names })
	q := &b.q
	q.Pos = p.pos()
	if p.is("IDENTIFIER") && isTok(p.ahead(1), "(") && (expr || !p.identLiteAt(0) || !isTok(p.ahead(4), ".")) {
		p.i += 2
		if p.tok().kind == tString && isTok(p.ahead(1), ")") {
			t := p.next()
			s := t.text
			q.Ident = &s
			if msg := identString(unquoteString(s)); msg != "" {
				// Only Spark's 4.1 development snapshot checks the string in its parser;
				// the releases leave it to the analyzer (pyspark 4.0.5-4.3.0), but for an
				// empty object name from 4.2 (PARSE_EMPTY_STATEMENT; a column's is still
				// accepted).
				p.use(featIdentifierString, t.off)
				if !expr && strings.TrimSpace(unquoteString(s)) == "" {
					p.use(featIdentifierEmptyName, t.off)
				}
			}
		} else {
			from := p.i
			q.identX = p.expression()
			if s, ok := constString(q.identX); ok {
				q.Ident = &s
			} else {
				// The name is an expression of variables: not known before run time, so it
				// is kept as a template is.
				q.Parts = []string{"{{IDENTIFIER(" + joinToks(p.toks[from:p.i]) + ")}}"}
			}
		}
		p.expect(")")
		q.EndPos = p.endPos()
		return q
	}
	if !isName(p.tok()) {
		p.fail("a name")
		return q
	}
	q.Parts = b.parts[:0]
	if p.identLiteAt(0) {
		q.Parts = append(q.Parts, p.identLiteParts()...)
	} else {
		q.Parts = append(q.Parts, p.next().text)
	}
	for p.is(".") && isName(p.ahead(1)) {
		p.next()
		switch {
		case p.identLiteAt(0):
			q.Parts = append(q.Parts, p.identLiteParts()...)
		case p.is("IDENTIFIER") && isTok(p.ahead(1), "("):
			p.fail("a name: IDENTIFIER(…) after a qualifier takes one string")
			q.Parts = q.Parts[:len(q.Parts):len(q.Parts)]
			return q
		default:
			q.Parts = append(q.Parts, p.next().text)
		}
	}
	q.Parts = q.Parts[:len(q.Parts):len(q.Parts)] // an append elsewhere copies
	q.EndPos = p.endPos()
	return q
}

// qnameBlock is a name with room for two parts (t, db.t, alias.column), allocated together.
type qnameBlock struct {
	q     qname
	parts [2]string
}

// constString folds an IDENTIFIER argument made of string literals joined by || into one
// quoted string literal, as Spark evaluates it; false when it is anything else.
func constString(e *expr) (string, bool) {
	if len(e.Or) != 1 || len(e.Or[0].And) != 1 {
		return "", false
	}
	c := e.Or[0].And[0]
	if c.Not || c.RHS != nil {
		return "", false
	}
	var b strings.Builder
	part := func(u *unary) bool {
		if len(u.Sign) > 0 || len(u.Postfix) > 0 || u.Primary.Str == nil {
			return false
		}
		for _, s := range u.Primary.Str {
			b.WriteString(unquoteString(s))
		}
		return true
	}
	if !part(c.Left.Left) {
		return "", false
	}
	for _, o := range c.Left.Rest {
		if o.Op != "||" || !part(o.Right) {
			return "", false
		}
	}
	return "'" + strings.ReplaceAll(b.String(), "'", "\\'") + "'", true
}

// joinToks joins tokens' text with single blanks.
func joinToks(toks []token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.text
	}
	return strings.Join(parts, " ")
}

// ident reads one name part, IDENTIFIER('…') included (4.1).
func (p *rd) ident() *ident {
	if p.identLiteAt(0) {
		off := p.tok().off
		return &ident{Pos: lexer.Position{Offset: off}, Name: p.identLite()}
	}
	if !isName(p.tok()) {
		p.fail("a name")
		return &ident{Pos: lexer.Position{Offset: p.pos().Offset}}
	}
	t := p.next()
	return &ident{Pos: lexer.Position{Offset: t.off}, Name: t.text}
}

// identLiteAt reports whether IDENTIFIER('…') of one string starts k tokens ahead.
func (p *rd) identLiteAt(k int) bool {
	return isTok(p.ahead(k), "IDENTIFIER") && isTok(p.ahead(k+1), "(") && p.ahead(k+2).kind == tString && isTok(p.ahead(k+3), ")")
}

// identLite reads IDENTIFIER('…') where the grammar takes one name (a column or CTE name, a
// window, a field: Spark 4.1's identifier-lite; pyspark 4.0.5 rejects each) and returns it;
// a string of a qualified name is an error there (4.1.4: IDENTIFIER_TOO_MANY_NAME_PARTS).
func (p *rd) identLite() string {
	at := p.tok().off
	parts := p.identLiteParts()
	if len(parts) > 1 {
		p.failAt(at, "IDENTIFIER('"+strings.Join(parts, ".")+"') names "+strconv.Itoa(len(parts))+" parts where one name stands")
	}
	return parts[0]
}

// identLiteParts reads IDENTIFIER('…') as the parts of a qualified name (s.IDENTIFIER('t'),
// 4.1) and returns them; a string that is not a dotted name is one part, backquoted.
func (p *rd) identLiteParts() []string {
	p.use(featIdentifierLite, p.tok().off)
	p.i += 2
	s := unquoteString(p.next().text)
	p.next()
	if identString(s) != "" {
		return []string{"`" + strings.ReplaceAll(s, "`", "``") + "`"}
	}
	var parts []string
	for {
		end := strings.IndexByte(s, '.')
		if s[0] == '`' {
			end = closingBacktick(s) + 1
		}
		if end < 0 || end >= len(s) {
			return append(parts, s)
		}
		parts, s = append(parts, s[:end]), s[end+1:]
	}
}

// identList reads ( name, … ).
func (p *rd) identList() []*ident {
	var out []*ident
	p.expect("(")
	for p.err == nil {
		out = append(out, p.ident())
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
	return out
}

// dataType reads a type.
func (p *rd) dataType() *dataType {
	if !p.enter() {
		return &dataType{}
	}
	defer p.leave()
	t := &dataType{}
	if p.tok().kind != tIdent {
		p.fail("a type")
		return t
	}
	nameTok := p.next()
	t.Name = nameTok.text
	p.checkType(nameTok)
	switch {
	case isTok(nameTok, "VARIANT"):
		p.use(featVariant, nameTok.off)
	case isTok(nameTok, "TIME"):
		p.use(featTime, nameTok.off)
	case isTok(nameTok, "TIMESTAMP_NTZ") || isTok(nameTok, "TIMESTAMP_LTZ"):
		p.use(featTimestampNTZ, nameTok.off)
	}
	switch {
	case strings.EqualFold(t.Name, "INTERVAL"):
		if isUnit(p.tok()) {
			p.use(featIntervalType, nameTok.off)
			t.unit = append(t.unit, p.next().text)
			if p.is("TO") && isUnit(p.ahead(1)) {
				t.unit = append(t.unit, p.next().text, p.next().text)
			}
		}
		return t
	case p.is("("):
		p.next()
		for p.err == nil {
			if k := p.tok().kind; k != tNumber && k != tIdent {
				p.fail("a type parameter")
				return t
			}
			t.Params = append(t.Params, p.next().text)
			if !p.accept(",") {
				break
			}
		}
		p.expect(")")
	case p.is("<>"):
		p.next()
		t.Args = []*typeArg{}
	case p.is("<"):
		p.next()
		t.Args = p.typeArgs(t.Name)
		p.closeAngle()
	}
	if p.is("COLLATE") && isName(p.ahead(1)) {
		p.use(featCollate, p.next().off)
		t.collate = p.collation()
	}
	return t
}

// collation reads the name after COLLATE; a trimming collation (UTF8_LCASE_RTRIM, …) needs
// 4.1 (pyspark 4.0.5 rejects it: TRIM_COLLATION).
func (p *rd) collation() string {
	t := p.next()
	if trimCollation(t.text) {
		p.use(featTrimCollation, t.off)
	}
	return t.text
}

// trimCollations records the trimming collations among toks, a clause kept as tokens
// (WITHIN GROUP's ORDER BY).
func (p *rd) trimCollations(toks []token) {
	for i := 0; i+1 < len(toks); i++ {
		if isTok(toks[i], "COLLATE") && isName(toks[i+1]) && trimCollation(toks[i+1].text) {
			p.use(featTrimCollation, toks[i+1].off)
		}
	}
}

// trimCollation reports whether a collation name ends in _RTRIM.
func trimCollation(name string) bool {
	name = strings.Trim(name, "`")
	return len(name) > len("_rtrim") && strings.EqualFold(name[len(name)-len("_rtrim"):], "_rtrim")
}

// typeArgs reads the elements between < and >: types, or struct fields name[:] type
// [NOT NULL] [COMMENT '…'].
func (p *rd) typeArgs(name string) []*typeArg {
	var out []*typeArg
	isStruct := strings.EqualFold(name, "STRUCT")
	if isStruct && p.is(">") {
		return []*typeArg{}
	}
	for p.err == nil {
		a := &typeArg{}
		if isStruct {
			if !isName(p.tok()) {
				p.fail("a field name")
				return out
			}
			a.Field = p.next().text
			p.accept(":")
		}
		a.Type = p.dataType()
		if p.acceptSeq("NOT", "NULL") {
			a.NotNull = true
		}
		if p.accept("COMMENT") {
			if p.tok().kind != tString {
				p.fail("a string")
				return out
			}
			a.Comment = p.next().text
		}
		out = append(out, a)
		if !p.accept(",") {
			break
		}
	}
	return out
}

// closeAngle consumes the > that closes a type's arguments; a >= or >> token is not one,
// since the tokenizer keeps > single.
func (p *rd) closeAngle() {
	p.expect(">")
}

// identString checks the string of IDENTIFIER('…'): a dotted name whose parts are plain
// names or backquoted; it returns what is wrong, or "".
func identString(s string) string {
	if strings.TrimSpace(s) == "" {
		return "the name is empty"
	}
	for s != "" {
		var part string
		if s[0] == '`' {
			end := closingBacktick(s)
			if end < 0 {
				return "an unclosed backquote"
			}
			part, s = s[:end+1], s[end+1:]
		} else {
			i := strings.IndexByte(s, '.')
			if i < 0 {
				i = len(s)
			}
			part, s = s[:i], s[i:]
			for j := 0; j < len(part); j++ {
				if !isIdentStart(part[j]) && !isDigit(part[j]) || part[j] == '$' {
					return strconv.Quote(part) + " is not a name; quote it with backquotes"
				}
			}
		}
		if part == "" {
			return "an empty name part"
		}
		if s != "" {
			if s[0] != '.' {
				return "names are joined by dots"
			}
			s = s[1:]
		}
	}
	return ""
}

// closingBacktick returns the index of the backquote closing the name s starts with (a
// doubled backquote is part of the name), or -1.
func closingBacktick(s string) int {
	for i := 1; i < len(s); i++ {
		if s[i] == '`' {
			if i+1 < len(s) && s[i+1] == '`' {
				i++
				continue
			}
			return i
		}
	}
	return -1
}
