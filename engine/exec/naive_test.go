//go:build engine

package exec

import (
	"bytes"
	"cmp"
	"slices"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"

	"github.com/bucketlint/bucketlint/parser/explain"
)

// The naive reference: relations as rows of cells, joined with nested loops and grouped by
// linear search. Slow and obviously right.

type cell struct {
	null bool
	i    int64
	f    float64
	s    string
}

type relation struct {
	types []hash.Type
	rows  [][]cell
}

func cellOf(v *store.Vec, r int) cell {
	switch {
	case v.IsNull(r):
		return cell{null: true}
	case v.Kind == store.KindInt64:
		return cell{i: v.Ints[r]}
	case v.Kind == store.KindFloat64:
		return cell{f: v.Floats[r]}
	}
	return cell{s: string(v.Bytes(r))}
}

func relationOf(t *testing.T, tab *store.Table, cols []string) relation {
	t.Helper()
	idx, err := tab.Schema.Indexes(cols)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tab.ReadAll(idx, store.Pruning{})
	if err != nil {
		t.Fatal(err)
	}
	rel := relation{}
	for _, c := range b.Cols {
		rel.types = append(rel.types, c.Type)
	}
	for r := range b.Len {
		row := make([]cell, len(b.Cols))
		for c, v := range b.Cols {
			row[c] = cellOf(v, r)
		}
		rel.rows = append(rel.rows, row)
	}
	return rel
}

func cmpCell(a, b cell) int {
	switch {
	case a.null || b.null:
		return cmp.Compare(b2i(!a.null), b2i(!b.null))
	case a.s != "" || b.s != "":
		return cmp.Compare(a.s, b.s)
	case a.f != 0 || b.f != 0:
		return cmp.Compare(a.f, b.f)
	}
	return cmp.Compare(a.i, b.i)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// canonical renders the relation's rows as the engine's canonical text, sorted.
func (r relation) canonical() []string {
	b := store.NewBatch(r.types, len(r.rows))
	for _, row := range r.rows {
		for c, v := range row {
			vec := b.Cols[c]
			switch {
			case v.null:
				vec.AppendNull()
			case vec.Kind == store.KindInt64:
				vec.AppendInt(v.i)
			case vec.Kind == store.KindFloat64:
				vec.AppendFloat(v.f)
			default:
				vec.AppendString(v.s)
			}
		}
	}
	var out []string
	var buf []byte
	for i := range len(r.rows) {
		buf = AppendCanonical(buf[:0], b.Cols, i)
		out = append(out, string(buf))
	}
	slices.Sort(out)
	return out
}

func nullRow(n int) []cell {
	row := make([]cell, n)
	for i := range row {
		row[i].null = true
	}
	return row
}

func keyEq(l, r []cell, lk, rk []int) bool {
	for i := range lk {
		a, b := l[lk[i]], r[rk[i]]
		if a.null || b.null || cmpCell(a, b) != 0 {
			return false
		}
	}
	return true
}

// naiveJoin is a nested-loop equi-join.
func naiveJoin(typ string, l, r relation, lk, rk []int) relation {
	out := relation{types: append(slices.Clone(l.types), r.types...)}
	if typ == "LeftSemi" || typ == "LeftAnti" {
		out.types = l.types
	}
	rMatched := make([]bool, len(r.rows))
	for _, lr := range l.rows {
		found := false
		for j, rr := range r.rows {
			if keyEq(lr, rr, lk, rk) {
				found = true
				rMatched[j] = true
				if typ != "LeftSemi" && typ != "LeftAnti" {
					out.rows = append(out.rows, append(slices.Clone(lr), rr...))
				}
			}
		}
		switch {
		case typ == "LeftSemi" && found, typ == "LeftAnti" && !found:
			out.rows = append(out.rows, lr)
		case !found && (typ == "LeftOuter" || typ == "FullOuter"):
			out.rows = append(out.rows, append(slices.Clone(lr), nullRow(len(r.types))...))
		}
	}
	if typ == "RightOuter" || typ == "FullOuter" {
		for j, rr := range r.rows {
			if !rMatched[j] {
				out.rows = append(out.rows, append(nullRow(len(l.types)), rr...))
			}
		}
	}
	return out
}

// naiveGroup groups by key columns and applies count(*), count(c), sum, min, max, avg.
func naiveGroup(rel relation, keys []int, fns []string, args []int, types []hash.Type) relation {
	out := relation{}
	for _, k := range keys {
		out.types = append(out.types, rel.types[k])
	}
	out.types = append(out.types, types...)
	var groups [][]cell
	var members [][][]cell
	for _, row := range rel.rows {
		g := -1
		for i, gk := range groups {
			same := true
			for j, k := range keys {
				if (gk[j].null != row[k].null) || (!gk[j].null && cmpCell(gk[j], row[k]) != 0) {
					same = false
				}
			}
			if same {
				g = i
				break
			}
		}
		if g < 0 {
			var gk []cell
			for _, k := range keys {
				gk = append(gk, row[k])
			}
			groups = append(groups, gk)
			members = append(members, nil)
			g = len(groups) - 1
		}
		members[g] = append(members[g], row)
	}
	if len(keys) == 0 && len(groups) == 0 {
		groups, members = [][]cell{{}}, [][][]cell{nil}
	}
	for g, gk := range groups {
		row := slices.Clone(gk)
		for i, fn := range fns {
			row = append(row, naiveAgg(fn, members[g], args[i], rel.types))
		}
		out.rows = append(out.rows, row)
	}
	return out
}

func naiveAgg(fn string, rows [][]cell, arg int, types []hash.Type) cell {
	var vals []cell
	for _, r := range rows {
		if arg < 0 || !r[arg].null {
			if arg < 0 {
				vals = append(vals, cell{})
			} else {
				vals = append(vals, r[arg])
			}
		}
	}
	if fn == "count" {
		return cell{i: int64(len(vals))}
	}
	if len(vals) == 0 {
		return cell{null: true}
	}
	float := types[arg].Kind == hash.KindDouble || types[arg].Kind == hash.KindFloat
	switch fn {
	case "sum", "avg":
		var c cell
		for _, v := range vals {
			c.i += v.i
			c.f += v.f
		}
		if fn == "avg" {
			if !float {
				c.f = float64(c.i)
			}
			return cell{f: c.f / float64(len(vals))}
		}
		return c
	case "min":
		return slices.MinFunc(vals, cmpCell)
	}
	return slices.MaxFunc(vals, cmpCell)
}

// filterRows keeps rows for which keep is true.
func filterRows(rel relation, keep func([]cell) bool) relation {
	out := relation{types: rel.types}
	for _, r := range rel.rows {
		if keep(r) {
			out.rows = append(out.rows, r)
		}
	}
	return out
}

// Plan builders.

// px reads an expression as parser/explain reads Spark's plans (and SQL conditions), with
// its tree.
func px(s string) plan.Expr { return explain.ParseExpr(s) }

// pxs reads each expression.
func pxs(ss ...string) []plan.Expr {
	if len(ss) == 0 {
		return nil
	}
	out := make([]plan.Expr, len(ss))
	for i, s := range ss {
		out[i] = px(s)
	}
	return out
}

func attr(name string) plan.Expr {
	return plan.NewExpr(name, name, []plan.Attr{{Name: name}}, nil)
}

func attrs(names ...string) []plan.Expr {
	out := make([]plan.Expr, len(names))
	for i, n := range names {
		out[i] = attr(n)
	}
	return out
}

func fileScan(table string, bucketed bool, cols ...string) *plan.FileScan {
	s := &plan.FileScan{OpInfo: plan.OpInfo{Name: "FileScan"}, Format: "parquet", Table: table, Output: attrs(cols...)}
	s.Bucketed = &bucketed
	return s
}

func exchange(child plan.Node, n int, keys ...string) *plan.Exchange {
	return &plan.Exchange{
		OpInfo:       plan.OpInfo{Name: "Exchange", Kids: []plan.Node{child}},
		Partitioning: plan.Partitioning{Kind: plan.HashPartitioning, Keys: attrs(keys...), NumPartitions: n},
	}
}

func joinNode(strategy plan.JoinStrategy, typ, build string, lk, rk []string, l, r plan.Node) plan.Node {
	j := plan.Join{Strategy: strategy, Type: typ, LeftKeys: attrs(lk...), RightKeys: attrs(rk...), BuildSide: build}
	info := plan.OpInfo{Name: string(strategy), Kids: []plan.Node{l, r}}
	switch strategy {
	case plan.ShuffledHashJoinStrategy:
		return &plan.ShuffledHashJoin{OpInfo: info, Join: j}
	case plan.BroadcastHashJoinStrategy:
		return &plan.BroadcastHashJoin{OpInfo: info, Join: j}
	}
	return &plan.SortMergeJoin{OpInfo: info, Join: j}
}

func sortNode(child plan.Node, keys ...string) *plan.Sort {
	s := &plan.Sort{OpInfo: plan.OpInfo{Name: "Sort", Kids: []plan.Node{child}}}
	for _, k := range keys {
		s.Orders = append(s.Orders, plan.SortOrder{Expr: attr(k), NullsFirst: true})
	}
	return s
}

func broadcast(child plan.Node) *plan.BroadcastExchange {
	return &plan.BroadcastExchange{OpInfo: plan.OpInfo{Name: "BroadcastExchange", Kids: []plan.Node{child}}}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return string(bytes.ReplaceAll([]byte(a[i]+" vs "+b[i]), []byte{0x1f}, []byte("|")))
		}
	}
	return "one is a prefix of the other"
}
