//go:build engine

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
	x := treeOf(e)
	if x.Op == plan.OpColumn {
		return s.resolveX(x)
	}
	for i, c := range s {
		if strings.EqualFold(c.Name, e.Text()) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unsupported expression %q: only column references are evaluated here", e.Raw)
}

// resolveX finds the column a column reference names.
func (s schema) resolveX(x *plan.X) (int, error) {
	name := x.Name
	if x.Qualifier != "" {
		name = x.Qualifier + "." + name
	}
	c, err := s.lookup(name, x.ID)
	if err != nil {
		return 0, fmt.Errorf("column %s %w", x.Raw, err)
	}
	return c, nil
}

// treeOf returns the expression's tree: the one its parser or the simulator built, else, for
// an expression made without one, a column reference when it is one attribute (Refs) and an
// OpOther of its text otherwise (which no operator evaluates).
func treeOf(e plan.Expr) *plan.X {
	if e.Tree() != nil {
		return e.Tree()
	}
	if name, ok := e.Column(); ok {
		r := e.Refs()[0]
		return &plan.X{Op: plan.OpColumn, Name: name, ID: r.ID, Long: r.Long, Raw: e.Raw}
	}
	return &plan.X{Op: plan.OpOther, Raw: e.Raw}
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

// attrOf returns the name and id of an output expression: "x#3 AS y#7" is y#7, "k#1" is k#1,
// anything else its text without ids.
func attrOf(e plan.Expr) (name, id string) {
	switch x := treeOf(e); x.Op {
	case plan.OpColumn:
		return x.Name, x.ID
	case plan.OpAlias:
		return x.Name, x.ID
	}
	return e.Text(), ""
}
