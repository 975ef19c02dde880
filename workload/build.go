package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// buildCatalogue makes the catalogue every script shares: the tables the parser merged from
// every source (each conflict kept with both positions), the tables code writes with a layout
// (saveAsTable's bucketBy, writeTo's partitionedBy transforms) that no other source declares, Spark's defaults for tables whose definition
// names no format, and the views scripts define with CREATE VIEW.
func (w *Workload) buildCatalogue() {
	p := w.project
	c := newCatalogue()
	for k, t := range p.Tables {
		cp := *t
		c.tables[normName(k)] = &cp
	}
	w.conflicts = append(w.conflicts, p.Conflicts...)
	for _, cf := range p.Code {
		for _, wr := range cf.Writes {
			t, ok := plan.TableOfWrite(wr)
			if !ok || t.Layout == nil || c.Table(wr.Table) != nil {
				continue
			}
			t.Name = normName(wr.Table)
			c.tables[t.Name] = t
		}
	}
	w.catalogue = c
	w.applyDefaults()
	for _, q := range p.Queries {
		if q.View && !q.Temp && q.Target != "" {
			w.addView(q)
		}
	}
}

// applyDefaults gives each table whose definitions name no format the one Spark gives it,
// under the settings in force where the table is first defined: a CREATE TABLE is Hive-serde
// before Spark 4.0 (spark.sql.legacy.createHiveTableByDefault) and a
// spark.sql.sources.default table from 4.0; saveAsTable without format() writes
// spark.sql.sources.default.
func (w *Workload) applyDefaults() {
	defining := map[plan.Pos]*plan.TableEvent{}
	for i := range w.project.TableEvents {
		e := &w.project.TableEvents[i]
		if e.Kind == plan.CreateTable || e.Kind == plan.WriteTable {
			defining[e.Pos] = e
		}
	}
	for k, t := range w.catalogue.tables {
		if !namesNoFormat(t) {
			continue
		}
		var first *plan.TableEvent
		for _, s := range t.Sources {
			e := defining[s]
			if e == nil {
				continue
			}
			// A CREATE TABLE decides over a write; among equals the first in the files does.
			if first == nil || e.Kind == plan.CreateTable && first.Kind != plan.CreateTable ||
				e.Kind == first.Kind && e.Pos.Before(first.Pos) {
				first = e
			}
		}
		if first != nil {
			w.catalogue.tables[k] = withDefaultFormat(t, first.Kind, w.confsAt(first.Pos))
		}
	}
}

// addView adds a CREATE VIEW to the shared catalogue. A second definition of the same name
// that differs is a conflict; the first in the files is kept.
func (w *Workload) addView(q *plan.Query) {
	n := normName(q.Target)
	if old, ok := w.catalogue.views[n]; ok {
		if old.Query != nil && sameText(old.Query.Text, q.Text) {
			return
		}
		w.conflicts = append(w.conflicts, plan.Conflict{
			Table: n, Fact: "view", Kept: old.Pos, KeptValue: firstLine(old.Query), Other: q.Span.Start, OtherValue: firstLine(q),
		})
		return
	}
	w.catalogue.views[n] = &View{Name: n, Query: q, Pos: q.Span.Start}
}

// sameText compares statements ignoring case and spacing.
func sameText(a, b string) bool {
	return strings.Join(strings.Fields(strings.ToLower(a)), " ") == strings.Join(strings.Fields(strings.ToLower(b)), " ")
}

// firstLine is a view's definition cut to its first line, for a conflict message.
func firstLine(q *plan.Query) string {
	if q == nil {
		return "(unknown)"
	}
	s := strings.TrimSpace(q.Text)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return "(" + s + ")"
}
