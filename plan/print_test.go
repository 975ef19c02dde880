package plan

import (
	"strings"
	"testing"
)

func attr(name, id string) Expr {
	return NewExpr(name+"#"+id, name, []Attr{{Name: name, ID: id}}, nil)
}

func TestFprintShowsAShuffledJoin(t *testing.T) {
	t.Parallel()
	yes := true
	left := &Exchange{
		OpInfo:       OpInfo{Name: "Exchange", Pos: Pos{Line: 4, Col: 10}},
		Partitioning: Partitioning{Kind: HashPartitioning, Keys: []Expr{attr("id", "1")}, NumPartitions: 16},
		Origin:       "ENSURE_REQUIREMENTS", PlanID: "7",
	}
	left.Kids = []Node{&FileScan{
		OpInfo: OpInfo{Name: "FileScan", Pos: Pos{Line: 5, Col: 13}, CodegenStage: 1},
		Format: "parquet", Table: "default.a", Bucketed: &yes, SelectedBuckets: 8, TotalBuckets: 8,
	}}
	smj := &SortMergeJoin{
		OpInfo: OpInfo{Name: "SortMergeJoin", Pos: Pos{Line: 2, Col: 1}, CodegenStage: 3},
		Join:   Join{Strategy: SortMergeJoinStrategy, Type: "Inner", LeftKeys: []Expr{attr("id", "1")}, RightKeys: []Expr{attr("id", "2")}},
	}
	smj.Kids = []Node{left}
	e := &Explain{
		File: "x.txt", Mode: "simple", Pos: Pos{File: "x.txt", Line: 1, Col: 1},
		Plans: []Section{{Name: "Physical Plan", Root: smj, Pos: Pos{Line: 1}}},
	}
	var b strings.Builder
	if err := Fprint(&b, e); err != nil {
		t.Fatal(err)
	}
	want := `explain x.txt:1:1 mode=simple
  section "Physical Plan" @1
    SortMergeJoin @2:1 codegen=3 type=Inner left=[id] right=[id]
      Exchange @4:10 partitioning=hashpartitioning keys=[id] n=16 origin=ENSURE_REQUIREMENTS plan_id=7
        FileScan @5:13 codegen=1 format=parquet table=default.a bucketed=true buckets=8/8
`
	if got := b.String(); got != want {
		t.Errorf("Fprint:\n%s\nwant:\n%s", got, want)
	}
}

func TestAdaptiveEffectivePlan(t *testing.T) {
	t.Parallel()
	final := &Generic{OpInfo: OpInfo{Name: "Final"}}
	initial := &Generic{OpInfo: OpInfo{Name: "Initial"}}
	a := &AdaptiveSparkPlan{IsFinalPlan: true, Plans: []AdaptivePlan{{Role: "Final Plan", Root: final}, {Role: "Initial Plan", Root: initial}}}
	if got := a.Effective(); got != final {
		t.Errorf("Effective() = %v, want the final plan", got)
	}
	only := &AdaptiveSparkPlan{Plans: []AdaptivePlan{{Role: "Initial Plan", Root: initial}}}
	if got := only.Children(); len(got) != 1 || got[0] != initial {
		t.Errorf("Children() = %v, want the initial plan", got)
	}
	var names []string
	Walk(a, func(n Node) bool { names = append(names, n.Info().Name); return true })
	if strings.Join(names, ",") != ",Final" {
		t.Errorf("Walk visited %q", names)
	}
}
