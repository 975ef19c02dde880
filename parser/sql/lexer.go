package sql

import "github.com/alecthomas/participle/v2/lexer"

// newLexer returns the token rules of Spark SQL as far as bucketlint reads it. Keywords are
// Ident tokens matched case-insensitively by the grammar. Comments and whitespace are elided;
// hint comments (/*+ … */) are tokens of their own; a placeholder ({{ … }}, ${…}, {…}: see
// template.go) is a Template token that stands where a name or an expression may, and {% … %}
// and {# … #} are elided.
func newLexer() (*lexer.StatefulDefinition, error) {
	return lexer.NewSimple([]lexer.SimpleRule{
		{Name: "Hint", Pattern: `/\*\+[\s\S]*?\*/`},
		{Name: "Comment", Pattern: `--[^\n]*|/\*[\s\S]*?\*/`},
		{Name: "Template", Pattern: templatePattern},
		{Name: "TemplateTag", Pattern: `\{%[\s\S]*?%\}|\{#[\s\S]*?#\}`},
		{Name: "Whitespace", Pattern: `\s+`},
		{Name: "String", Pattern: `[rR]?'(?:\\[\s\S]|''|[^'\\])*'|[rR]?"(?:\\[\s\S]|""|[^"\\])*"`},
		{Name: "Quoted", Pattern: "`(?:``|[^`])*`"},
		{Name: "Number", Pattern: `(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?i:BD|[lsydfb])?`},
		{Name: "Ident", Pattern: `[A-Za-z_$][A-Za-z0-9_$]*`},
		{Name: "Op", Pattern: `<=>|<>|!=|<=|>=|==|\|\||::|->|=>|&&|[-+*/%=<>(),.;\[\]:&|^~!?{}@#\\]`},
	})
}
