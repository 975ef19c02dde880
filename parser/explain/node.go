package explain

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A head is an operator line split into its codegen prefix, name and arguments. Columns are
// byte offsets into the operator text.
type head struct {
	codegen int
	name    string // canonical name (OpInfo.Name)
	text    string // the operator text after the codegen prefix
	nameCol int
	args    string
	argsCol int
	skew    bool
}

// codegenPrefix strips a whole-stage codegen marker: "*(3) " (Spark 2.3+ simple mode), "* "
// (formatted outlines) or a bare "*" (Spark 2.0–2.2 and normalised goldens). It returns the
// stage (-1 when no id is printed, 0 when there is no marker) and the prefix length.
func codegenPrefix(s string) (stage, n int) {
	if !strings.HasPrefix(s, "*") {
		return 0, 0
	}
	if strings.HasPrefix(s, "*(") {
		if j := strings.IndexByte(s, ')'); j > 2 {
			if v, err := strconv.Atoi(s[2:j]); err == nil && v >= 0 {
				if j+1 < len(s) && s[j+1] == ' ' {
					return v, j + 2
				}
				return v, j + 1
			}
		}
	}
	if strings.HasPrefix(s, "* ") {
		return -1, 2
	}
	return -1, 1
}

// nameEnd returns the index where an operator name ends: the first space, "(" or "[".
func nameEnd(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == '(' || c == '[' {
			return i
		}
	}
	return len(s)
}

// word returns the next word of s at i (up to a space, "(" or "[") and the index after it.
func word(s string, i int) (string, int) {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	e := i + nameEnd(s[i:])
	return s[i:e], e
}

// simpleHead splits a simple-mode operator line (formats.md §3, §7, §13 step 5).
func simpleHead(text string) head {
	h := head{}
	h.codegen, h.nameCol = codegenPrefix(text)
	h.text = text[h.nameCol:]
	s := h.text
	e := nameEnd(s)
	h.name = s[:e]
	switch h.name {
	case "Scan":
		w, we := word(s, e)
		if w == "In-memory" && strings.HasPrefix(s[we:], " table ") {
			h.name = "InMemoryTableScan"
			_, e = word(s, we+len(" table"))
		} else if w != "" {
			h.name, e = "Scan "+w, we
		}
	case "Execute":
		if w, we := word(s, e); w != "" {
			h.name, e = "Execute "+w, we
		}
	case "Exchange":
		if strings.HasPrefix(s[e:], "(coordinator id: ") {
			if j := strings.IndexByte(s[e:], ')'); j > 0 {
				e += j + 1
			}
		}
	case "SortMergeJoin", "ShuffledHashJoin":
		if strings.HasPrefix(s[e:], "(skew=true)") {
			h.skew = true
			e += len("(skew=true)")
		}
	}
	h.argsCol = e
	for h.argsCol < len(s) && s[h.argsCol] == ' ' {
		h.argsCol++
	}
	h.args = s[h.argsCol:]
	h.argsCol += h.nameCol
	return h
}

// fileFormats are the v1 file sources whose formatted-mode scans are FileSourceScanExec.
const fileFormats = " parquet orc csv json text avro binaryFile image libsvm delta Parquet ORC CSV JSON Text "

// newOp returns an empty operator of the type its canonical name calls for.
func newOp(name string) plan.Node {
	switch name {
	case "Exchange":
		return &plan.Exchange{}
	case "BroadcastExchange":
		return &plan.BroadcastExchange{}
	case "ReusedExchange":
		return &plan.ReusedExchange{}
	case "Sort":
		return &plan.Sort{}
	case "SortMergeJoin":
		return &plan.SortMergeJoin{Join: plan.Join{Strategy: plan.SortMergeJoinStrategy}}
	case "ShuffledHashJoin":
		return &plan.ShuffledHashJoin{Join: plan.Join{Strategy: plan.ShuffledHashJoinStrategy}}
	case "BroadcastHashJoin":
		return &plan.BroadcastHashJoin{Join: plan.Join{Strategy: plan.BroadcastHashJoinStrategy}}
	case "BroadcastNestedLoopJoin":
		return &plan.BroadcastNestedLoopJoin{Join: plan.Join{Strategy: plan.BroadcastNestedLoopJoinStrategy}}
	case "CartesianProduct":
		// CartesianProductExec is always an inner join; simple mode prints no type.
		return &plan.CartesianProduct{Join: plan.Join{Strategy: plan.CartesianProductStrategy, Type: "Inner"}}
	case "HashAggregate":
		return &plan.HashAggregate{}
	case "ObjectHashAggregate":
		return &plan.ObjectHashAggregate{}
	case "SortAggregate":
		return &plan.SortAggregate{}
	case "Window":
		return &plan.Window{}
	case "Filter":
		return &plan.Filter{}
	case "Project":
		return &plan.ProjectExec{}
	case "Union":
		return &plan.Union{}
	case "FileScan":
		return &plan.FileScan{}
	case "BatchScan":
		return &plan.BatchScan{}
	case "Scan hive":
		return &plan.HiveTableScan{}
	case "InMemoryTableScan":
		return &plan.InMemoryTableScan{}
	case "LocalTableScan":
		return &plan.LocalTableScan{}
	case "AdaptiveSparkPlan":
		return &plan.AdaptiveSparkPlan{}
	case "ShuffleQueryStage", "BroadcastQueryStage", "TableCacheQueryStage", "ResultQueryStage":
		return &plan.QueryStage{}
	case "AQEShuffleRead", "CustomShuffleReader":
		return &plan.ShuffleRead{}
	case "Subquery", "SubqueryBroadcast", "ReusedSubquery":
		return &plan.Subquery{}
	}
	return &plan.Generic{}
}

// simpleNode builds the operator of a simple-mode tree line and its subtree.
func (p *parser) simpleNode(r *rawNode) plan.Node {
	h := simpleHead(r.text)
	n := p.simpleOp(h, r.line, r.col, 0)
	p.attach(n, r, p.simpleNode)
	return n
}

// simpleOp builds one operator from its head; col is where the head's text starts in line i.
func (p *parser) simpleOp(h head, i, col, depth int) plan.Node {
	name := h.name
	if name == "" {
		p.errorf(i, col+h.nameCol, "missing operator name")
	}
	n := newOp(name)
	in := n.Info()
	in.Name = name
	in.Text = h.text
	in.Args = h.args
	in.CodegenStage = h.codegen
	in.Pos = p.pos(i, col+h.nameCol)
	in.End = p.endPos(i)
	p.fillSimple(n, h, i, col, depth)
	return n
}

// attach builds r's children with build and hangs them on n: data children, inner plans and
// an adaptive plan's sub-plans.
func (p *parser) attach(n plan.Node, r *rawNode, build func(*rawNode) plan.Node) {
	in := n.Info()
	if r.kids.n > 0 {
		in.Kids = p.nodes(r.kids.n)
		for k := r.kids.first; k != nil; k = k.next {
			in.Kids = append(in.Kids, build(k))
		}
	}
	if r.inner.n > 0 {
		in.Inner = p.nodes(r.inner.n)
		for k := r.inner.first; k != nil; k = k.next {
			in.Inner = append(in.Inner, build(k))
		}
	}
	for _, s := range r.subs {
		if s.root == nil {
			p.errorf(s.line, s.col, "plan sub-header %q has no plan under it", s.role)
			continue
		}
		root := build(s.root)
		if a, ok := n.(*plan.AdaptiveSparkPlan); ok {
			a.Plans = append(a.Plans, plan.AdaptivePlan{Role: s.role, Root: root, Pos: p.pos(s.line, s.col)})
			continue
		}
		p.errorf(s.line, s.col, "plan sub-header %q under %s, which is not an AdaptiveSparkPlan", s.role, in.Name)
		in.Inner = append(in.Inner, root)
	}
}
