package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// PlanOptions control how plans are rendered.
type PlanOptions struct {
	// Color adds ANSI colours (terminals only).
	Color bool
}

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

type painter bool

func (p painter) paint(code, s string) string {
	if !p || s == "" {
		return s
	}
	return code + s + ansiReset
}

// PlanText writes the explain outputs of one file as trees a person reads at a glance: each
// shuffle marked and explained, broadcasts and bucketed scans called out, and a summary.
func PlanText(w io.Writer, explains []*plan.Explain, opt PlanOptions) error {
	b := newPlanBuf(w)
	p := painter(opt.Color)
	for i, e := range explains {
		if i > 0 {
			b.put("\n")
		}
		fmt.Fprintf(b, "%s  %s\n", p.paint(ansiBold, e.Pos.String()), describeExplain(e))
		for _, s := range e.Plans {
			fmt.Fprintf(b, "%s %s\n", p.paint(ansiBold, s.Name), p.paint(ansiDim, fmt.Sprintf("(line %d)", s.Pos.Line)))
			tw := treeWriter{b: b, p: p}
			tw.node(s.Root, "", "", nil)
		}
		b.put(summaryLine(e))
		b.put("\n")
	}
	return b.Flush()
}

// A planBuf is the buffer the plan writers write through: the output goes out as it is made
// instead of growing one string as large as all of it. A write error is kept by the
// bufio.Writer and returned by Flush.
type planBuf struct{ *bufio.Writer }

func newPlanBuf(w io.Writer) planBuf { return planBuf{bufio.NewWriterSize(w, 64<<10)} }

// put writes s; an error is returned by Flush.
func (b planBuf) put(s string) { _, _ = b.WriteString(s) }

func describeExplain(e *plan.Explain) string {
	s := e.Mode + " explain"
	if e.Adaptive != nil {
		if e.Adaptive.IsFinalPlan {
			s += ", adaptive (final plan)"
		} else {
			s += ", adaptive (not yet executed: initial plan)"
		}
	}
	return s
}

type treeWriter struct {
	b planBuf
	p painter
}

// node writes n with the prefix of its first line (head) and of the lines below (tail).
// ancestors are n's ancestors, nearest last, to explain shuffles.
func (t treeWriter) node(n plan.Node, head, tail string, ancestors []plan.Node) {
	if n == nil {
		return
	}
	main, why := t.line(n, ancestors)
	t.b.put(t.p.paint(ansiDim, head))
	t.b.put(main)
	t.b.put("\n")
	kids := n.Children()
	var subs []plan.AdaptivePlan
	if a, ok := n.(*plan.AdaptiveSparkPlan); ok && len(a.Plans) > 0 {
		kids, subs = nil, a.Plans
	}
	inner := n.Info().Inner
	total := len(kids) + len(subs) + len(inner)
	if why != "" {
		bar := "   "
		if total > 0 {
			bar = "│  "
		}
		t.b.put(t.p.paint(ansiDim, tail+bar))
		t.b.put(t.p.paint(ansiYellow, "why: "+why))
		t.b.put("\n")
	}
	next := withParent(ancestors, n)
	i := 0
	branch := func() (string, string) {
		i++
		if i == total {
			return tail + "└─ ", tail + "   "
		}
		return tail + "├─ ", tail + "│  "
	}
	for _, c := range kids {
		h, tl := branch()
		t.node(c, h, tl, next)
	}
	for _, sp := range subs {
		h, tl := branch()
		t.b.put(t.p.paint(ansiDim, h))
		t.b.put(t.p.paint(ansiBold, "== "+sp.Role+" =="))
		t.b.put("\n")
		t.node(sp.Root, tl+"└─ ", tl+"   ", nil)
	}
	for _, c := range inner {
		h, tl := branch()
		t.node(c, h+t.p.paint(ansiDim, "(subquery) "), tl, nil)
	}
}

// line returns n's line and, for a shuffle, the explanation printed beneath it.
func (t treeWriter) line(n plan.Node, ancestors []plan.Node) (main, why string) {
	in := n.Info()
	prefix := ""
	switch {
	case in.CodegenStage > 0:
		prefix = "*(" + strconv.Itoa(in.CodegenStage) + ") "
	case in.CodegenStage < 0:
		prefix = "*"
	}
	body := prefix + headline(n)
	loc := t.p.paint(ansiDim, "  :"+strconv.Itoa(in.Pos.Line))
	switch x := n.(type) {
	case *plan.Exchange:
		s := newShuffle(x, ancestors)
		tag := "SHUFFLE"
		if !s.Planner {
			tag = "shuffle (requested)"
		}
		return t.p.paint(ansiRed+ansiBold, body+"  ◀ "+tag) + loc, s.Reason
	case *plan.BroadcastExchange:
		return t.p.paint(ansiCyan, body) + loc, ""
	case *plan.FileScan:
		if x.TotalBuckets > 0 && (x.Bucketed == nil || *x.Bucketed) {
			return t.p.paint(ansiGreen, body) + loc, ""
		}
	}
	return body + loc, ""
}

// headline is an operator's name and the arguments that matter for layout, without ids.
func headline(n plan.Node) string {
	in := n.Info()
	if j, ok := plan.JoinOf(n); ok {
		s := in.Name + " " + plan.StripIDs(j.Type)
		if len(j.LeftKeys) > 0 {
			s += " " + keyPairs(j)
		}
		if j.BuildSide != "" {
			s += " " + j.BuildSide
		}
		if j.Condition != nil {
			s += " if " + j.Condition.Text()
		}
		return s
	}
	if a, ok := plan.AggregateOf(n); ok {
		return in.Name + " keys=[" + strings.Join(plan.Texts(a.Keys), ", ") + "] functions=[" + strings.Join(plan.Texts(a.Functions), ", ") + "]"
	}
	switch x := n.(type) {
	case *plan.Exchange:
		return "Exchange " + partitioningText(x.Partitioning)
	case *plan.BroadcastExchange:
		return "BroadcastExchange" + bracket(" keys", plan.Texts(x.Keys))
	case *plan.ReusedExchange:
		if x.Reused != nil {
			return "ReusedExchange of " + headline(x.Reused)
		}
		if x.ReusesID > 0 {
			return fmt.Sprintf("ReusedExchange of operator (%d)", x.ReusesID)
		}
	case *plan.Sort:
		g := ""
		if x.Global {
			g = " global"
		}
		return "Sort [" + strings.Join(plan.OrderTexts(x.Orders), ", ") + "]" + g
	case *plan.FileScan:
		return "Scan " + x.Format + " " + ScanSummary(x)
	case *plan.HiveTableScan, *plan.BatchScan:
		return in.Name + " " + ScanSummary(x)
	case *plan.InMemoryTableScan:
		return in.Name + " [" + strings.Join(plan.Texts(x.Output), ", ") + "]"
	case *plan.LocalTableScan:
		return in.Name + " [" + strings.Join(plan.Texts(x.Output), ", ") + "]"
	case *plan.Window:
		return "Window partition by [" + strings.Join(plan.Texts(x.PartitionKeys), ", ") + "]"
	case *plan.Filter:
		return "Filter " + x.Condition.Text()
	case *plan.ProjectExec:
		return "Project [" + strings.Join(plan.Texts(x.Exprs), ", ") + "]"
	case *plan.AdaptiveSparkPlan:
		return fmt.Sprintf("AdaptiveSparkPlan isFinalPlan=%t", x.IsFinalPlan)
	case *plan.QueryStage:
		return fmt.Sprintf("%s %d", in.Name, x.StageID)
	case *plan.ShuffleRead:
		return strings.TrimSpace(in.Name + " " + x.Props)
	case *plan.Subquery:
		return in.Name + " " + plan.StripIDs(x.Ref)
	}
	if in.Args != "" {
		return in.Name + " " + plan.StripIDs(in.Args)
	}
	return in.Name
}

func bracket(label string, vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return label + "=[" + strings.Join(vs, ", ") + "]"
}

func partitioningText(p plan.Partitioning) string {
	switch p.Kind {
	case plan.HashPartitioning:
		return fmt.Sprintf("hashpartitioning(%s, %d)", strings.Join(plan.Texts(p.Keys), ", "), p.NumPartitions)
	case plan.RangePartitioning:
		return fmt.Sprintf("rangepartitioning(%s, %d)", strings.Join(plan.OrderTexts(p.Orders), ", "), p.NumPartitions)
	case plan.RoundRobinPartitioning:
		return fmt.Sprintf("RoundRobinPartitioning(%d)", p.NumPartitions)
	case plan.SinglePartition:
		return "SinglePartition"
	}
	if p.Raw != "" {
		return plan.StripIDs(p.Raw)
	}
	return string(p.Kind)
}

// Counts are the layout facts of one plan tree.
type Counts struct {
	Shuffles, PlannerShuffles, Broadcasts, Sorts, Scans, BucketedScans int
}

// Count tallies the operators of the tree under root that matter for layout.
func Count(root plan.Node) Counts {
	var c Counts
	plan.Walk(root, func(n plan.Node) bool {
		switch x := n.(type) {
		case *plan.Exchange:
			c.Shuffles++
			if x.PlannerInserted() {
				c.PlannerShuffles++
			}
		case *plan.BroadcastExchange:
			c.Broadcasts++
		case *plan.Sort:
			c.Sorts++
		case *plan.FileScan:
			c.Scans++
			if x.TotalBuckets > 0 && (x.Bucketed == nil || *x.Bucketed) {
				c.BucketedScans++
			}
		case *plan.HiveTableScan, *plan.BatchScan, *plan.InMemoryTableScan, *plan.LocalTableScan:
			c.Scans++
		}
		return true
	})
	return c
}

func summaryLine(e *plan.Explain) string {
	root := e.Physical()
	if root == nil {
		return "no physical plan"
	}
	c := Count(root)
	return fmt.Sprintf("%s: %s (%d inserted by the planner), %s, %s, %d of %s bucketed",
		sectionOf(e, root), plural(c.Shuffles, "shuffle"), c.PlannerShuffles, plural(c.Broadcasts, "broadcast"),
		plural(c.Sorts, "sort"), c.BucketedScans, plural(c.Scans, "file scan"))
}

func sectionOf(e *plan.Explain, root plan.Node) string {
	for _, s := range e.Plans {
		if s.Root == root {
			return s.Name
		}
	}
	return "plan"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
