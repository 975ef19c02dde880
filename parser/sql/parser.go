package sql

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// A Parser reads SQL files. It holds the compiled grammar; build it once with New and use it
// from any number of goroutines.
type Parser struct {
	alter *participle.Parser[alterTable]
	hint  *participle.Parser[hintBody]
	spec  *participle.Parser[tableSpec]
	// transform reads the partition transforms DESCRIBE prints.
	transform *participle.Parser[transform]
	// opts are the Spark version whose syntax counts (WithOptions).
	opts Options
}

// lookahead is how many tokens an alternative may consume before its failure is final.
const lookahead = 4

// New compiles the grammar.
func New() (*Parser, error) {
	opts, err := grammarOptions()
	if err != nil {
		return nil, err
	}
	p := &Parser{}
	if p.alter, err = participle.Build[alterTable](opts...); err != nil {
		return nil, fmt.Errorf("internal error: sql grammar: %w", err)
	}
	if p.hint, err = participle.Build[hintBody](opts...); err != nil {
		return nil, fmt.Errorf("internal error: sql grammar: %w", err)
	}
	if p.spec, err = participle.Build[tableSpec](opts...); err != nil {
		return nil, fmt.Errorf("internal error: sql grammar: %w", err)
	}
	if p.transform, err = participle.Build[transform](opts...); err != nil {
		return nil, fmt.Errorf("internal error: sql grammar: %w", err)
	}
	return p, nil
}

// grammarOptions are the participle grammar's options: the lexer and how tokens match.
func grammarOptions() ([]participle.Option, error) {
	lex, err := newScanLexer()
	if err != nil {
		return nil, fmt.Errorf("internal error: sql lexer: %w", err)
	}
	return []participle.Option{
		participle.Lexer(lex),
		participle.Elide("Whitespace", "Comment", "TemplateTag"),
		participle.CaseInsensitive("Ident"),
		// A bounded lookahead makes a branch that fails after this many tokens an error
		// instead of a reason to try the next alternative: parsing stays linear and the
		// error points where the statement went wrong. The grammar guards alternatives
		// that share a long prefix with lookahead groups.
		participle.UseLookahead(lookahead),
	}, nil
}

// ParseFile parses every statement of a SQL file. A statement with a syntax error is
// reported at its position and skipped; the others are still read. ParseFile never panics:
// a panic inside the grammar engine becomes an error at the statement.
func (p *Parser) ParseFile(file string, src []byte) (*File, perr.List) {
	return p.ParseSession(file, src, "")
}

// ParseSession is ParseFile for one of several SQL texts run by the same Spark session (the
// spark.sql strings of a program, the SQL cells of a notebook): db is the database a USE in
// an earlier text made current ("" for none), which qualifies unqualified names until the
// text's own USE; File.Database is the one current at the end.
func (p *Parser) ParseSession(file string, src []byte, db string) (*File, perr.List) {
	text := string(src)
	st := &state{p: p, f: &File{Name: file}, lines: newLineIndex(file, text), db: db, legacyBang: p.opts.LegacyBangNot}
	if p.opts.refuses(featNestedComment, false) != "" {
		// Before 3.1 a comment ends at its first */.
		if flat := flatComments(text); flat != text {
			st.nested, text = text, flat
		}
	}
	for _, c := range split(text) {
		st.statement(c)
	}
	st.f.Database = st.db
	st.errs.Sort()
	return st.f, st.errs
}

// state is one ParseFile call's progress.
type state struct {
	p     *Parser
	f     *File
	lines lineIndex
	errs  perr.List
	// db is the database of the last USE, which qualifies later unqualified names.
	db string
	// buf holds the tokens of the statement being read (tokens) and the parser's buffers.
	buf scratch
	// nodes allocates the nodes of the expression trees built (tree.go).
	nodes xChunks
	// toksOf is the text buf.toks were scanned from.
	toksOf string
	// dqIdent is spark.sql.ansi.doubleQuotedIdentifiers set true by an earlier SET: "x" is
	// a name, not a string. noBinding is spark.sql.legacy.viewSchemaBindingMode set false:
	// a view has no WITH SCHEMA clause.
	dqIdent, noBinding bool
	// legacyBang is spark.sql.legacy.bangEqualsNot set true: ! may stand for NOT before IN,
	// BETWEEN, LIKE and NULL in 4.x too.
	legacyBang bool
	// ansi is spark.sql.ansi.enabled as an earlier SET gave it: 1 true, -1 false, 0 not set
	// (the release's default: on from 4.0).
	ansi int8
	// nested is the text before flatComments, when the configured release ends a comment at
	// its first */ and a comment holds another ("" otherwise).
	nested string
}

// dqIdentifiers reports whether "x" is a name: spark.sql.ansi.doubleQuotedIdentifiers takes
// effect only under ANSI mode, which is on by default from Spark 4.0 (recorded: pyspark 3.5.9
// reads SELECT 1 FROM "t" under that setting alone as a string, 4.0.5 as a name).
func (st *state) dqIdentifiers() bool {
	if !st.dqIdent || st.ansi < 0 {
		return false
	}
	v := st.p.opts.Spark
	return st.ansi > 0 || v.IsZero() || st.p.opts.SparkDefault || !v.Before(Version{4, 0})
}

// statement parses one chunk, recovering from grammar panics.
func (st *state) statement(c chunk) {
	defer func() {
		if r := recover(); r != nil {
			st.errs.Add(st.lines.pos(c.offset+leadingSpace(c.text)), "internal error: sql parser: %v", r)
		}
	}()
	defer st.buf.release()
	if st.dqIdentifiers() {
		c.text = quotesToBackticks(c.text)
	}
	var wordBuf [6]string
	words := appendLeadingWords(wordBuf[:0], c.text, len(wordBuf))
	start := c.offset + leadingSpace(c.text)
	kind := classify(words)
	if off, msg := st.precheck(c, kind); off >= 0 {
		st.errs.Add(st.lines.pos(c.offset+off), "%s", msg)
		return
	}
	switch kind {
	case stmtSet:
		st.set(c, start)
	case stmtUse:
		st.use(c)
	case stmtCreate:
		if ast, err := st.parser(c.text).createTable(); err != nil {
			st.errs.Add(st.lines.pos(c.offset+err.off), "%s", shorten(err.msg))
		} else if st.versionOK(c, createUses(ast)) {
			st.createTable(ast, c)
		}
	case stmtAlter:
		if ast, err := st.p.alter.ParseString(st.f.Name, c.text); err != nil {
			st.fail(c, err)
		} else if st.versionOK(c, alterUses(ast)) {
			st.alterTable(ast, c)
		}
	case stmtDrop:
		if ast, err := st.parser(c.text).dropTable(); err != nil {
			st.errs.Add(st.lines.pos(c.offset+err.off), "%s", shorten(err.msg))
		} else {
			st.change(Change{Kind: ChangeDrop, Table: st.name(ast.Name)}, c, ast.Pos)
		}
	case stmtAnalyze:
		if ast, err := st.parser(c.text).analyzeTable(); err != nil {
			st.errs.Add(st.lines.pos(c.offset+err.off), "%s", shorten(err.msg))
		} else {
			st.change(Change{Kind: ChangeAnalyze, Table: st.name(ast.Name)}, c, ast.Pos)
		}
	case stmtCache:
		if ast, err := st.parser(c.text).cacheTable(); err != nil {
			st.errs.Add(st.lines.pos(c.offset+err.off), "%s", shorten(err.msg))
		} else if st.versionOK(c, queryUses(ast.As)) {
			st.cacheTable(ast, c)
		}
	case stmtQuery:
		p := st.parser(c.text)
		if ast, err := p.query(); err != nil {
			st.errs.Add(st.lines.pos(c.offset+err.off), "%s", shorten(err.msg))
		} else if st.versionOK(c, p.uses) {
			st.f.Queries = append(st.f.Queries, st.buildQuery(ast, c))
		}
	case stmtView:
		st.view(c, start)
	default:
		st.f.Other = append(st.f.Other, Statement{Pos: st.lines.pos(start), Text: strings.TrimSpace(c.text)})
	}
}

// parser returns a statement parser over the tokens of text, which is scanned once however
// many parsers read it (the checks of precheck, then the query parser).
func (st *state) parser(text string) *rd {
	if st.toksOf != text || st.buf.toks == nil {
		st.buf.tokens(text)
		st.toksOf = text
	}
	return st.buf.parser(st.buf.toks)
}

// view reads CREATE VIEW: a view with a query is a query that defines it.
func (st *state) view(c chunk, start int) {
	ast, err := st.parser(c.text).createView()
	switch {
	case err != nil:
		st.errs.Add(st.lines.pos(c.offset+err.off), "%s", shorten(err.msg))
	case !st.versionOK(c, queryUses(ast.Query)):
	case ast.Query == nil:
		st.f.Other = append(st.f.Other, Statement{Pos: st.lines.pos(start), Text: strings.TrimSpace(c.text)})
	default:
		q := st.buildQuery(ast.Query, c)
		q.Target, q.View, q.Temp = st.name(ast.Name), true, ast.Temp
		q.ViewColumns = viewColumns(ast.Cols)
		st.f.Queries = append(st.f.Queries, q)
	}
}

// precheck finds what makes a statement unreadable before its grammar runs: an unclosed
// comment, unbalanced or too deep brackets, and the forms of statements bucketlint does not
// model that Spark rejects. It returns the offset in the chunk and a message, or -1.
func (st *state) precheck(c chunk, kind stmtKind) (int, string) {
	if off := unclosedComment(c.raw); off >= 0 {
		return off, "unclosed /* comment"
	}
	if st.nested != "" {
		// The statement is read as that release reads it; when that fails, the nested
		// comment is the likely cause, and the error says so.
		// A */ left over after the first one ended the comment is always an error.
		if off := nestedComment(st.nested[c.offset : c.offset+len(c.raw)]); off >= 0 && (strayClose(c.text) || !st.parsesAlone(c)) {
			return off, st.p.opts.refuses(featNestedComment, false)
		}
	}
	if kind >= stmtCreate {
		if off, msg := brackets(c.text); off >= 0 {
			return off, msg
		}
	}
	if off, msg := st.checkStatement(kind, c.text); off >= 0 {
		return off, msg
	}
	return -1, ""
}

// parsesAlone reports whether chunk c parses without error with the settings in force.
func (st *state) parsesAlone(c chunk) bool {
	sub := &state{
		p: st.p, f: &File{Name: st.f.Name}, lines: st.lines, db: st.db, dqIdent: st.dqIdent,
		noBinding: st.noBinding, legacyBang: st.legacyBang, ansi: st.ansi,
	}
	sub.statement(c)
	return len(sub.errs) == 0
}

// fail records a participle error at its position in the file.
func (st *state) fail(c chunk, err error) {
	var pe participle.Error
	if errors.As(err, &pe) {
		st.errs.Add(st.lines.pos(c.offset+pe.Position().Offset), "%s", shorten(pe.Message()))
		return
	}
	st.errs.Add(st.lines.pos(c.offset+leadingSpace(c.text)), "%s", err.Error())
}

// at returns the file position of a participle position inside chunk c.
func (st *state) at(c chunk, p pos) plan.Pos {
	return st.lines.pos(c.offset + p.Offset)
}

// span returns the file span of [from, to) inside chunk c.
func (st *state) span(c chunk, from, to pos) plan.Span {
	return plan.Span{Start: st.at(c, from), End: st.at(c, to)}
}

// text returns the source of [from, to) inside chunk c.
func text(c chunk, from, to pos) string {
	if from.Offset < 0 || to.Offset > len(c.text) || from.Offset > to.Offset {
		return ""
	}
	return strings.TrimSpace(c.text[from.Offset:to.Offset])
}

// shorten trims participle's list of expected productions when it is too long to help, and
// names the end of the statement.
func shorten(msg string) string {
	msg = strings.ReplaceAll(msg, `"<EOF>"`, "end of statement")
	if i := strings.Index(msg, " (expected "); i >= 0 && len(msg)-i > 60 {
		msg = msg[:i]
	}
	return "syntax error: " + msg
}
