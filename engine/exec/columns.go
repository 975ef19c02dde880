package exec

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/plan"
)

// A column is one output column of a stage: the attribute name and expression id Spark
// printed (the id may be empty) and its type.
type column struct {
	Name string
	ID   string
	Type hash.Type
}

// A schema is a stage's output columns.
type schema []column

func (s schema) types() []hash.Type {
	out := make([]hash.Type, len(s))
	for i, c := range s {
		out[i] = c.Type
	}
	return out
}

// resolve finds the column an expression refers to: an attribute (by name, and by id when
// both sides have one), or an aggregate output named by the expression's text.
func (s schema) resolve(e plan.Expr) (int, error) {
	if name, ok := e.Column(); ok {
		c, err := s.lookup(name, e.Refs[0].ID)
		if err != nil {
			return 0, fmt.Errorf("column %s %w", e.Raw, err)
		}
		return c, nil
	}
	text := stripIDs(e.Raw)
	for i, c := range s {
		if strings.EqualFold(c.Name, text) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unsupported expression %q: only column references are evaluated here", e.Raw)
}

// lookup finds a column by name and, when both have one, expression id. A name written
// with a table qualifier as a query writes it (a.status, db.t.k) that is no column's name
// resolves as its last part, provided exactly one column (or the one with the id) has that
// name: stage columns carry no qualifier, so an ambiguous qualified name is an error rather
// than a guess between the sides of a join.
func (s schema) lookup(name, id string) (int, error) {
	find := func(name string) (first int, n int, byID int) {
		first, byID = -1, -1
		for i, c := range s {
			if !strings.EqualFold(c.Name, name) {
				continue
			}
			if id != "" && c.ID == id && byID < 0 {
				byID = i
			}
			if first < 0 {
				first = i
			}
			n++
		}
		return first, n, byID
	}
	first, n, byID := find(name)
	if byID >= 0 {
		return byID, nil
	}
	if n > 0 {
		return first, nil
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 && i+1 < len(name) {
		bare := name[i+1:]
		first, n, byID = find(bare)
		switch {
		case byID >= 0:
			return byID, nil
		case n == 1:
			return first, nil
		case n > 1:
			return 0, fmt.Errorf("is ambiguous: %d columns named %s among %s", n, bare, s)
		}
	}
	return 0, fmt.Errorf("not found among %s", s)
}

// resolveAll resolves each expression.
func (s schema) resolveAll(es []plan.Expr) ([]int, error) {
	out := make([]int, len(es))
	for i, e := range es {
		c, err := s.resolve(e)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// String lists the column names.
func (s schema) String() string {
	parts := make([]string, len(s))
	for i, c := range s {
		parts[i] = c.Name
		if c.ID != "" {
			parts[i] += "#" + c.ID
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// stripIDs removes expression ids (#12, #12L) from printed expression text.
func stripIDs(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			i++
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			if i < len(s) && s[i] == 'L' {
				i++
			}
			i--
			continue
		}
		sb.WriteByte(s[i])
	}
	return strings.TrimSpace(sb.String())
}

// attrOf returns the name and id of an output expression: "x#3 AS y#7" is y#7, "k#1" is k#1,
// anything else its text without ids.
func attrOf(e plan.Expr) (name, id string) {
	if n, ok := e.Column(); ok {
		return n, e.Refs[0].ID
	}
	if _, alias, ok := cutAlias(e.Raw); ok {
		if i := strings.LastIndexByte(alias, '#'); i >= 0 {
			return alias[:i], strings.TrimSuffix(alias[i+1:], "L")
		}
		return alias, ""
	}
	return stripIDs(e.Raw), ""
}

// cutAlias splits "expr AS alias" at its last top-level " AS ".
func cutAlias(s string) (expr, alias string, ok bool) {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
		}
		if depth == 0 && i+4 <= len(s) && strings.EqualFold(s[i:i+4], " AS ") {
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+4:]), true
		}
	}
	return s, "", false
}
