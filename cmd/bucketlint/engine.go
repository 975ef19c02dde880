//go:build engine

package main

import (
	"fmt"

	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/plan"
)

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
