package plan

import "strings"

// The model keeps a qualified name (a table's, a view's) as one string that holds its parts
// exactly: each part as Spark's QuotingUtils.quoteIfNeeded writes it (as is when it is made
// of letters, digits and underscores and is not all digits, else in backquotes with its own
// backquotes doubled), joined by dots. The table named `we``ird` is "`we``ird`", the table
// c of the database `a.b` is "`a.b`.c": no two different lists of parts share a string, so
// names compare as strings and NameParts gives the parts back.

// QuoteNamePart returns one part of a qualified name as the model writes it.
func QuoteNamePart(part string) string {
	plain, digits := part != "", true
	for i := 0; i < len(part); i++ {
		c := part[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
			digits = false
		default:
			plain = false
		}
	}
	if plain && !digits {
		return part
	}
	return "`" + strings.ReplaceAll(part, "`", "``") + "`"
}

// JoinName returns the model's string of a qualified name's parts (QuoteNamePart of each,
// joined by dots).
func JoinName(parts ...string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = QuoteNamePart(p)
	}
	return strings.Join(q, ".")
}

// NameParts returns the parts of a name the model keeps (JoinName's string): split at the
// dots outside backquotes, each quoted part unquoted. A backquote left open runs to the end
// of the name.
func NameParts(name string) []string {
	var parts []string
	var b strings.Builder
	quoted := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '`' && quoted && i+1 < len(name) && name[i+1] == '`':
			b.WriteByte('`')
			i++
		case c == '`':
			quoted = !quoted
		case c == '.' && !quoted:
			parts = append(parts, b.String())
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return append(parts, b.String())
}

// NameClosed reports whether every backquote of name that opens a quoted part is closed (a
// doubled one inside a quoted part is a literal backquote): a name with one left open is no
// identifier Spark reads.
func NameClosed(name string) bool {
	quoted := false
	for i := 0; i < len(name); i++ {
		if name[i] != '`' {
			continue
		}
		if quoted && i+1 < len(name) && name[i+1] == '`' {
			i++
			continue
		}
		quoted = !quoted
	}
	return !quoted
}

// NameTail returns the last part of a name the model keeps, as the name writes it: "t" of
// "db.t", "`c.d`" of "db.`c.d`" (what follows the last dot outside backquotes).
func NameTail(name string) string {
	quoted, last := false, -1
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '`':
			quoted = !quoted // a doubled backquote toggles twice
		case '.':
			if !quoted {
				last = i
			}
		}
	}
	return name[last+1:]
}
