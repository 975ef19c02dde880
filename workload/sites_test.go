package workload

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

func TestCanBuild(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		typ         string
		left, right bool
	}{
		{"Inner", true, true},
		{"LeftOuter", false, true},
		{"RightOuter", true, false},
		{"FullOuter", false, false},
		{"LeftSemi", false, true},
		{"LeftAnti", false, true},
	} {
		if canBuild(tc.typ, 0) != tc.left || canBuild(tc.typ, 1) != tc.right {
			t.Errorf("canBuild(%s) = %v, %v; want %v, %v", tc.typ, canBuild(tc.typ, 0), canBuild(tc.typ, 1), tc.left, tc.right)
		}
	}
}

// TestClassify checks the causes the site analysis gives each layout of two joined tables.
func TestClassify(t *testing.T) {
	t.Parallel()
	table := func(name, typ string, n int, size int64, cols ...string) *plan.Table {
		t := &plan.Table{Name: name, SizeInBytes: size, Columns: []plan.Column{{Name: "k", Type: typ}, {Name: "v", Type: "int"}}}
		if len(cols) > 0 {
			t.SetBuckets(&plan.BucketSpec{NumBuckets: n, Columns: cols})
		}
		return t
	}
	side := func(t *plan.Table, cols ...string) Side {
		s := Side{JoinSide: simulate.JoinSide{Label: t.Name, Table: t}}
		for _, c := range cols {
			s.Keys = append(s.Keys, plan.ColumnRef{Column: c, Text: c, Table: t.Name})
		}
		return s
	}
	const big = 1 << 40
	a8 := table("a", "int", 8, big, "k")
	v35 := simulate.Options{SparkVersion: simulate.Version{Major: 3, Minor: 5, Patch: -1}}
	v32 := simulate.Options{SparkVersion: simulate.Version{Major: 3, Minor: 2, Patch: -1}}
	tests := []struct {
		name        string
		left, right Side
		opts        simulate.Options
		known       bool
		shuffled    [2]bool
		free        bool
		join        string
		left2       string
		right2      string
	}{
		{"counts", side(a8, "k"), side(table("c", "int", 4, big, "k"), "k"), v35, false, [2]bool{}, false, "count-mismatch", "", ""},
		{"counts, coalescing off", side(a8, "k"), side(table("c", "int", 4, big, "k"), "k"), v35, false, [2]bool{}, true, "count-mismatch coalesce-off", "", ""},
		{"counts, simulated without shuffle", side(a8, "k"), side(table("c", "int", 4, big, "k"), "k"), v35, true, [2]bool{}, false, "", "", ""},
		{"order", side(table("e", "int", 8, big, "k", "v"), "k", "v"), side(table("f", "int", 8, big, "v", "k"), "k", "v"), v35, false, [2]bool{}, false, "key-order", "", ""},
		{"cast", side(a8, "k"), side(table("g", "bigint", 8, big, "k"), "k"), v35, true, [2]bool{true, false}, false, "key-cast", "", ""},
		{"alike", side(a8, "k"), side(table("b", "int", 8, big, "k"), "k"), v35, true, [2]bool{}, false, "satisfied", "", ""},
		{"one side", side(a8, "k"), side(table("d", "int", 0, big), "k"), v35, false, [2]bool{}, false, "", "", "unbucketed"},
		{"one side, small", side(a8, "k"), side(table("d", "int", 0, 1024), "k"), v35, false, [2]bool{}, false, "", "", "join-strategy"},
		{"subset", side(a8, "k", "v"), side(table("b", "int", 8, big, "k", "v"), "k", "v"), v35, true, [2]bool{true, false}, false, "", "bucket-keys-subset", ""},
		{"before 3.3", side(a8, "k"), side(table("d", "int", 0, big), "k"), v32, true, [2]bool{true, true}, false, "", "shuffle-partitions", "unbucketed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := &Site{Type: "Inner", Left: tc.left, Right: tc.right, Options: tc.opts, Known: tc.known}
			s.Left.Shuffled, s.Right.Shuffled = tc.shuffled[0], tc.shuffled[1]
			s.Classify(10<<20, func(*Site, map[string]string) bool { return tc.free })
			if got := causeNames(s.Causes); got != tc.join {
				t.Errorf("join causes %q, want %q", got, tc.join)
			}
			if got := causeNames(s.Left.Causes); got != tc.left2 {
				t.Errorf("left causes %q, want %q", got, tc.left2)
			}
			if got := causeNames(s.Right.Causes); got != tc.right2 {
				t.Errorf("right causes %q, want %q", got, tc.right2)
			}
		})
	}
}

func causeNames(s CauseSet) string {
	var out []string
	for _, c := range simulate.Causes() {
		if s.Has(c) {
			out = append(out, c.String())
		}
	}
	return strings.Join(out, " ")
}

// TestExprKey reads a printed join key from its tree: a column, or a cast of one.
func TestExprKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, col, typ string }{
		{"cast(a#1 as bigint)", "a", "bigint"},
		{"CAST(customer_id#3 AS DECIMAL(20,0))", "customer_id", "decimal(20,0)"},
		{"cast((a#1 + 1) as bigint)", "", ""},
		{"try_cast(a#1 as bigint)", "", ""},
		{"A#1", "a", ""},
	} {
		k := exprKey(explain.ParseExpr(tc.in), "t", plan.Pos{})
		if k.Column != tc.col || k.Cast != tc.typ {
			t.Errorf("exprKey(%q) = %q, %q; want %q, %q", tc.in, k.Column, k.Cast, tc.col, tc.typ)
		}
	}
}
