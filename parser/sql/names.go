package sql

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// unquoteIdent returns a name part without backticks, lower case; a template's placeholders
// are kept as written.
func unquoteIdent(s string) string {
	if isTemplate(s) {
		return lowerOutside(s)
	}
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		return strings.ToLower(strings.ReplaceAll(s[1:len(s)-1], "``", "`"))
	}
	return strings.ToLower(s)
}

// unquoteString returns the value of a string literal: quotes removed, backslash escapes and
// doubled quotes resolved (raw strings r'…' keep their backslashes).
func unquoteString(s string) string {
	raw := false
	if len(s) > 0 && (s[0] == 'r' || s[0] == 'R') {
		raw, s = true, s[1:]
	}
	if len(s) < 2 {
		return s
	}
	q, body := s[0], s[1:len(s)-1]
	if raw || strings.IndexByte(body, '\\') < 0 && strings.IndexByte(body, q) < 0 {
		return body // nothing to unescape
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			i++
			switch body[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(body[i])
			}
		case c == q && i+1 < len(body) && body[i+1] == q:
			b.WriteByte(q)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// partsIn is parts, using one's memory for a name of one part: most names are one part, and
// most callers only read them.
func (q *qname) partsIn(one *[1]string) []string {
	if q == nil || q.Ident != nil || len(q.Parts) != 1 {
		return q.parts()
	}
	one[0] = unquoteIdent(q.Parts[0])
	return one[:]
}

// parts returns a qualified name's parts, lower case and unquoted.
func (q *qname) parts() []string {
	if q == nil {
		return nil
	}
	if q.Ident != nil {
		var out []string
		for _, p := range strings.Split(unquoteString(*q.Ident), ".") {
			out = append(out, unquoteIdent(p))
		}
		return out
	}
	out := make([]string, len(q.Parts))
	for i, p := range q.Parts {
		out[i] = unquoteIdent(p)
	}
	return out
}

// plain returns the name's parts joined by dots, without scoping.
func (q *qname) plain() string {
	var one [1]string
	return strings.Join(q.partsIn(&one), ".")
}

// name returns a table name as the model keeps it: lower case, "spark_catalog." removed, and
// an unqualified name qualified by the database of the last USE.
func (st *state) name(q *qname) string {
	var one [1]string
	return scopeName(q.partsIn(&one), st.db)
}

func scopeName(parts []string, db string) string {
	if len(parts) > 1 && parts[0] == "spark_catalog" {
		parts = parts[1:]
	}
	if len(parts) == 1 && db != "" && !isTemplate(parts[0]) {
		return db + "." + plan.QuoteNamePart(parts[0])
	}
	return modelName(parts)
}

// modelName is a qualified name as the model keeps it (plan.JoinName: each part quoted when
// it needs it, so that the parts can be told apart); a template's placeholder stays as
// written.
func modelName(parts []string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = p
		if !isTemplate(p) {
			q[i] = plan.QuoteNamePart(p)
		}
	}
	return strings.Join(q, ".")
}

// render returns a type as Spark prints it: lower case, no blanks ("decimal(10,2)",
// "struct<a:int,b:string>").
func (t *dataType) render() string {
	if t == nil {
		return ""
	}
	s := strings.ToLower(t.Name)
	if len(t.Params) > 0 {
		s += "(" + strings.ToLower(strings.Join(t.Params, ",")) + ")"
	}
	if len(t.Args) > 0 {
		args := make([]string, len(t.Args))
		for i, a := range t.Args {
			args[i] = a.Type.render()
			if a.Field != "" {
				args[i] = unquoteIdent(a.Field) + ":" + args[i]
			}
		}
		s += "<" + strings.Join(args, ",") + ">"
	}
	return s
}
