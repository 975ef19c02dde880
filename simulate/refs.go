package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// refSet is the columns a query mentions, for column pruning (ColumnPruning and
// FileSourceStrategy read only the referenced columns; a bucketed scan needs every bucket
// column among them). It over-approximates: a bare name counts for every table with such a
// column.
type refSet struct {
	bare map[string]bool
	qual map[string]bool
	star map[string]bool
}

func collectRefs(q *plan.Query) refSet {
	r := refSet{bare: map[string]bool{}, qual: map[string]bool{}, star: map[string]bool{}}
	for _, tok := range identifiers(q.Text) {
		if i := strings.LastIndexByte(tok, '.'); i >= 0 {
			r.qual[tok[strings.LastIndexByte(tok[:i], '.')+1:]] = true
			continue
		}
		r.bare[tok] = true
	}
	var walk func(rel *plan.Relation)
	walk = func(rel *plan.Relation) {
		if rel == nil {
			return
		}
		switch rel.Kind {
		case plan.SelectRel:
			sel := rel.Select
			for _, it := range sel.Items {
				it = strings.ToLower(strings.TrimSpace(it))
				switch {
				case it == "*":
					for _, n := range scopeNames(sel.From) {
						r.star[n] = true
					}
				case strings.HasSuffix(it, ".*"):
					q := strings.TrimSuffix(it, ".*")
					r.star[q[strings.LastIndexByte(q, '.')+1:]] = true
				}
			}
			walk(sel.From)
		case plan.JoinRel:
			walk(rel.Join.Left)
			walk(rel.Join.Right)
		case plan.SetRel:
			for _, in := range rel.Inputs {
				walk(in)
			}
		}
	}
	walk(q.Root)
	for _, c := range q.CTEs {
		walk(c.Root)
	}
	return r
}

// scopeNames are the names of the relations a SELECT's FROM brings into scope.
func scopeNames(rel *plan.Relation) []string {
	if rel == nil {
		return nil
	}
	if rel.Kind == plan.JoinRel {
		return append(scopeNames(rel.Join.Left), scopeNames(rel.Join.Right)...)
	}
	return []string{rel.Name()}
}

// reads reports whether column col of the relation named rel is referenced.
func (r refSet) reads(rel, col string) bool {
	col = strings.ToLower(col)
	return r.star[rel] || r.bare[col] || r.qual[rel+"."+col]
}

// identifiers returns the lower-case (possibly dotted) identifiers of SQL text, skipping
// string literals and comments.
func identifiers(src string) []string {
	var out []string
	s := strings.ToLower(src)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case isIdentStart(c) || c == '`':
			j := i
			for j < len(s) && (isIdentPart(s[j]) || s[j] == '.' || s[j] == '`') {
				j++
			}
			tok := strings.Trim(strings.ReplaceAll(s[i:j], "`", ""), ".")
			if tok != "" {
				out = append(out, tok)
			}
			i = j
		default:
			i++
		}
	}
	return out
}

func isIdentStart(c byte) bool { return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }

func isIdentPart(c byte) bool { return isIdentStart(c) || ('0' <= c && c <= '9') }
