package report

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

func smallPlan() *plan.Explain {
	key := plan.NewExpr("id#1", "id", []plan.Attr{{Name: "id", ID: "1"}}, nil)
	scan := &plan.FileScan{OpInfo: plan.OpInfo{Name: "FileScan", Pos: plan.Pos{Line: 4, Col: 7}}, Format: "parquet", Table: "default.orders", TotalBuckets: 8, SelectedBuckets: 8}
	ex := &plan.Exchange{
		OpInfo:       plan.OpInfo{Name: "Exchange", Pos: plan.Pos{Line: 3, Col: 4}, Kids: []plan.Node{scan}},
		Partitioning: plan.Partitioning{Kind: plan.HashPartitioning, Keys: []plan.Expr{key}, NumPartitions: 16},
		Origin:       "ENSURE_REQUIREMENTS",
	}
	agg := &plan.HashAggregate{OpInfo: plan.OpInfo{Name: "HashAggregate", Pos: plan.Pos{Line: 2, Col: 1}, Kids: []plan.Node{ex}}, Aggregate: plan.Aggregate{Keys: []plan.Expr{key}}}
	return &plan.Explain{File: "x", Mode: "simple", Pos: plan.Pos{File: "x", Line: 1, Col: 1}, Plans: []plan.Section{{Name: "Physical Plan", Root: agg, Pos: plan.Pos{Line: 1}}}}
}

func TestPlanTextColorOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	var plain, colored strings.Builder
	if err := PlanText(&plain, []*plan.Explain{smallPlan()}, PlanOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := PlanText(&colored, []*plan.Explain{smallPlan()}, PlanOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("plain output has escape codes:\n%q", plain.String())
	}
	if !strings.Contains(colored.String(), ansiRed) {
		t.Errorf("coloured output does not paint the shuffle red:\n%q", colored.String())
	}
	for _, want := range []string{"◀ SHUFFLE", "why: inserted by the planner for HashAggregate grouping by [id]; reads default.orders (bucketed, 8 of 8 buckets)"} {
		if !strings.Contains(plain.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, plain.String())
		}
	}
}

func TestShuffleOrigins(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	tests := []struct {
		name    string
		ex      plan.Exchange
		planner bool
	}{
		{"3.1+ planner", plan.Exchange{Origin: "ENSURE_REQUIREMENTS", Partitioning: plan.Partitioning{Kind: plan.HashPartitioning}}, true},
		{"3.2+ repartition by column", plan.Exchange{Origin: "REPARTITION_BY_COL", Partitioning: plan.Partitioning{Kind: plan.HashPartitioning}}, false},
		{"3.0 true", plan.Exchange{NoUserSpecifiedNumPartition: &yes, Partitioning: plan.Partitioning{Kind: plan.HashPartitioning}}, true},
		{"3.0 false", plan.Exchange{NoUserSpecifiedNumPartition: &no, Partitioning: plan.Partitioning{Kind: plan.HashPartitioning}}, false},
		{"2.4 hash", plan.Exchange{Partitioning: plan.Partitioning{Kind: plan.HashPartitioning}}, true},
		{"2.4 round robin", plan.Exchange{Partitioning: plan.Partitioning{Kind: plan.RoundRobinPartitioning}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ex := tt.ex
			if got := ex.PlannerInserted(); got != tt.planner {
				t.Errorf("PlannerInserted = %t, want %t", got, tt.planner)
			}
		})
	}
}
