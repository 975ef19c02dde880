package report

import (
	"io"

	"github.com/bucketlint/bucketlint/plan"
)

type adaptiveJSON struct {
	IsFinalPlan bool `json:"isFinalPlan"`
}

type sectionJSON struct {
	Section string    `json:"section"`
	Line    int       `json:"line"`
	Root    *nodeJSON `json:"root"`
}

type nodeJSON struct {
	Name         string         `json:"name"`
	Line         int            `json:"line,omitempty"`
	Column       int            `json:"column,omitempty"`
	ID           int            `json:"id,omitempty"`
	CodegenStage *int           `json:"codegenStage"`
	Args         string         `json:"args,omitempty"`
	Exchange     *exchangeJSON  `json:"exchange,omitempty"`
	Broadcast    *broadcastJSON `json:"broadcast,omitempty"`
	Join         *joinJSON      `json:"join,omitempty"`
	Scan         *scanJSON      `json:"scan,omitempty"`
	Aggregate    *aggregateJSON `json:"aggregate,omitempty"`
	Sort         *sortJSON      `json:"sort,omitempty"`
	Window       *windowJSON    `json:"window,omitempty"`
	Adaptive     *adaptiveJSON  `json:"adaptive,omitempty"`
	Stage        *int           `json:"stage,omitempty"`
	Reuses       *int           `json:"reuses,omitempty"`
	Plans        []sectionJSON  `json:"plans,omitempty"`
	Children     []*nodeJSON    `json:"children"`
	Subqueries   []*nodeJSON    `json:"subqueries,omitempty"`
}

type exchangeJSON struct {
	Partitioning  string   `json:"partitioning"`
	Keys          []string `json:"keys"`
	NumPartitions int      `json:"numPartitions"`
	Origin        string   `json:"origin"`
	PlannerAdded  bool     `json:"plannerInserted"`
	Cause         string   `json:"cause,omitempty"`
	PrimaryCause  string   `json:"primaryCause,omitempty"`
}

type broadcastJSON struct {
	Mode string   `json:"mode"`
	Keys []string `json:"keys"`
}

type joinJSON struct {
	Strategy  string   `json:"strategy"`
	Type      string   `json:"type"`
	LeftKeys  []string `json:"leftKeys"`
	RightKeys []string `json:"rightKeys"`
	BuildSide string   `json:"buildSide"`
	Condition *string  `json:"condition"`
}

type scanJSON struct {
	Table            string   `json:"table"`
	Format           string   `json:"format"`
	Bucketed         bool     `json:"bucketed"`
	BucketedReason   string   `json:"bucketedReason"`
	SelectedBuckets  int      `json:"selectedBuckets"`
	TotalBuckets     int      `json:"totalBuckets"`
	CoalescedTo      int      `json:"coalescedTo"`
	Columns          []string `json:"columns"`
	PartitionFilters []string `json:"partitionFilters"`
	PushedFilters    []string `json:"pushedFilters"`
	DataFilters      []string `json:"dataFilters"`
}

type aggregateJSON struct {
	Keys      []string `json:"keys"`
	Functions []string `json:"functions"`
	Mode      string   `json:"mode"`
}

type sortJSON struct {
	Keys   []string `json:"keys"`
	Global bool     `json:"global"`
}

type windowJSON struct {
	PartitionKeys []string `json:"partitionKeys"`
	OrderKeys     []string `json:"orderKeys"`
}

// PlanJSON writes the explain outputs of one file, and the errors found in it, as DESIGN.md
// §4's `plan --format json` object. It streams: each operator is written as it is reached,
// the same bytes as encoding NodeJSON's values with writeJSON (TestPlanJSONStreams).
func PlanJSON(w io.Writer, file string, explains []*plan.Explain, errs []PositionedError) error {
	s := newJSONStream(w)
	s.begin('{')
	s.key("file")
	s.str(file)
	s.key("mode")
	var first *plan.Explain
	if len(explains) > 0 {
		first = explains[0]
		s.str(first.Mode)
	} else {
		s.str("")
	}
	s.key("adaptive")
	streamAdaptive(s, first)
	s.key("plans")
	streamSections(s, first)
	s.key("explains")
	s.begin('[')
	for _, e := range explains {
		s.begin('{')
		s.key("line")
		s.int(e.Pos.Line)
		s.key("mode")
		s.str(e.Mode)
		s.key("adaptive")
		streamAdaptive(s, e)
		s.key("plans")
		streamSections(s, e)
		s.end('}')
	}
	s.end(']')
	s.key("errors")
	s.begin('[')
	for _, e := range errs {
		s.begin('{')
		s.key("file")
		s.str(e.File)
		s.key("line")
		s.int(e.Line)
		s.key("column")
		s.int(e.Column)
		s.key("message")
		s.str(e.Message)
		s.end('}')
	}
	s.end(']')
	s.end('}')
	return s.close()
}

// streamAdaptive writes an explain's adaptive object, null when e is nil or not adaptive.
func streamAdaptive(s *jsonStream, e *plan.Explain) {
	if e == nil || e.Adaptive == nil {
		s.null()
		return
	}
	s.begin('{')
	s.key("isFinalPlan")
	s.bool(e.Adaptive.IsFinalPlan)
	s.end('}')
}

// streamSections writes an explain's plans, [] when e is nil.
func streamSections(s *jsonStream, e *plan.Explain) {
	s.begin('[')
	if e != nil {
		for _, sec := range e.Plans {
			streamSection(s, sec.Name, sec.Pos.Line, sec.Root)
		}
	}
	s.end(']')
}

func streamSection(s *jsonStream, name string, line int, root plan.Node) {
	s.begin('{')
	s.key("section")
	s.str(name)
	s.key("line")
	s.int(line)
	s.key("root")
	streamNode(s, root, nil)
	s.end('}')
}

// A PositionedError is an input error as reports print it.
type PositionedError struct {
	File         string
	Line, Column int
	Message      string
}

// NodeJSON returns DESIGN.md §4's NODE for a plan tree, ready for encoding/json: the shape
// `plan --format json` prints, shared by every command that prints a plan as JSON. Predicted
// plans have no positions, so their nodes carry no line and column.
func NodeJSON(n plan.Node) any { return toNodeJSON(n, nil) }

func strs(es []plan.Expr) []string {
	out := plan.Texts(es)
	if out == nil {
		return []string{}
	}
	return out
}

func toNodeJSON(n plan.Node, ancestors []plan.Node) *nodeJSON {
	if n == nil {
		return nil
	}
	in := n.Info()
	j := &nodeJSON{Name: in.Name, Line: in.Pos.Line, Column: in.Pos.Col, ID: in.ID, Children: []*nodeJSON{}}
	if in.CodegenStage != 0 {
		cg := in.CodegenStage
		j.CodegenStage = &cg
	}
	fillOperator(j, n, ancestors)
	next := withParent(ancestors, n)
	if a, ok := n.(*plan.AdaptiveSparkPlan); ok && len(a.Plans) > 0 {
		for _, p := range a.Plans {
			j.Plans = append(j.Plans, sectionJSON{Section: p.Role, Line: p.Pos.Line, Root: toNodeJSON(p.Root, nil)})
		}
	} else {
		for _, c := range n.Children() {
			j.Children = append(j.Children, toNodeJSON(c, next))
		}
	}
	for _, c := range in.Inner {
		j.Subqueries = append(j.Subqueries, toNodeJSON(c, nil))
	}
	return j
}

func fillOperator(j *nodeJSON, n plan.Node, ancestors []plan.Node) {
	if jn, ok := plan.JoinOf(n); ok {
		jj := &joinJSON{Strategy: string(jn.Strategy), Type: plan.StripIDs(jn.Type), LeftKeys: strs(jn.LeftKeys), RightKeys: strs(jn.RightKeys), BuildSide: jn.BuildSide}
		if jn.Condition != nil {
			c := jn.Condition.Text()
			jj.Condition = &c
		}
		j.Join = jj
	}
	if a, ok := plan.AggregateOf(n); ok {
		j.Aggregate = &aggregateJSON{Keys: strs(a.Keys), Functions: strs(a.Functions), Mode: string(a.Mode)}
	}
	switch x := n.(type) {
	case *plan.Exchange:
		j.Exchange = exchangeOf(x, ancestors, true)
	case *plan.ReusedExchange:
		if x.ReusesID > 0 {
			id := x.ReusesID
			j.Reuses = &id
		}
		if e, ok := x.Reused.(*plan.Exchange); ok {
			j.Exchange = exchangeOf(e, nil, false)
		}
	case *plan.BroadcastExchange:
		j.Broadcast = &broadcastJSON{Mode: plan.StripIDs(x.Mode), Keys: strs(x.Keys)}
	case *plan.Sort:
		j.Sort = &sortJSON{Keys: plan.OrderTexts(x.Orders), Global: x.Global}
	case *plan.Window:
		j.Window = &windowJSON{PartitionKeys: strs(x.PartitionKeys), OrderKeys: plan.OrderTexts(x.Orders)}
	case *plan.FileScan:
		j.Scan = &scanJSON{
			Table: x.Table, Format: x.Format, Bucketed: isBucketedScan(x), BucketedReason: x.BucketedReason,
			SelectedBuckets: x.SelectedBuckets, TotalBuckets: x.TotalBuckets, CoalescedTo: x.CoalescedTo,
			Columns: strs(x.Output), PartitionFilters: plan.Texts(x.PartitionFilters), PushedFilters: plan.Texts(x.PushedFilters),
			DataFilters: plan.Texts(x.DataFilters),
		}
	case *plan.HiveTableScan:
		j.Scan = &scanJSON{Table: x.Table, Format: "hive", Columns: strs(x.Output), PartitionFilters: []string{}, PushedFilters: []string{}, DataFilters: []string{}}
	case *plan.BatchScan:
		j.Scan = &scanJSON{Table: x.Table, Format: "v2", Columns: strs(x.Output), PartitionFilters: []string{}, PushedFilters: []string{}, DataFilters: []string{}}
	case *plan.AdaptiveSparkPlan:
		j.Adaptive = &adaptiveJSON{IsFinalPlan: x.IsFinalPlan}
	case *plan.QueryStage:
		id := x.StageID
		j.Stage = &id
	case *plan.ShuffleRead:
		j.Args = x.Props
	case *plan.Subquery:
		j.Args = plan.StripIDs(x.Ref)
	case *plan.Generic:
		j.Args = plan.StripIDs(x.Args)
	}
}

// isBucketedScan reads the scan's bucketing the way the printed fields allow: "Bucketed:" when
// printed (3.3+), else the presence of SelectedBucketsCount.
func isBucketedScan(x *plan.FileScan) bool {
	if x.Bucketed != nil {
		return *x.Bucketed
	}
	return x.TotalBuckets > 0
}

func exchangeOf(x *plan.Exchange, ancestors []plan.Node, withCause bool) *exchangeJSON {
	s := newShuffle(x, ancestors)
	e := &exchangeJSON{
		Partitioning: string(x.Partitioning.Kind), Keys: strs(x.Partitioning.Keys), NumPartitions: x.Partitioning.NumPartitions,
		Origin: x.Origin, PlannerAdded: s.Planner,
	}
	if withCause {
		e.Cause, e.PrimaryCause = s.Reason, s.Cause.String()
	}
	if x.Partitioning.Kind == plan.RangePartitioning {
		e.Keys = plan.OrderTexts(x.Partitioning.Orders)
	}
	return e
}
