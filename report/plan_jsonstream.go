package report

import "github.com/bucketlint/bucketlint/plan"

// streamNode writes DESIGN.md §4's NODE for n and its subtree, the fields in nodeJSON's order
// and with its omissions; ancestors are n's ancestors, nearest last, to explain shuffles.
func streamNode(s *jsonStream, n plan.Node, ancestors []plan.Node) {
	if n == nil {
		s.null()
		return
	}
	in := n.Info()
	var j nodeJSON
	fillOperator(&j, n, ancestors)
	s.begin('{')
	s.key("name")
	s.str(in.Name)
	optInt(s, "line", in.Pos.Line)
	optInt(s, "column", in.Pos.Col)
	optInt(s, "id", in.ID)
	s.key("codegenStage")
	if in.CodegenStage != 0 {
		s.int(in.CodegenStage)
	} else {
		s.null()
	}
	if j.Args != "" {
		s.key("args")
		s.str(j.Args)
	}
	streamOperator(s, &j)
	a, adaptive := n.(*plan.AdaptiveSparkPlan)
	adaptive = adaptive && len(a.Plans) > 0
	if adaptive {
		s.key("plans")
		s.begin('[')
		for _, p := range a.Plans {
			streamSection(s, p.Role, p.Pos.Line, p.Root)
		}
		s.end(']')
	}
	s.key("children")
	s.begin('[')
	if !adaptive {
		next := withParent(ancestors, n)
		for _, c := range n.Children() {
			streamNode(s, c, next)
		}
	}
	s.end(']')
	if len(in.Inner) > 0 {
		s.key("subqueries")
		s.begin('[')
		for _, c := range in.Inner {
			streamNode(s, c, nil)
		}
		s.end(']')
	}
	s.end('}')
}

// optInt writes an int member left out when zero (omitempty).
func optInt(s *jsonStream, key string, v int) {
	if v != 0 {
		s.key(key)
		s.int(v)
	}
}

// optIntPtr writes an *int member left out when nil (omitempty).
func optIntPtr(s *jsonStream, key string, v *int) {
	if v != nil {
		s.key(key)
		s.int(*v)
	}
}

// streamOperator writes the operator objects fillOperator filled, from "exchange" to
// "reuses", each left out when absent.
func streamOperator(s *jsonStream, j *nodeJSON) {
	if x := j.Exchange; x != nil {
		s.key("exchange")
		s.begin('{')
		s.key("partitioning")
		s.str(x.Partitioning)
		s.key("keys")
		s.strs(x.Keys)
		s.key("numPartitions")
		s.int(x.NumPartitions)
		s.key("origin")
		s.str(x.Origin)
		s.key("plannerInserted")
		s.bool(x.PlannerAdded)
		if x.Cause != "" {
			s.key("cause")
			s.str(x.Cause)
		}
		if x.PrimaryCause != "" {
			s.key("primaryCause")
			s.str(x.PrimaryCause)
		}
		s.end('}')
	}
	if x := j.Broadcast; x != nil {
		s.key("broadcast")
		s.begin('{')
		s.key("mode")
		s.str(x.Mode)
		s.key("keys")
		s.strs(x.Keys)
		s.end('}')
	}
	if x := j.Join; x != nil {
		streamJoin(s, x)
	}
	if x := j.Scan; x != nil {
		streamScan(s, x)
	}
	streamSmall(s, j)
}

func streamJoin(s *jsonStream, x *joinJSON) {
	s.key("join")
	s.begin('{')
	s.key("strategy")
	s.str(x.Strategy)
	s.key("type")
	s.str(x.Type)
	s.key("leftKeys")
	s.strs(x.LeftKeys)
	s.key("rightKeys")
	s.strs(x.RightKeys)
	s.key("buildSide")
	s.str(x.BuildSide)
	s.key("condition")
	if x.Condition != nil {
		s.str(*x.Condition)
	} else {
		s.null()
	}
	s.end('}')
}

func streamScan(s *jsonStream, x *scanJSON) {
	s.key("scan")
	s.begin('{')
	s.key("table")
	s.str(x.Table)
	s.key("format")
	s.str(x.Format)
	s.key("bucketed")
	s.bool(x.Bucketed)
	s.key("bucketedReason")
	s.str(x.BucketedReason)
	s.key("selectedBuckets")
	s.int(x.SelectedBuckets)
	s.key("totalBuckets")
	s.int(x.TotalBuckets)
	s.key("coalescedTo")
	s.int(x.CoalescedTo)
	s.key("columns")
	s.strs(x.Columns)
	s.key("partitionFilters")
	s.strs(x.PartitionFilters)
	s.key("pushedFilters")
	s.strs(x.PushedFilters)
	s.key("dataFilters")
	s.strs(x.DataFilters)
	s.end('}')
}

// streamSmall writes the aggregate, sort, window, adaptive, stage, reuses and plans members.
func streamSmall(s *jsonStream, j *nodeJSON) {
	if x := j.Aggregate; x != nil {
		s.key("aggregate")
		s.begin('{')
		s.key("keys")
		s.strs(x.Keys)
		s.key("functions")
		s.strs(x.Functions)
		s.key("mode")
		s.str(x.Mode)
		s.end('}')
	}
	if x := j.Sort; x != nil {
		s.key("sort")
		s.begin('{')
		s.key("keys")
		s.strs(x.Keys)
		s.key("global")
		s.bool(x.Global)
		s.end('}')
	}
	if x := j.Window; x != nil {
		s.key("window")
		s.begin('{')
		s.key("partitionKeys")
		s.strs(x.PartitionKeys)
		s.key("orderKeys")
		s.strs(x.OrderKeys)
		s.end('}')
	}
	if x := j.Adaptive; x != nil {
		s.key("adaptive")
		s.begin('{')
		s.key("isFinalPlan")
		s.bool(x.IsFinalPlan)
		s.end('}')
	}
	optIntPtr(s, "stage", j.Stage)
	optIntPtr(s, "reuses", j.Reuses)
}
