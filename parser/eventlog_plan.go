package parser

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/parser/eventlog"
	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/plan"
)

// ExecutedPlan reads the plan tree of an event log's SQL execution as the model holds plans:
// its operators are printed as Spark's simple explain mode prints a plan (each operator's
// simpleString, whole-stage codegen as a "*(N) " prefix, input adapters unprinted) and read by
// the explain parser. Ops pairs each operator read with the log's operator, which carries the
// metrics; it is nil when the two trees do not line up (an operator the explain parser reads
// as two, or a subquery the log lists as a child), which is said, not guessed around.
func ExecutedPlan(name string, root *eventlog.Node) (*plan.Explain, map[plan.Node]*eventlog.Node, error) {
	if root == nil {
		return nil, nil, fmt.Errorf("%s: the execution has no plan", name)
	}
	var b strings.Builder
	var printed []*eventlog.Node
	b.WriteString("== Physical Plan ==\n")
	printTree(&b, root, "", "", 0, &printed)
	exps, errs := explain.Parse(name, []byte(b.String()))
	if len(exps) == 0 {
		if err := errs.Err(); err != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%s: no plan read", name)
	}
	ex := exps[0]
	var ops []plan.Node
	for _, s := range ex.Plans {
		walkOps(s.Root, &ops)
	}
	if len(ops) != len(printed) {
		return ex, nil, nil
	}
	pairs := make(map[plan.Node]*eventlog.Node, len(ops))
	for i, op := range ops {
		pairs[op] = printed[i]
	}
	return ex, pairs, nil
}

// printTree prints n as Spark's treeString does: prefix is the indentation of n's line,
// marker its "+- " or ":- ", codegen the id of an enclosing WholeStageCodegen (0 when none).
func printTree(b *strings.Builder, n *eventlog.Node, prefix, marker string, codegen int, out *[]*eventlog.Node) {
	if id, ok := codegenID(n.Name); ok && len(n.Children) == 1 {
		printTree(b, n.Children[0], prefix, marker, id, out)
		return
	}
	if n.Name == "InputAdapter" && len(n.Children) == 1 {
		printTree(b, n.Children[0], prefix, marker, 0, out)
		return
	}
	b.WriteString(prefix)
	b.WriteString(marker)
	if codegen > 0 {
		fmt.Fprintf(b, "*(%d) ", codegen)
	}
	b.WriteString(strings.ReplaceAll(n.Simple, "\n", " "))
	b.WriteByte('\n')
	*out = append(*out, n)
	childPrefix := prefix
	switch marker {
	case ":- ":
		childPrefix += ":  "
	case "+- ":
		childPrefix += "   "
	}
	for i, c := range n.Children {
		m := ":- "
		if i == len(n.Children)-1 {
			m = "+- "
		}
		printTree(b, c, childPrefix, m, 0, out)
	}
}

// codegenID reads the id of a "WholeStageCodegen (N)" node name.
func codegenID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "WholeStageCodegen (")
	if !ok {
		return 0, false
	}
	var id int
	if _, err := fmt.Sscanf(rest, "%d)", &id); err != nil {
		return 0, false
	}
	return id, true
}

func walkOps(n plan.Node, out *[]plan.Node) {
	if n == nil {
		return
	}
	*out = append(*out, n)
	for _, c := range n.Children() {
		walkOps(c, out)
	}
}
