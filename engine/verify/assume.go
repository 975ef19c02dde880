//go:build engine

package verify

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// assumedType is the type given to a column of a table whose columns no source declares (a
// table that code writes with saveAsTable): the simulator plans such a table's bucket columns
// as int, and the verification runs the same plan.
const assumedType = "int"

// assumeColumns returns the catalogues before and after the advice with each table q reads
// that declares no columns given the same columns on both sides: those q names on it and its
// bucket, sort and partition columns on either side, each as int; and the notes that say so.
// The maps given are not changed. A table with declared columns is kept.
func assumeColumns(before, after map[string]*plan.Table, q *plan.Query) (b, a map[string]*plan.Table, notes []string) {
	if q == nil {
		return before, after, nil
	}
	cols, notes := columnsToAssume(before, after, q)
	return withColumns(before, cols), withColumns(after, cols), notes
}

// withColumns returns tables with the given columns set on the tables they name.
func withColumns(tables map[string]*plan.Table, cols map[string][]plan.Column) map[string]*plan.Table {
	if len(cols) == 0 {
		return tables
	}
	out := make(map[string]*plan.Table, len(tables))
	for k, t := range tables {
		if c, ok := cols[k]; ok {
			cp := *t
			cp.Columns = c
			t = &cp
		}
		out[k] = t
	}
	return out
}

// columnsToAssume returns, by catalogue key, the columns to give each table q reads that
// declares no columns, and a note for each.
func columnsToAssume(tables, after map[string]*plan.Table, q *plan.Query) (map[string][]plan.Column, []string) {
	named := queryColumns(q)
	out := map[string][]plan.Column{}
	var notes []string
	keys := make([]string, 0, len(tables))
	for k := range tables {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t := tables[k]
		cols, read := named[strings.ToLower(t.Name)]
		if len(t.Columns) > 0 || !read {
			continue
		}
		for _, side := range []*plan.Table{t, after[k]} {
			if b := bucketsOf(side); b != nil {
				cols = append(append(cols, b.Columns...), b.SortColumns...)
			}
		}
		cols = append(cols, t.PartitionColumns...)
		var assumed []plan.Column
		seen := map[string]bool{}
		var names []string
		for _, c := range cols {
			c = strings.ToLower(c)
			if c == "" || seen[c] {
				continue
			}
			seen[c] = true
			names = append(names, c)
			assumed = append(assumed, plan.Column{Name: c, Type: assumedType})
		}
		if len(assumed) == 0 {
			continue
		}
		out[k] = assumed
		notes = append(notes, fmt.Sprintf("%s declares no columns: verified with the columns the query names on it, as %s (%s)", t.Name, assumedType, strings.Join(names, ", ")))
	}
	return out, notes
}

// queryColumns returns, by table name (lower case), the columns q names on that table: the
// columns its trees and keys qualify by the table's relation and the columns of its USING
// joins. A table read by no relation of q is absent; one q names no column of is present
// with none.
func queryColumns(q *plan.Query) map[string][]string {
	byRel := map[string]string{}
	out := map[string][]string{}
	var rels []*plan.Relation
	q.WalkRelations(func(r *plan.Relation) bool {
		rels = append(rels, r)
		if r.Kind == plan.TableRel && !r.CTE {
			name := strings.ToLower(r.Table)
			byRel[strings.ToLower(r.Name())] = name
			if _, ok := out[name]; !ok {
				out[name] = nil
			}
		}
		return true
	})
	add := func(qual, col string) {
		if t, ok := byRel[strings.ToLower(qual)]; ok && col != "" && !slices.Contains(out[t], col) {
			out[t] = append(out[t], strings.ToLower(col))
		}
	}
	keys := func(ks []plan.ColumnRef) {
		for _, k := range ks {
			add(k.Qualifier, k.Column)
			add(k.Relation, k.Column)
		}
	}
	for _, r := range rels {
		switch {
		case r.Kind == plan.JoinRel && r.Join != nil:
			keys(r.Join.LeftKeys)
			keys(r.Join.RightKeys)
			for _, c := range r.Join.Using {
				for _, side := range []*plan.Relation{r.Join.Left, r.Join.Right} {
					if side.Kind == plan.TableRel {
						add(side.Name(), c)
					}
				}
			}
		case r.Kind == plan.SelectRel && r.Select != nil:
			keys(r.Select.GroupBy)
			for _, x := range r.Select.ItemsX {
				for _, c := range x.Columns() {
					add(c.Qualifier, c.Name)
				}
			}
		}
	}
	return out
}

// bucketsOf is t's bucket spec, nil for none or no table.
func bucketsOf(t *plan.Table) *plan.BucketSpec {
	if t == nil {
		return nil
	}
	return t.Buckets()
}
