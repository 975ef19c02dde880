//go:build engine

package verify

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// AsSelect returns a copy of the query without its write: INSERT … SELECT, CTAS and CACHE TABLE … AS
// are verified (and sent to Spark) as their SELECT, so that nothing is written to a table.
func AsSelect(q *plan.Query) *plan.Query {
	cp := *q
	if cp.Target == "" || cp.Root == nil || cp.Root.Text == "" {
		return &cp
	}
	cp.Target, cp.Overwrite, cp.View = "", false, false
	text, err := selectSQL(q, nil)
	if err != nil {
		return &cp
	}
	cp.Text = text
	return &cp
}

// selectSQL returns the SELECT a query runs, composed from its parts as parsed: "WITH name
// AS (…), … " for its CTEs (those not written inside another part: a WITH nested in a
// subquery stays where it is), then its root relation, each as written, with every table
// name that to maps (a lower-case "db.t" key, matched as lookupTable matches names: a leading
// catalog or database may be left off) replaced by its value. Names are replaced where the
// parser found them (plan.Relation.NameSpan), so string literals, comments, aliases and
// column qualifiers are never touched; a table read only inside a subquery expression (IN,
// EXISTS, a scalar subquery), which the relation tree does not hold, keeps its name. A view
// that name resolution read through is written as its definition in parentheses (viewEdit),
// so Spark needs no view to run the query.
func selectSQL(q *plan.Query, to map[string]string) (string, error) {
	if q.Root == nil {
		return "", fmt.Errorf("%s: the query has no relation to run", q.Span.Start)
	}
	parts := []*plan.Relation{q.Root}
	for _, c := range q.CTEs {
		parts = append(parts, c.Root)
	}
	var b strings.Builder
	for _, c := range q.CTEs {
		if c.Root == nil {
			return "", fmt.Errorf("%s: common table expression %s has no query", c.Span.Start, c.Name)
		}
		if c.View != "" || nestedIn(c, parts) {
			// A view's CTEs are written inside the view's subquery (viewSQL).
			continue
		}
		body, err := renamed(c.Root, q.CTEs, to)
		if err != nil {
			return "", err
		}
		if b.Len() == 0 {
			b.WriteString("WITH ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(c.Name + " AS (" + body + ")")
	}
	if b.Len() > 0 {
		b.WriteString(" ")
	}
	root, err := renamed(q.Root, q.CTEs, to)
	if err != nil {
		return "", err
	}
	return b.String() + root, nil
}

// nestedIn reports whether CTE c is written inside the text of one of parts (a WITH in a
// subquery, which the parser lists among the query's CTEs too).
func nestedIn(c *plan.CTE, parts []*plan.Relation) bool {
	for _, p := range parts {
		if p == nil || p == c.Root {
			continue
		}
		if _, ok := plan.Offset(p.Text, p.Span.Start, c.Span.Start); ok {
			return true
		}
	}
	return false
}

// renamed returns rel's text with the names of the tables it scans that to maps replaced,
// those of the CTEs written inside it included.
func renamed(rel *plan.Relation, ctes []*plan.CTE, to map[string]string) (string, error) {
	var edits []textEdit
	var err error
	rename := func(r *plan.Relation) {
		if r.View != "" {
			e, verr := viewEdit(rel, r, to)
			if verr != nil {
				err = verr
				return
			}
			edits = append(edits, e)
			return
		}
		repl, ok := lookupName(to, r.Table)
		if !ok || err != nil {
			return
		}
		from, to, ok := nameOffsets(rel, r)
		if !ok {
			err = fmt.Errorf("%s: cannot place table name %s in the query's text", r.Span.Start, r.Table)
			return
		}
		edits = append(edits, textEdit{from, to, repl})
	}
	eachScan(rel, rename)
	for _, c := range ctes {
		if c.Root != rel && nestedIn(c, []*plan.Relation{rel}) {
			eachScan(c.Root, rename)
		}
	}
	if err != nil {
		return "", err
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from < edits[j].from })
	var b strings.Builder
	at := 0
	for _, e := range edits {
		if e.from < at {
			return "", fmt.Errorf("%s: table names overlap in the query's text", rel.Span.Start)
		}
		b.WriteString(rel.Text[at:e.from])
		b.WriteString(e.text)
		at = e.to
	}
	b.WriteString(rel.Text[at:])
	return b.String(), nil
}

// nameOffsets returns where the name of scan r lies in the text of rel, which holds r: the
// positions the parser recorded, checked against the text (r's own text must start at its
// position, and its name lie inside it), so that positions that do not count the text's bytes
// (a SQL string in code whose escapes moved them) are never used.
func nameOffsets(rel, r *plan.Relation) (from, to int, ok bool) {
	text, start := rel.Text, rel.Span.Start
	at, ok1 := plan.Offset(text, start, r.Span.Start)
	from, ok2 := plan.Offset(text, start, r.NameSpan.Start)
	to, ok3 := plan.Offset(text, start, r.NameSpan.End)
	if !ok1 || !ok2 || !ok3 || !strings.HasPrefix(text[at:], r.Text) || from < at || to <= from || to > at+len(r.Text) {
		return 0, 0, false
	}
	return from, to, true
}

// eachScan calls f for every table scan in a relation tree (not CTE references), in order.
func eachScan(r *plan.Relation, f func(*plan.Relation)) {
	if r == nil {
		return
	}
	switch r.Kind {
	case plan.TableRel:
		if !r.CTE {
			f(r)
		}
	case plan.SelectRel:
		if r.View != "" {
			f(r) // a view name resolution read through: its text is the view's name
			return
		}
		eachScan(r.Select.From, f)
	case plan.JoinRel:
		eachScan(r.Join.Left, f)
		eachScan(r.Join.Right, f)
	case plan.SetRel:
		for _, in := range r.Inputs {
			eachScan(in, f)
		}
	}
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

// A textEdit replaces text[from:to] of a relation's text.
type textEdit struct {
	from, to int
	text     string
}

// viewEdit writes a scan of a view, which name resolution replaced by the view's query, as
// that query in parentheses under the scan's alias (or the view's name): Spark reads the
// subquery as it reads the view. A view the view reads is written the same way.
func viewEdit(rel, r *plan.Relation, to map[string]string) (textEdit, error) {
	if r.ViewQuery == nil {
		return textEdit{}, fmt.Errorf("%s: the definition of view %s is not known", r.Span.Start, r.View)
	}
	at, ok := plan.Offset(rel.Text, rel.Span.Start, r.Span.Start)
	if !ok || !strings.HasPrefix(rel.Text[at:], r.Text) || r.Text == "" {
		return textEdit{}, fmt.Errorf("%s: cannot place view %s in the query's text", r.Span.Start, r.View)
	}
	body, err := selectSQL(r.ViewQuery, to)
	if err != nil {
		return textEdit{}, err
	}
	alias := quoteIdent(r.Alias)
	if len(r.ColumnAliases) > 0 {
		alias += "(" + quoteList(r.ColumnAliases) + ")"
	}
	return textEdit{at, at + len(r.Text), "(" + body + ") " + alias}, nil
}
