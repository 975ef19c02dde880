package parser

import (
	"sort"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// addSQL records what a SQL file (or the SQL strings of a code file) declares and runs.
// Tables and changes are replayed in statement order: an ALTER of a table the file created
// changes that table (ADD COLUMNS, RENAME TO, SET LOCATION, CLUSTER BY); a CREATE after a
// DROP of the same table replaces it; an ALTER of a table declared elsewhere waits for the
// merge. Bucket-changing ALTERs are not applied, as Spark rejects them ("Operation not
// allowed"); a table dropped and not created again is kept, as the statements before the
// DROP ran against it.
func (r *result) addSQL(f *sql.File, rk rank) {
	if f == nil {
		return
	}
	r.queries = append(r.queries, f.Queries...)
	r.confs = append(r.confs, f.Confs...)
	type event struct {
		pos plan.Pos
		t   *plan.Table
		ch  *sql.Change
	}
	events := make([]event, 0, len(f.Tables)+len(f.Changes))
	for _, t := range f.Tables {
		var pos plan.Pos
		if len(t.Sources) > 0 {
			pos = t.Sources[0]
		}
		events = append(events, event{pos: pos, t: t})
	}
	for i := range f.Changes {
		events = append(events, event{pos: f.Changes[i].Pos, ch: &f.Changes[i]})
	}
	sort.SliceStable(events, func(i, j int) bool { return events[i].pos.Before(events[j].pos) })
	declared := map[string]int{}
	dropped := map[string]bool{}
	for _, e := range events {
		r.event(e.pos, e.t, e.ch)
		if e.t != nil {
			fa := fact{t: e.t, rank: rk, partial: e.t.Like != ""}
			if i, ok := declared[e.t.Name]; ok && dropped[e.t.Name] {
				r.tables[i] = fa
			} else {
				declared[e.t.Name] = len(r.tables)
				r.tables = append(r.tables, fa)
			}
			dropped[e.t.Name] = false
			continue
		}
		i, ok := declared[e.ch.Table]
		if !ok {
			r.changes = append(r.changes, *e.ch)
			continue
		}
		if e.ch.Kind == sql.ChangeDrop {
			dropped[e.ch.Table] = true
			continue
		}
		if e.ch.Kind == sql.ChangeRename {
			delete(declared, e.ch.Table)
			declared[e.ch.NewName] = i
		}
		applyChange(r.tables[i].t, e.ch)
	}
}

// event records a statement that changes which tables a session sees or how it reads them: a
// CREATE, a DROP, a RENAME or a CACHE TABLE. The created table is the fact itself, so that
// the file's later ALTERs show in it.
func (r *result) event(pos plan.Pos, t *plan.Table, ch *sql.Change) {
	switch {
	case t != nil:
		r.events = append(r.events, plan.TableEvent{Kind: plan.CreateTable, Pos: pos, Name: t.Name, Table: t})
	case ch.Kind == sql.ChangeDrop:
		r.events = append(r.events, plan.TableEvent{Kind: plan.DropTable, Pos: pos, Name: ch.Table})
	case ch.Kind == sql.ChangeRename:
		r.events = append(r.events, plan.TableEvent{Kind: plan.RenameTable, Pos: pos, Name: ch.Table, NewName: ch.NewName})
	case ch.Kind == sql.ChangeCache:
		r.events = append(r.events, plan.TableEvent{Kind: plan.CacheTable, Pos: pos, Name: ch.Table})
	}
}

// applyChange applies an ALTER TABLE that changes what bucketlint models of a table.
func applyChange(t *plan.Table, ch *sql.Change) {
	switch ch.Kind {
	case sql.ChangeAddColumns:
		for _, c := range ch.Columns {
			if _, ok := t.Column(c.Name); !ok {
				t.Columns = append(t.Columns, c)
			}
		}
	case sql.ChangeRename:
		t.Name = ch.NewName
	case sql.ChangeSetLocation:
		t.Location = ch.Location
	case sql.ChangeClusterBy:
		t.Layout = &plan.Clustering{Columns: ch.ClusterBy}
	}
}
