package sql

import (
	"slices"

	"github.com/alecthomas/participle/v2/lexer"
)

// CREATE TABLE's bracketed list of columns and table constraints, after SqlBaseParser.g4's
// createOrReplaceTableColTypeList (colDefinition: name, dataType, colDefinitionOption*) and
// tableConstraint, read by the hand-written parser for the participle grammar of CREATE
// TABLE: a table of tens of thousands of columns is read in linear time with one node per
// column, where participle's reflection took most of the statement's time.

// tableElements is the list.
type tableElements struct {
	list []*tableElement
}

// items returns the elements of l, none when l is nil.
func (l *tableElements) items() []*tableElement {
	if l == nil {
		return nil
	}
	return l.list
}

// tableElements reads ( element ( , element )* ).
func (p *rd) tableElements() []*tableElement {
	p.next()
	var out []*tableElement
	for p.err == nil {
		if p.startsConstraint() {
			out = append(out, &tableElement{Constraint: p.constraint()})
		} else {
			out = append(out, &tableElement{Column: p.columnDef()})
		}
		if !p.accept(",") {
			p.expect(")")
			break
		}
	}
	return out
}

// startsConstraint reports whether a table constraint starts here: [CONSTRAINT name]
// PRIMARY KEY | FOREIGN KEY | UNIQUE | CHECK. Anything else is a column, even one named
// CONSTRAINT or PRIMARY.
func (p *rd) startsConstraint() bool {
	k := 0
	if p.is("CONSTRAINT") && isName(p.ahead(1)) {
		k = 2
	}
	t := p.ahead(k)
	return isTok(t, "UNIQUE") || isTok(t, "CHECK") ||
		(isTok(t, "PRIMARY") || isTok(t, "FOREIGN")) && isTok(p.ahead(k+1), "KEY")
}

// constraint reads a table constraint, whose tokens are skipped up to the next comma or
// closing bracket at its level.
func (p *rd) constraint() *constraint {
	c := &constraint{}
	if p.accept("CONSTRAINT") {
		t := p.next()
		c.Name = &ident{Pos: lexer.Position{Offset: t.off}, Name: t.text}
	}
	c.Kind = p.next().text
	if isTok(p.tok(), "KEY") {
		c.Kind += p.next().text
	}
	for p.err == nil {
		switch t := p.tok(); {
		case isTok(t, "("):
			c.Rest = append(c.Rest, &skipTok{Group: p.skipGroup()})
		case t.kind == tEOF || isTok(t, ")") || isTok(t, ","):
			return c
		default:
			c.Rest = append(c.Rest, &skipTok{Tok: p.next().text})
		}
	}
	return c
}

// columnDef reads name type option*.
func (p *rd) columnDef() *columnDef {
	t := p.tok()
	if !isName(t) {
		p.fail("")
		return &columnDef{}
	}
	// The type carries the uses of the whole definition, IDENTIFIER('…') as its name too.
	n := len(p.uses)
	d := &columnDef{Pos: lexer.Position{Offset: t.off}, Name: t.text}
	if p.identLiteAt(0) {
		d.Name = p.identLite()
	} else {
		p.next()
	}
	if p.tok().kind != tIdent {
		p.fail("dataType ColumnOpt*") // as the grammar said it
		return d
	}
	d.Type = p.dataType()
	d.Type.uses = slices.Clone(p.uses[n:])
	for p.err == nil {
		o := p.columnOpt()
		if o == nil {
			break
		}
		d.Opts = append(d.Opts, o)
	}
	return d
}

// columnOpt reads one option of a column (colDefinitionOption): NOT NULL, COMMENT 'text',
// DEFAULT expression, GENERATED …, COLLATE name, PRIMARY KEY or UNIQUE; nil when none comes.
func (p *rd) columnOpt() *columnOpt {
	o := &columnOpt{}
	switch {
	case p.acceptSeq("NOT", "NULL"):
		o.NotNull = true
	case p.accept("COMMENT"):
		if p.tok().kind != tString {
			p.fail("<string>")
			return nil
		}
		s := p.next().text
		o.Comment = &s
	case p.accept("DEFAULT"):
		if t := p.tok(); t.kind == tEOF || isTok(t, ",") || isTok(t, ")") {
			p.fail("expr")
			return nil
		}
		n := len(p.uses)
		o.Default = p.expression()
		p.uses = p.uses[:n] // the grammar checks a default's version by its DEFAULT alone
	case p.is("GENERATED"):
		o.Generated = p.generated()
	case p.accept("COLLATE"):
		if t := p.tok(); t.kind != tIdent && t.kind != tString {
			p.fail("")
			return nil
		}
		o.Collate = p.next().text
	case p.at("PRIMARY", "KEY"):
		o.Key = p.next().text + p.next().text
	case p.is("UNIQUE"):
		o.Key = p.next().text
	default:
		return nil
	}
	return o
}

// generated reads GENERATED ALWAYS|BY DEFAULT AS [IDENTITY] [(…)].
func (p *rd) generated() *generated {
	g := &generated{Pos: lexer.Position{Offset: p.next().off}}
	if !p.accept("ALWAYS") && !p.acceptSeq("BY", "DEFAULT") {
		p.fail("")
		return g
	}
	if p.expect("AS") {
		g.Identity = p.accept("IDENTITY")
	}
	if p.err == nil && p.is("(") {
		g.Args = p.skipGroup()
	}
	return g
}
