package plan

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Fprint writes a deterministic, line-per-node dump of the explain outputs to w. It is the one
// printer every golden file uses: operators indented two spaces per level, each followed by
// its position and the fields bucketlint reads, inner plans (subqueries, cached plans) marked
// "inner:". Expression ids are left out, as everywhere in bucketlint's output.
func Fprint(w io.Writer, explains ...*Explain) error {
	var b strings.Builder
	for _, e := range explains {
		printExplain(&b, e)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func printExplain(w *strings.Builder, e *Explain) {
	fmt.Fprintf(w, "explain %s mode=%s", e.Pos, e.Mode)
	if e.Adaptive != nil {
		fmt.Fprintf(w, " adaptive isFinalPlan=%t", e.Adaptive.IsFinalPlan)
	}
	w.WriteString("\n")
	for _, s := range e.Logical {
		fmt.Fprintf(w, "  logical %q @%d lines=%d\n", s.Name, s.Pos.Line, strings.Count(s.Text, "\n")+1)
	}
	for _, s := range e.Plans {
		fmt.Fprintf(w, "  section %q @%d\n", s.Name, s.Pos.Line)
		printNode(w, s.Root, 2, "")
	}
	for _, x := range e.Extra {
		fmt.Fprintf(w, "  extra %q @%d: %q\n", x.Name, x.Pos.Line, x.Text)
	}
}

func printNode(w *strings.Builder, n Node, depth int, mark string) {
	if n == nil {
		return
	}
	in := n.Info()
	w.WriteString(strings.Repeat("  ", depth))
	w.WriteString(mark)
	w.WriteString(in.Name)
	fmt.Fprintf(w, " @%d:%d", in.Pos.Line, in.Pos.Col)
	for _, a := range NodeAttrs(n) {
		w.WriteString(" ")
		w.WriteString(a)
	}
	w.WriteString("\n")
	if a, ok := n.(*AdaptiveSparkPlan); ok && len(a.Plans) > 0 {
		for _, p := range a.Plans {
			fmt.Fprintf(w, "%s== %s == @%d\n", strings.Repeat("  ", depth+1), p.Role, p.Pos.Line)
			printNode(w, p.Root, depth+2, "")
		}
	} else {
		for _, c := range n.Children() {
			printNode(w, c, depth+1, "")
		}
	}
	for _, c := range in.Inner {
		printNode(w, c, depth+1, "inner: ")
	}
}

// NodeAttrs returns the fields of n that bucketlint reads, as sorted-by-meaning "key=value"
// strings without expression ids: the common ones (operator id, codegen stage) first, then the
// operator's own. Printers and tests share it so that every output names fields the same way.
func NodeAttrs(n Node) []string {
	in := n.Info()
	var a attrs
	if in.ID > 0 {
		a.add("id", strconv.Itoa(in.ID))
	}
	switch in.CodegenStage {
	case 0:
	case -1:
		a.add("codegen", "*")
	default:
		a.add("codegen", strconv.Itoa(in.CodegenStage))
	}
	switch x := n.(type) {
	case *Exchange:
		a.partitioning(x.Partitioning)
		a.add("origin", x.Origin)
		if x.NoUserSpecifiedNumPartition != nil {
			a.add("noUserSpecifiedNumPartition", strconv.FormatBool(*x.NoUserSpecifiedNumPartition))
		}
		a.add("advisory", x.AdvisorySize)
		a.add("plan_id", x.PlanID)
	case *BroadcastExchange:
		a.add("mode", stripIDs(x.Mode))
		a.list("keys", Texts(x.Keys))
		a.add("plan_id", x.PlanID)
	case *ReusedExchange:
		a.list("output", Texts(x.Output))
		if x.ReusesID > 0 {
			a.add("reuses", strconv.Itoa(x.ReusesID))
		}
		if x.Reused != nil {
			a.add("reused", x.Reused.Info().Name)
			a.attrs = append(a.attrs, NodeAttrs(x.Reused)...)
		}
	case *Sort:
		a.list("orders", OrderTexts(x.Orders))
		a.add("global", strconv.FormatBool(x.Global))
	case *FileScan:
		a.fileScan(x)
	case *BatchScan:
		a.add("table", x.Table)
		a.list("output", Texts(x.Output))
	case *HiveTableScan:
		a.add("table", x.Table)
		a.list("output", Texts(x.Output))
	case *InMemoryTableScan:
		a.list("output", Texts(x.Output))
		a.list("predicates", Texts(x.Predicates))
	case *LocalTableScan:
		a.list("output", Texts(x.Output))
		if x.Empty {
			a.add("empty", "true")
		}
	case *Window:
		a.list("exprs", Texts(x.Exprs))
		a.list("partition", Texts(x.PartitionKeys))
		a.list("orders", OrderTexts(x.Orders))
	case *Filter:
		a.add("condition", x.Condition.Text())
	case *ProjectExec:
		a.list("exprs", Texts(x.Exprs))
	case *AdaptiveSparkPlan:
		a.add("isFinalPlan", strconv.FormatBool(x.IsFinalPlan))
	case *QueryStage:
		a.add("stage", strconv.Itoa(x.StageID))
	case *ShuffleRead:
		a.add("props", x.Props)
	case *Subquery:
		a.add("ref", stripIDs(x.Ref))
		a.add("plan_id", x.PlanID)
	case *Generic:
		a.add("args", stripIDs(in.Args))
	}
	if j, ok := JoinOf(n); ok {
		a.join(j)
	}
	if g, ok := AggregateOf(n); ok {
		a.list("keys", Texts(g.Keys))
		a.list("functions", Texts(g.Functions))
		if g.Output != nil {
			a.list("output", Texts(g.Output))
		}
		a.add("mode", string(g.Mode))
	}
	a.add("stats", in.Stats)
	return a.attrs
}

type attrs struct{ attrs []string }

func (a *attrs) add(k, v string) {
	if v != "" {
		a.attrs = append(a.attrs, k+"="+quoteIfSpaced(v))
	}
}

func (a *attrs) list(k string, vs []string) {
	if len(vs) > 0 {
		a.attrs = append(a.attrs, k+"=["+strings.Join(vs, ", ")+"]")
	}
}

func (a *attrs) partitioning(p Partitioning) {
	a.add("partitioning", string(p.Kind))
	a.list("keys", Texts(p.Keys))
	a.list("orders", OrderTexts(p.Orders))
	if p.NumPartitions > 0 {
		a.add("n", strconv.Itoa(p.NumPartitions))
	}
}

func (a *attrs) join(j *Join) {
	a.add("type", stripIDs(j.Type))
	a.list("left", Texts(j.LeftKeys))
	a.list("right", Texts(j.RightKeys))
	a.add("build", j.BuildSide)
	if j.Condition != nil {
		a.add("condition", j.Condition.Text())
	}
	if j.Skew {
		a.add("skew", "true")
	}
	if j.NullAware {
		a.add("nullAware", "true")
	}
}

func (a *attrs) fileScan(s *FileScan) {
	a.add("format", s.Format)
	a.add("table", s.Table)
	a.list("output", Texts(s.Output))
	if s.Bucketed != nil {
		a.add("bucketed", strconv.FormatBool(*s.Bucketed))
	}
	a.add("reason", s.BucketedReason)
	if s.TotalBuckets > 0 {
		a.add("buckets", fmt.Sprintf("%d/%d", s.SelectedBuckets, s.TotalBuckets))
	}
	if s.CoalescedTo > 0 {
		a.add("coalescedTo", strconv.Itoa(s.CoalescedTo))
	}
	a.list("partitionFilters", Texts(s.PartitionFilters))
	a.list("pushedFilters", Texts(s.PushedFilters))
	a.list("dataFilters", Texts(s.DataFilters))
	keys := make([]string, 0, len(s.Metadata))
	for k := range s.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		a.add("metadata", strings.Join(keys, ","))
	}
}

func quoteIfSpaced(s string) string {
	if strings.ContainsAny(s, " \t\"") {
		return strconv.Quote(s)
	}
	return s
}
