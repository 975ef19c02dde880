package main

import (
	"fmt"

	"github.com/bucketlint/bucketlint/engine/exec"
	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/plan"
)

// engineOptions are the engine options of every command that runs plans: the engine parses
// no text, so parser/explain reads the expressions a simulated plan still holds only as the
// query's text (filter conditions, aggregate functions) into trees.
func engineOptions() exec.Options { return exec.Options{ParseExpr: exprTree} }

func exprTree(s string) *plan.X { return explain.ParseExpr(s).X }

// sparkPlan reads Spark's EXPLAIN output (verify over Spark Connect) into its physical plan,
// for the engine to count its shuffles.
func sparkPlan(text string) (plan.Node, error) {
	es, errs := explain.Parse("EXPLAIN", []byte(text))
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if len(es) != 1 || es[0].Physical() == nil {
		return nil, fmt.Errorf("want one physical plan in Spark's EXPLAIN, found %d", len(es))
	}
	return es[0].Physical(), nil
}
