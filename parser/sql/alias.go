package sql

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// aliasName is an alias written without AS: any name but a keyword that can follow a select
// item or a table (FROM, JOIN, WHERE, …). It parses itself, which is much cheaper than a
// negative lookahead over the keyword list at every alias position.
type aliasName string

// Parse implements participle.Parseable.
func (a *aliasName) Parse(lex *lexer.PeekingLexer) error {
	tok := lex.Peek()
	v := tok.Value
	switch {
	case tok.EOF() || v == "":
		return participle.NextMatch
	case v[0] == '`':
	case isIdentStart(v[0]) && !followsAlias(strings.ToUpper(v)):
	default:
		return participle.NextMatch
	}
	lex.Next()
	*a = aliasName(v)
	return nil
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// followsAlias reports the keywords that end a select item or a table reference, which an
// unmarked alias cannot be.
func followsAlias(w string) bool {
	switch w {
	case "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "UNION", "INTERSECT",
		"EXCEPT", "MINUS", "WINDOW", "QUALIFY", "CLUSTER", "DISTRIBUTE", "SORT", "JOIN", "INNER",
		"LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL", "SEMI", "ANTI", "ON", "USING",
		"LATERAL", "AS", "SELECT", "WITH", "INSERT", "VALUES", "TABLESAMPLE", "PIVOT", "UNPIVOT",
		"INTO", "FOR", "WHEN", "THEN", "ELSE", "END", "AND", "OR", "NOT", "IS", "IN", "LIKE",
		"BETWEEN", "RLIKE", "ILIKE", "REGEXP":
		return true
	}
	return false
}
