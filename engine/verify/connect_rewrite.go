package verify

import (
	"strings"
)

// rewriteTables replaces the table references of a query that name a key of to (lower-case
// "db.t", matched as lookupTable does, so spark_catalog.db.t finds db.t) with the value. A
// table reference is the name right after FROM or JOIN, or after a comma inside a FROM
// clause; string literals, comments and column references are left alone. Scratch copies
// keep the table's last name part, so column qualifiers (t.k) still resolve; a column
// qualified with the database as well (db.t.k) does not.
func rewriteTables(query string, to map[string]string) string {
	toks := sqlTokens(query)
	var b strings.Builder
	inFrom := []bool{false} // per parenthesis depth
	expectTable := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == tokSpace:
			b.WriteString(t.text)
			continue
		case t.kind == tokIdent && expectTable:
			j, parts := identChain(toks, i)
			name := strings.Join(parts, ".")
			if repl, ok := lookupName(to, name); ok {
				b.WriteString(repl)
			} else {
				for _, x := range toks[i:j] {
					b.WriteString(x.text)
				}
			}
			i = j - 1
			expectTable = false
			continue
		}
		expectTable = false
		b.WriteString(t.text)
		d := len(inFrom) - 1
		switch {
		case t.text == "(":
			inFrom = append(inFrom, false)
		case t.text == ")":
			if d > 0 {
				inFrom = inFrom[:d]
			}
		case t.text == ",":
			expectTable = inFrom[d]
		case t.kind == tokIdent:
			switch strings.ToUpper(t.text) {
			case "FROM":
				inFrom[d], expectTable = true, true
			case "JOIN":
				expectTable = true
			case "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "INTERSECT", "EXCEPT",
				"SELECT", "ON", "USING", "WINDOW", "CLUSTER", "DISTRIBUTE", "SORT", "LATERAL":
				inFrom[d] = false
			}
		}
	}
	return b.String()
}

// lookupName finds name in to, dropping leading parts (a catalog, a database) until it
// matches.
func lookupName(to map[string]string, name string) (string, bool) {
	name = strings.ToLower(name)
	for {
		if v, ok := to[name]; ok {
			return v, true
		}
		_, rest, ok := strings.Cut(name, ".")
		if !ok {
			return "", false
		}
		name = rest
	}
}

// identChain reads a dotted name from toks[i] (an identifier): it returns the index after it
// and its parts, unquoted.
func identChain(toks []sqlToken, i int) (int, []string) {
	parts := []string{toks[i].ident()}
	j := i + 1
	for j+1 < len(toks) && toks[j].text == "." && toks[j+1].kind == tokIdent {
		parts = append(parts, toks[j+1].ident())
		j += 2
	}
	return j, parts
}

type tokKind int

const (
	tokOther  tokKind = iota
	tokSpace          // whitespace and comments
	tokIdent          // a word or a `quoted` identifier
	tokString         // a '…' or "…" literal
)

type sqlToken struct {
	kind tokKind
	text string
}

// ident is the identifier a token names: backquotes removed.
func (t sqlToken) ident() string {
	if strings.HasPrefix(t.text, "`") {
		return strings.ReplaceAll(t.text[1:len(t.text)-1], "``", "`")
	}
	return t.text
}

// sqlTokens splits SQL text into tokens whose texts concatenate back to the input.
func sqlTokens(s string) []sqlToken {
	var out []sqlToken
	for i := 0; i < len(s); {
		c := s[i]
		j := i + 1
		kind := tokOther
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			for j < len(s) && strings.IndexByte(" \t\n\r", s[j]) >= 0 {
				j++
			}
			kind = tokSpace
		case c == '-' && strings.HasPrefix(s[i:], "--"):
			j = endAt(s, i+2, "\n", 0)
			kind = tokSpace
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			j = endAt(s, i+2, "*/", 2)
			kind = tokSpace
		case c == '\'' || c == '"':
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			kind = tokString
		case c == '`':
			for j < len(s) {
				if s[j] == '`' {
					if j+1 < len(s) && s[j+1] == '`' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(s))
			kind = tokIdent
		case isWordByte(c):
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			kind = tokIdent
		}
		out = append(out, sqlToken{kind: kind, text: s[i:j]})
		i = j
	}
	return out
}

// endAt returns the index after the first end at or after i (its length is n), or len(s).
func endAt(s string, i int, end string, n int) int {
	k := strings.Index(s[i:], end)
	if k < 0 {
		return len(s)
	}
	return i + k + n
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
