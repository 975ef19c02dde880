package workload

import (
	"maps"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A Catalogue is the tables and views one session sees at one position: the catalogue shared
// by every script (Workload.Catalogue), or that catalogue with the session's own CREATE,
// DROP, RENAME and temporary views applied (Workload.CatalogueAt). It is read-only.
//
// Names are looked up as Spark resolves them against a catalogue bucketlint only partly
// knows: exactly, without a leading "spark_catalog.", with or without the "default."
// database, and by the last part of the name when exactly one table has it.
type Catalogue struct {
	tables map[string]*plan.Table
	views  map[string]*View
	// gone are the names that resolve to nothing in this scope: tables the session dropped,
	// and temporary views whose body is not known.
	gone map[string]bool
}

// A View is a view of the catalogue or of one session.
type View struct {
	// Name is the view's name, lower case, as qualified as its definition gives it.
	Name string
	// Query is the view's body; nil when it is not known (a temporary view registered from a
	// DataFrame: reading it resolves to nothing rather than to a guess).
	Query *plan.Query
	// Temp is set for a temporary view, which only its session sees.
	Temp bool
	// Pos is where the view is defined.
	Pos plan.Pos
}

func newCatalogue() *Catalogue {
	return &Catalogue{tables: map[string]*plan.Table{}, views: map[string]*View{}, gone: map[string]bool{}}
}

// clone returns a copy whose maps can change without changing c.
func (c *Catalogue) clone() *Catalogue {
	return &Catalogue{tables: maps.Clone(c.tables), views: maps.Clone(c.views), gone: maps.Clone(c.gone)}
}

// normName is a name as the catalogue keys it: its parts (plan.NameParts; the parser's names
// are plan.JoinName's, and a name given on the command line or by an API caller may quote any
// part, `sales`.`orders`), lower case, without a leading spark_catalog, joined again as
// plan.JoinName writes them. On a name the parser gave it changes nothing; a name without
// backquotes is only lower-cased (a template's placeholder, ${db}.t, stays as written).
func normName(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if !strings.Contains(n, "`") || !plan.NameClosed(n) {
		return strings.TrimPrefix(n, "spark_catalog.") // no identifier Spark reads: names no table
	}
	parts := plan.NameParts(n)
	if len(parts) > 1 && parts[0] == "spark_catalog" {
		parts = parts[1:]
	}
	return plan.JoinName(parts...)
}

// key returns the key of the table a name refers to, "" when none does.
func (c *Catalogue) key(name string) string {
	n := normName(name)
	if n == "" || c.gone[n] {
		return ""
	}
	for _, k := range []string{n, strings.TrimPrefix(n, "default."), "default." + n} {
		if _, ok := c.tables[k]; ok {
			return k
		}
	}
	qualified := len(plan.NameParts(n)) > 1
	found := ""
	for k := range c.tables {
		if !sameTable(k, n, qualified) {
			continue
		}
		if found != "" {
			return "" // two tables end in the name: it does not resolve
		}
		found = k
	}
	if c.gone[found] {
		return ""
	}
	return found
}

// Table returns the table a name refers to in this scope, nil when it names no table (or a
// view, a dropped table, or two tables equally).
func (c *Catalogue) Table(name string) *plan.Table {
	if c == nil {
		return nil
	}
	if _, isView := c.views[normName(name)]; isView {
		return nil
	}
	return c.tables[c.key(name)]
}

// View returns the body of the view a name refers to in this scope, nil when it names no view
// or a view whose body is not known.
func (c *Catalogue) View(name string) *plan.Query {
	if v := c.ViewEntry(name); v != nil {
		return v.Query
	}
	return nil
}

// ViewEntry returns the view a name refers to in this scope, nil when it names none.
func (c *Catalogue) ViewEntry(name string) *View {
	if c == nil {
		return nil
	}
	n := normName(name)
	if v, ok := c.views[n]; ok {
		return v
	}
	if v, ok := c.views[strings.TrimPrefix(n, "default.")]; ok {
		return v
	}
	return c.views["default."+n]
}

// Tables returns the tables of the scope by key (lower case, as qualified as their source
// gave them), for the simulator and the advisor. The map is shared: do not change it.
func (c *Catalogue) Tables() map[string]*plan.Table { return c.tables }

// Sorted returns the tables in name order.
func (c *Catalogue) Sorted() []*plan.Table {
	keys := make([]string, 0, len(c.tables))
	for k := range c.tables {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*plan.Table, len(keys))
	for i, k := range keys {
		out[i] = c.tables[k]
	}
	return out
}

// Views returns the views of the scope in name order.
func (c *Catalogue) Views() []*View {
	out := make([]*View, 0, len(c.views))
	for _, v := range c.views {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// define puts a table into the scope under name, replacing the table name resolves to.
func (c *Catalogue) define(name string, t *plan.Table) {
	n := normName(name)
	if k := c.key(n); k != "" && k != n {
		c.tables[k] = t
	}
	c.tables[n] = t
	delete(c.gone, n)
	delete(c.views, n)
}

// drop removes the table name resolves to from the scope, and returns it.
func (c *Catalogue) drop(name string) *plan.Table {
	n := normName(name)
	k := c.key(n)
	t := c.tables[k]
	delete(c.tables, n)
	c.gone[n] = true
	if k != "" {
		delete(c.tables, k)
		c.gone[k] = true
	}
	return t
}

// defineView puts a view into the scope; a view whose body is unknown makes its name resolve
// to nothing.
func (c *Catalogue) defineView(v *View) {
	n := normName(v.Name)
	c.views[n] = v
	delete(c.tables, n)
	if v.Query == nil {
		c.gone[n] = true
	} else {
		delete(c.gone, n)
	}
}
