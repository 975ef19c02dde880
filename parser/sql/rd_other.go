package sql

import (
	"strings"
)

// Statements that do not matter for layout (SqlBaseParser.g4's statement alternatives other
// than queries and table DDL) are kept as text; these checks reject the forms of them Spark's
// parser rejects, so that a statement Spark would not run is not read silently: names that
// are strings (CREATE SCHEMA "x"), DESCRIBE of an INSERT, DESCRIBE … AS JSON without
// EXTENDED or with a column, DECLARE without type or default, DROP VARIABLE without
// TEMPORARY, EXECUTE IMMEDIATE of text that does not parse, SHOW TABLE EXTENDED without
// LIKE, SET TIME ZONE outside ±18 hours, a temporary view or function with a qualified name,
// and WITH SCHEMA on a view when spark.sql.legacy.viewSchemaBindingMode is false.

// otherCheck is one statement's tokens for the checks.
type otherCheck struct {
	*rd
	st *state
}

// checkStatement returns the offset and message of what Spark's parser would reject in a
// statement of kind k, or -1: a syntax error, or a construct the configured Spark version
// does not accept.
func (st *state) checkStatement(k stmtKind, text string) (int, string) {
	switch k {
	case stmtOther, stmtUse, stmtSet, stmtView, stmtDrop, stmtAlter:
	default:
		return -1, ""
	}
	p := &otherCheck{rd: st.parser(text), st: st}
	p.statement()
	if p.err != nil {
		return p.err.off, shorten(p.err.msg)
	}
	if u, msg, bad := st.p.opts.versionError(p.uses, st.legacyBang); bad {
		return u.off, msg
	}
	return -1, ""
}

// scriptingWord reports the words that start a statement of SQL scripting (compoundStatement).
func scriptingWord(t token) bool {
	for _, w := range []string{"BEGIN", "END", "IF", "WHILE", "REPEAT", "LOOP", "FOR", "CASE", "LEAVE", "ITERATE", "SIGNAL", "RESIGNAL"} {
		if isTok(t, w) {
			return true
		}
	}
	return false
}

// statement dispatches on the leading keywords.
func (p *otherCheck) statement() {
	if t := p.tok(); t.kind == tIdent && !knownStatement(strings.ToLower(t.text)) {
		p.failAt(t.off, strings.ToUpper(t.text)+" does not start a statement Spark knows")
		return
	}
	switch {
	case scriptingWord(p.tok()):
		p.use(featScripting, p.tok().off)
	case p.is("CALL"):
		p.use(featCall, p.tok().off)
	case p.at("MERGE", "WITH", "SCHEMA", "EVOLUTION"):
		p.use(featMergeSchemaEvolution, p.ahead(1).off)
	case p.at("DROP", "TEMPORARY", "VARIABLE"), p.at("DROP", "TEMPORARY", "VAR"):
		p.use(featVariables, p.ahead(2).off)
	case p.isAny("CREATE", "DROP", "ALTER") && p.schemaWord(1):
		p.i += 2
		p.acceptSeq("IF", "NOT", "EXISTS")
		p.acceptSeq("IF", "EXISTS")
		p.qname()
	case p.is("USE"):
		p.next()
		if p.schemaWord(0) {
			p.next()
		}
		p.qname()
	case p.is("DECLARE"):
		p.declare()
	case p.at("DROP", "VARIABLE"):
		p.next()
		p.fail(`"TEMPORARY"`)
	case p.at("EXECUTE", "IMMEDIATE"):
		p.executeImmediate()
	case p.isAny("DESCRIBE", "DESC"):
		p.describe()
	case p.at("SHOW", "TABLE", "EXTENDED"):
		p.i += 3
		if p.isAny("IN", "FROM") {
			p.next()
			p.qname()
		}
		if !p.is("LIKE") {
			p.fail(`"LIKE"`)
		}
	case p.is("SET") && p.st.p.opts.refuses(featSetText, false) == "":
		// Spark 3.0 reads any text after SET as a configuration key and value (recorded:
		// pyspark 3.0.3 rejects no SET statement of Spark's SQL tests).
	case p.is("RESET") && p.ahead(1).kind != tEOF:
		p.use(featResetKey, p.ahead(1).off)
	case p.at("SET", "TIME", "ZONE"):
		p.i += 3
		p.timeZone()
	case p.at("SET", "VARIABLE", "(", ")"), p.at("SET", "VAR", "(", ")"):
		p.i += 3
		p.fail("a variable name")
	case p.at("SET", "VARIABLE"), p.at("SET", "VAR"):
		p.use(featVariables, p.ahead(1).off)
	case p.is("SET"):
		p.setKey()
	case p.is("CREATE") || p.is("DROP"):
		p.createOrDrop()
	case p.at("ALTER", "TABLE"):
		p.alterTable()
	case p.at("ALTER", "VIEW"):
		p.i += 2
		p.qname()
		if p.err == nil && p.at("WITH", "SCHEMA") {
			if p.st.noBinding {
				p.failAt(p.tok().off, "WITH SCHEMA needs spark.sql.legacy.viewSchemaBindingMode, which is false here")
				return
			}
			p.use(featViewSchema, p.tok().off)
		}
	}
}

// setKey checks SET key [= value]: from 3.1 a key not quoted with backquotes is one word
// (SparkSqlParser's configKeyValueDef).
func (p *otherCheck) setKey() {
	p.next()
	at := p.tok().off
	for p.tok().kind != tEOF && !p.is("=") {
		if !p.adjacent(p.i) && p.ahead(1).kind != tEOF && !isTok(p.ahead(1), "=") {
			p.use(featSetText, at)
			return
		}
		p.next()
	}
}

// schemaWord reports whether the token n places ahead is SCHEMA, DATABASE or NAMESPACE.
func (p *otherCheck) schemaWord(n int) bool {
	t := p.ahead(n)
	return isTok(t, "SCHEMA") || isTok(t, "DATABASE") || isTok(t, "NAMESPACE")
}

// createOrDrop checks temporary views and functions (one name part only) and a view's WITH
// SCHEMA clause.
func (p *otherCheck) createOrDrop() {
	p.next()
	p.acceptSeq("OR", "REPLACE")
	global := p.accept("GLOBAL")
	temp := p.accept("TEMPORARY") || p.accept("TEMP")
	function := p.accept("FUNCTION")
	if !function && !p.accept("VIEW") {
		return
	}
	p.acceptSeq("IF", "NOT", "EXISTS")
	p.acceptSeq("IF", "EXISTS")
	at := p.tok().off
	q := p.qname()
	if q.Ident != nil || q.identX != nil {
		// Recorded: pyspark 3.4.4 rejects CREATE TEMPORARY VIEW IDENTIFIER('db.v') …
		p.use(featIdentifierName, at)
	}
	if p.err == nil && temp && !global && len(q.parts()) > 1 {
		// Before 3.3 the parser left this to the analyzer, as the releases still do for a
		// name given by IDENTIFIER (only Spark's 4.1 development snapshot checks it).
		if q.Ident != nil || q.identX != nil {
			p.use(featTempQualifiedIdentifier, at)
		} else {
			p.use(featTempQualified, at)
		}
	}
	if function && (p.is("(") || p.is("RETURNS")) {
		p.use(featSQLFunction, p.tok().off)
	}
	if end := p.matching(p.i); !function && p.is("(") && end > 0 && !isTok(p.toks[min(end+1, len(p.toks)-1)], "USING") {
		// A temporary view over a data source (… USING fmt) lists typed columns instead.
		p.viewColumns()
	}
	for !function && p.err == nil && p.tok().kind != tEOF && !p.is("AS") {
		if p.is("(") {
			p.skipGroup()
			continue
		}
		if p.at("WITH", "SCHEMA") {
			if p.st.noBinding {
				p.failAt(p.tok().off, "WITH SCHEMA needs spark.sql.legacy.viewSchemaBindingMode, which is false here")
				return
			}
			p.use(featViewSchema, p.tok().off)
		}
		p.next()
	}
}

// viewColumns checks a view's column list, name [COMMENT 'text'], … (identifierCommentList):
// a name is an identifier or IDENTIFIER('…') of one string (4.1), and a comment is a string (not a "name" under
// spark.sql.ansi.doubleQuotedIdentifiers).
func (p *otherCheck) viewColumns() {
	p.next()
	for p.err == nil {
		switch {
		case p.identLiteAt(0):
			p.identLite()
		case !isName(p.tok()) || isTok(p.ahead(1), "("):
			p.fail("a column name")
			return
		default:
			p.next()
		}
		if p.accept("COMMENT") {
			p.str()
		}
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
}

// alterTable checks the ALTER TABLE forms kept as text: ADD COLUMNS names a column with an
// identifier, not a string (alterTableAddColumns), and CHANGE COLUMN changes something: its
// type, nullability, comment or position (AstBuilder's visitAlterTableChangeColumn).
func (p *otherCheck) alterTable() {
	p.i += 2
	p.qname()
	if p.at("PARTITION", "(") {
		p.next()
		p.skipGroup()
	}
	switch {
	case p.at("ADD", "COLUMNS"), p.at("ADD", "COLUMN"):
		p.i += 2
		p.accept("(")
		if p.tok().kind == tString {
			p.fail("a column name")
		}
	case p.is("CHANGE"):
		at := p.next().off
		p.accept("COLUMN")
		p.qname()
		if p.err == nil && p.tok().kind == tEOF {
			p.failAt(at, "ALTER TABLE … CHANGE COLUMN needs a type, SET or DROP NOT NULL, a COMMENT, or FIRST or AFTER")
		}
	}
}

// declare checks DECLARE [OR REPLACE] [VARIABLE] name [type] [DEFAULT|= expr].
func (p *otherCheck) declare() {
	p.use(featVariables, p.next().off)
	p.acceptSeq("OR", "REPLACE")
	if p.isAny("VARIABLE", "VAR") && (isName(p.ahead(1)) && !isTok(p.ahead(1), "DEFAULT")) {
		p.next()
		if p.is("IF") {
			p.fail("a variable name")
			return
		}
	}
	p.qname()
	if p.err == nil && p.tok().kind == tEOF {
		p.failAt(p.toks[0].off, "DECLARE needs the variable's type or a DEFAULT value")
	}
}

// executeImmediate checks EXECUTE IMMEDIATE 'sql' [INTO names] [USING expr [AS name], …]:
// the text is parsed as a statement, INTO takes names without brackets, USING's names differ.
func (p *otherCheck) executeImmediate() {
	p.use(featExecuteImmediate, p.tok().off)
	p.i += 2
	if t := p.tok(); t.kind == tString && !strings.EqualFold(strings.Join(leadingWords(unquoteString(t.text), 1), ""), "execute") {
		// One level only: a nested EXECUTE IMMEDIATE's text is parsed when it runs.
		sub := &state{p: p.st.p, f: &File{Name: p.st.f.Name}, lines: newLineIndex(p.st.f.Name, unquoteString(t.text))}
		for _, c := range split(unquoteString(t.text)) {
			sub.statement(c)
		}
		if len(sub.errs) > 0 {
			// The releases parse the text when the statement runs (only Spark's 4.1
			// development snapshot parses it with the statement).
			p.use(featExecuteText, t.off)
		}
	}
	p.next()
	if p.accept("INTO") {
		if p.is("(") {
			p.fail("a variable name")
			return
		}
		p.qname()
		for p.accept(",") {
			p.qname()
		}
	}
	if !p.accept("USING") {
		return
	}
	seen := map[string]bool{}
	for p.err == nil {
		p.expression()
		if p.accept("AS") {
			at := p.tok().off
			n := unquoteIdent(p.alias())
			if seen[n] {
				p.failAt(at, "EXECUTE IMMEDIATE … USING names "+n+" twice")
				return
			}
			seen[n] = true
		}
		if !p.accept(",") {
			return
		}
	}
}

// describe checks DESCRIBE [TABLE] [EXTENDED|FORMATTED] name [PARTITION (…)] [column] [AS
// JSON], and rejects DESCRIBE of an INSERT.
func (p *otherCheck) describe() {
	p.next()
	if p.is("INSERT") || p.is("FROM") && p.hasWord("INSERT") {
		p.fail("a table, a query or a function")
		return
	}
	if p.isAny("QUERY", "FUNCTION", "DATABASE", "SCHEMA", "NAMESPACE", "CATALOG", "SELECT", "WITH", "VALUES", "FROM", "TABLE") && !p.is("TABLE") || p.tok().kind != tIdent && p.tok().kind != tQuoted {
		return
	}
	p.accept("TABLE")
	extended := p.accept("EXTENDED") || p.accept("FORMATTED")
	p.qname()
	if p.at("PARTITION", "(") {
		p.next()
		p.partitionSpec()
	}
	column := false
	if p.isName() && !p.is("AS") {
		column = true
		p.qname()
	}
	if p.at("AS", "JSON") {
		p.use(featDescribeJSON, p.tok().off)
		switch {
		case !extended:
			p.fail("EXTENDED before the table: DESCRIBE … AS JSON")
		case column:
			p.fail("no column: DESCRIBE … AS JSON describes a table")
		}
	}
}

// hasWord reports whether the statement holds the keyword w.
func (p *otherCheck) hasWord(w string) bool {
	for _, t := range p.toks {
		if isTok(t, w) {
			return true
		}
	}
	return false
}

// partitionSpec checks (col = value, …): a DESCRIBE partition names every value.
func (p *otherCheck) partitionSpec() {
	p.next()
	for p.err == nil && !p.is(")") {
		p.ident()
		if !p.is("=") {
			p.fail(`"=": a partition value`)
			return
		}
		p.next()
		p.expression()
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
}

// timeZone checks what follows SET TIME ZONE: LOCAL, a string, or an interval of whole
// seconds within ±18 hours, and nothing after it.
func (p *otherCheck) timeZone() {
	switch {
	case p.tok().kind == tEOF:
		p.fail("LOCAL, a zone name or an interval")
		return
	case p.is("LOCAL") || p.tok().kind == tString:
		p.next()
	case p.is("INTERVAL"):
		at := p.tok().off
		parts := p.primary().Interval
		if p.err == nil && !zoneOffset(parts) {
			p.failAt(at, "a time zone offset is whole seconds within ±18 hours")
			return
		}
	}
	if p.err == nil && p.tok().kind != tEOF {
		p.fail("end of statement")
	}
}

// zoneOffset reports whether an interval literal's tokens make an offset Spark accepts.
func zoneOffset(parts []string) bool {
	var secs, frac float64
	unit := map[string]float64{"HOUR": 3600, "MINUTE": 60, "SECOND": 1}
	for i := 0; i+1 < len(parts); i++ {
		v, u := parts[i], strings.TrimSuffix(upper(parts[i+1]), "S")
		if i+2 < len(parts) && strings.EqualFold(parts[i+2], "TO") {
			n, ok := hms(literalText(v))
			if !ok || n > 18*3600 {
				return false
			}
			return true
		}
		m, known := unit[u]
		if !known {
			if intervalUnit(u) {
				return false
			}
			continue
		}
		f := 0.0
		for _, c := range strings.Trim(literalText(v), "+- ") {
			if c == '.' {
				frac = 1
				break
			}
			f = f*10 + float64(c-'0')
		}
		secs += f * m
		i++
	}
	return frac == 0 && secs <= 18*3600
}

// hms reads h[:m[:s]] as seconds.
func hms(s string) (float64, bool) {
	total := 0.0
	for i, f := range strings.Split(strings.TrimLeft(s, "+-"), ":") {
		if i > 2 || f == "" || !isSignedNumber(f) {
			return 0, false
		}
		total = total*60 + float64(atoi(f))
	}
	return total * float64(map[int]int{1: 3600, 2: 60, 3: 1}[len(strings.Split(s, ":"))]), true
}

// literalText is a literal token's value: a string unquoted, a number as written.
func literalText(v string) string {
	if v != "" && (v[0] == '\'' || v[0] == '"') {
		return unquoteString(v)
	}
	return v
}

// knownStatement reports the first words of Spark's statements (SqlBaseParser.g4 statement,
// compound statements of SQL scripting), of the Delta and Hive commands Spark sessions run,
// and the spark-sql CLI's own (source, quit, exit); a statement that starts otherwise is not
// one Spark can parse.
func knownStatement(w string) bool {
	switch w {
	case "select", "with", "insert", "values", "table", "from", "map", "reduce", "(", "create",
		"replace", "drop", "alter", "use", "set", "reset", "show", "describe", "desc", "explain",
		"analyze", "cache", "uncache", "clear", "refresh", "msck", "repair", "add", "list",
		"load", "truncate", "merge", "update", "delete", "comment", "declare", "execute",
		"call", "grant", "revoke", "begin", "if", "while", "repeat", "loop", "for", "case",
		"leave", "iterate", "signal", "resignal", "get", "optimize", "vacuum", "fsck",
		"convert", "restore", "copy", "generate", "sync", "apply", "export", "import",
		"start", "commit", "rollback", "undrop", "lock", "unlock", "dfs", "deny", "zorder",
		"end", "return", "open", "close", "fetch", "upgrade", "reorg", "do", "source", "quit", "exit":
		return true
	}
	return false
}
