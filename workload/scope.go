package workload

import (
	"slices"

	"github.com/bucketlint/bucketlint/plan"
)

// apply replays one step of a session on its catalogue.
func (w *Workload) apply(c *Catalogue, e *event) {
	switch {
	case e.view != nil:
		c.defineView(&View{Name: e.view.Target, Query: e.view, Temp: e.view.Temp, Pos: e.pos})
	case e.temp != nil:
		c.defineView(&View{Name: e.temp.Name, Temp: true, Pos: e.pos})
	case e.table != nil:
		w.applyTable(c, e.table)
	}
}

// applyTable replays a CREATE, write, DROP or RENAME.
func (w *Workload) applyTable(c *Catalogue, e *plan.TableEvent) {
	switch e.Kind {
	case plan.CreateTable, plan.WriteTable:
		if t := w.sessionTable(e); t != nil {
			c.define(e.Name, t)
		}
	case plan.DropTable:
		c.drop(e.Name)
	case plan.RenameTable:
		if t := c.drop(e.Name); t != nil {
			r := *t
			r.Name = normName(e.NewName)
			c.define(e.NewName, &r)
		}
	}
}

// sessionTable is the table a CREATE or a write defines for the rest of its session: the
// shared catalogue's entry when that entry holds this definition (the catalogue adds what
// other sources know, such as statistics), else the definition itself with Spark's defaults
// applied, as another script or a later statement defines the shared entry differently.
func (w *Workload) sessionTable(e *plan.TableEvent) *plan.Table {
	if e.Table == nil {
		return nil
	}
	if t := w.catalogue.Table(e.Name); t != nil && w.holds(t, e) {
		return t
	}
	t := withDefaultFormat(e.Table, e.Kind, w.confsAt(e.Pos))
	if n, ok := w.sizeOf(e.Name); ok {
		c := *t
		c.SizeInBytes = n
		t = &c
	}
	return t
}

// holds reports whether the catalogue's table t is the one e defines: e is among t's sources
// and no conflict sets e's value aside.
func (w *Workload) holds(t *plan.Table, e *plan.TableEvent) bool {
	if !slices.Contains(t.Sources, e.Pos) {
		return false
	}
	for _, c := range w.conflicts {
		if c.Other == e.Pos {
			return false
		}
	}
	return true
}

// sizeOf returns the size the command line gives the table name refers to.
func (w *Workload) sizeOf(name string) (int64, bool) {
	n := normName(name)
	for k, v := range w.cfg.Sizes {
		if normName(k) == n || w.catalogue.key(k) == w.catalogue.key(n) && w.catalogue.key(n) != "" {
			return v, true
		}
	}
	return 0, false
}
