package workload

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A Catalog is what name resolution reads from the catalogue: the tables and views a query
// may name. Names are lower case, as qualified as the query wrote them after USE scoping
// (plan.Relation.Table); a catalogue matches them as Spark's session catalog would. Each
// returns nil when it knows no such table or view.
type Catalog interface {
	Table(name string) *plan.Table
	View(name string) *plan.Query
}

// A Reason says why a column name did not resolve.
type Reason uint8

// The reasons.
const (
	// UnknownColumn: no relation in scope has the column (or the qualifier names none).
	UnknownColumn Reason = iota + 1
	// AmbiguousColumn: several relations in scope have the column.
	AmbiguousColumn
	// UnknownSchema: a relation in scope whose columns are not known may have the column, so
	// which relation it belongs to cannot be told.
	UnknownSchema
)

// String names the reason.
func (r Reason) String() string {
	switch r {
	case UnknownColumn:
		return "unknown column"
	case AmbiguousColumn:
		return "ambiguous column"
	case UnknownSchema:
		return "table schema unknown"
	}
	return "unresolved"
}

// NaturalJoin is the Unresolved.Name of the keys of a NATURAL join that cannot be told.
const NaturalJoin = "NATURAL JOIN"

// An Unresolved is a column name that name resolution could not place.
type Unresolved struct {
	// Name is the reference as written, lower case ("i_item", "o.id"), or NaturalJoin.
	Name string
	Span plan.Span
	// Reason says why; Relations are the relations it names: those that have the column for
	// AmbiguousColumn, those whose columns are not known for UnknownSchema, the qualifier's
	// relation (or none) for UnknownColumn.
	Reason    Reason
	Relations []string
}

// String describes the name and the reason: "column k is ambiguous between a.k and b.k".
func (u Unresolved) String() string {
	switch u.Reason {
	case AmbiguousColumn:
		rels := make([]string, len(u.Relations))
		for i, r := range u.Relations {
			rels[i] = r + "." + column(u.Name)
		}
		return fmt.Sprintf("column %s is ambiguous between %s", u.Name, joinAnd(rels))
	case UnknownSchema:
		if u.Name == NaturalJoin {
			return fmt.Sprintf("the keys of the NATURAL join cannot be resolved: the columns of %s are not known", joinAnd(u.Relations))
		}
		return fmt.Sprintf("column %s cannot be resolved: the columns of %s are not known", u.Name, joinAnd(u.Relations))
	}
	if len(u.Relations) > 0 {
		return fmt.Sprintf("column %s is not a column of %s", u.Name, joinAnd(u.Relations))
	}
	return fmt.Sprintf("column %s is not a column of any relation in scope", u.Name)
}

// column returns the column part of a reference as written.
func column(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

// joinAnd lists names as "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// A Resolved is a query after name resolution.
type Resolved struct {
	// Query is a copy of the query with its names resolved; the query given is not changed.
	// In it every column reference that resolved (ColumnRef and expression-tree column)
	// carries its relation's name, and its table when the relation is a table scan; join
	// keys are oriented to their sides (LeftKeys on the left); a comma join's keys are the
	// WHERE equalities between its sides; USING and NATURAL joins have their keys; a scan
	// of a view is replaced by the view's query (Relation.View names it), whose CTEs join
	// the query's as "view.cte".
	Query *plan.Query
	// Unresolved are the names that did not resolve, in order of position. A join key pair
	// with an unresolved name stays where the ON clause wrote it, with no relation.
	Unresolved []Unresolved
}

// Complete reports whether every key of the join resolved: each pair has a relation on
// both sides (then LeftKeys belong to the left side and RightKeys to the right).
func Complete(j *plan.JoinSpec) bool {
	if len(j.LeftKeys) != len(j.RightKeys) {
		return false
	}
	for i := range j.LeftKeys {
		if j.LeftKeys[i].Relation == "" || j.RightKeys[i].Relation == "" {
			return false
		}
	}
	return true
}

// maxDepth bounds how deeply views and CTEs are followed, against cycles.
const maxDepth = 16

// Resolve resolves the names of q against cat as Spark's analyzer does. cat may be nil (no
// tables or views known). A nil q gives nil.
func Resolve(cat Catalog, q *plan.Query) *Resolved {
	if q == nil {
		return nil
	}
	if cat == nil {
		cat = emptyCatalog{}
	}
	r := &resolver{cat: cat, q: copyQuery(q), expanding: map[string]bool{}, seen: map[string]bool{}}
	for _, c := range r.q.CTEs {
		r.relation(c.Root)
	}
	r.relation(r.q.Root)
	slices.SortStableFunc(r.out, func(a, b Unresolved) int {
		x, y := a.Span.Start, b.Span.Start
		return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Line, y.Line), cmp.Compare(x.Col, y.Col))
	})
	return &Resolved{Query: r.q, Unresolved: r.out}
}

type emptyCatalog struct{}

func (emptyCatalog) Table(string) *plan.Table { return nil }
func (emptyCatalog) View(string) *plan.Query  { return nil }

// A resolver resolves one query, in place in its copy.
type resolver struct {
	cat Catalog
	q   *plan.Query
	out []Unresolved
	// expanding are the views and CTEs being followed, against cycles; depth is how deep.
	expanding map[string]bool
	depth     int
	// seen are the unresolved names reported, by position and name, reported once.
	seen map[string]bool
	// tables are the columns of the catalogue's tables read so far, by name: the catalogue
	// does not change while a query is resolved, and a chain of joins asks at every join
	// for the columns of every table below it (issue 14).
	tables map[string]columns
}

// report records an unresolved name once.
func (r *resolver) report(u Unresolved) {
	key := fmt.Sprintf("%s:%d:%d:%s", u.Span.Start.File, u.Span.Start.Line, u.Span.Start.Col, u.Name)
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	r.out = append(r.out, u)
}

// relation resolves the names inside a relation and the relations under it.
func (r *resolver) relation(rel *plan.Relation) {
	if rel == nil || r.depth > maxDepth {
		return
	}
	r.depth++
	defer func() { r.depth-- }()
	switch rel.Kind {
	case plan.TableRel:
		if key, ok := r.expandView(rel); ok {
			r.expanding[key] = true
			r.relation(rel)
			delete(r.expanding, key)
		}
	case plan.SelectRel:
		if rel.Select != nil {
			r.selectBlock(rel.Select)
		}
	case plan.SetRel:
		for _, in := range rel.Inputs {
			r.relation(in)
		}
	case plan.JoinRel:
		r.from(rel)
	}
}
