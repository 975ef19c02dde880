package sql

import (
	"regexp"
	"strings"
)

// Template placeholders are text a tool substitutes before Spark sees the statement: Jinja and
// Databricks widgets ({{ x }}), Hive and spark-sql variables (${x}, ${hiveconf:x}) and Python
// format fields ({x}, {0}, {x!r}). The lexer reads a placeholder, together with the name
// characters written against it (orders_${env}, {{ schema }}_stage), as one Template token: it
// stands where a name, a literal or an expression may, its placeholders are kept as written,
// and it never becomes a syntax error by itself. Databricks' named parameter
// markers (:name) are the grammar's parameters already.

// placeholder matches one placeholder of any of the kinds above. A Python field is a name, a
// number or nothing between single braces, with an optional conversion and format spec.
const placeholder = `\{\{[\s\S]*?\}\}` +
	`|\$\{[^{}\n]*\}` +
	`|\{(?:[A-Za-z_][A-Za-z0-9_.]*|\d*)(?:![rsa])?(?::[^{}\n]*)?\}`

// templatePattern is the Template token: placeholders and the name characters joined to them.
const templatePattern = `(?:[A-Za-z0-9_]*(?:` + placeholder + `))+[A-Za-z0-9_]*`

var placeholderRE = regexp.MustCompile(placeholder)

// lowerOutside returns a name part holding placeholders lower-cased outside them: Spark
// compares names without case, a tool substitutes placeholders as written.
func lowerOutside(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range placeholderRE.FindAllStringIndex(s, -1) {
		b.WriteString(strings.ToLower(s[last:m[0]]))
		b.WriteString(s[m[0]:m[1]])
		last = m[1]
	}
	b.WriteString(strings.ToLower(s[last:]))
	return b.String()
}

// isTemplate reports whether a name part or literal holds a placeholder, that is, whether it
// is (or contains) text substituted before Spark reads the statement.
func isTemplate(s string) bool {
	if s == "" || s[0] == '`' || s[0] == '\'' || s[0] == '"' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '{' {
			return placeholderRE.MatchString(s[i:])
		}
	}
	return false
}
