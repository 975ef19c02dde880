package main

import (
	"github.com/bucketlint/bucketlint/engine/exec"
	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/plan"
)

// engineOptions are the engine options of every command that runs plans: the engine parses
// no text, so parser/explain reads the expressions a simulated plan still holds only as the
// query's text (filter conditions, aggregate functions) into trees.
func engineOptions() exec.Options { return exec.Options{ParseExpr: exprTree} }

func exprTree(s string) *plan.X { return explain.ParseExpr(s).X }
