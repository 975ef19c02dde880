package simulate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// describe fills an emitted operator's Args and Text the way Spark's simple explain mode
// prints the operator (without expression ids), and a file scan's bucketing fields as the
// modelled version prints them: SelectedBucketsCount for any table with a bucket spec in 3.0,
// for bucketed scans only from 3.1, and "Bucketed: …" from 3.3 (SPARK-32986).
func (s *sim) describe(n *node) {
	in := n.op.Info()
	switch op := n.op.(type) {
	case *plan.FileScan:
		in.Args = describeScan(n, op, s.b)
		if n.scan != nil && n.scan.bucketed && !n.scan.disabled {
			s.res.BucketedScans = append(s.res.BucketedScans, op)
		}
	case *plan.HiveTableScan:
		in.Args = "[" + exprsText(op.Output) + "], HiveTableRelation [" + op.Table + "]"
	case *plan.BatchScan:
		in.Args = op.Table + "[" + exprsText(op.Output) + "]"
	case *plan.Exchange:
		in.Args = toPart(op.Partitioning).String()
		if op.Partitioning.Kind == plan.RangePartitioning {
			in.Args = "rangepartitioning(" + strings.Join(plan.OrderTexts(op.Partitioning.Orders), ", ") + ", " + strconv.Itoa(op.Partitioning.NumPartitions) + ")"
		}
		if op.Origin != "" {
			in.Args += ", " + op.Origin
		} else if op.NoUserSpecifiedNumPartition != nil {
			in.Args += ", " + strconv.FormatBool(*op.NoUserSpecifiedNumPartition)
		}
	case *plan.BroadcastExchange:
		in.Args = op.Mode
	case *plan.Sort:
		in.Args = "[" + strings.Join(plan.OrderTexts(op.Orders), ", ") + "], " + strconv.FormatBool(op.Global) + ", 0"
	case *plan.Filter:
		in.Args = op.Condition.Text()
	case *plan.ProjectExec:
		in.Args = "[" + exprsText(op.Exprs) + "]"
	case *plan.Window:
		// WindowExec's argString leaves out an empty partition or order list.
		args := []string{"[" + exprsText(op.Exprs) + "]"}
		if len(op.PartitionKeys) > 0 {
			args = append(args, "["+exprsText(op.PartitionKeys)+"]")
		}
		if len(op.Orders) > 0 {
			args = append(args, "["+strings.Join(plan.OrderTexts(op.Orders), ", ")+"]")
		}
		in.Args = strings.Join(args, ", ")
	}
	if j, ok := plan.JoinOf(n.op); ok {
		in.Args = describeJoin(j)
	}
	if g, ok := plan.AggregateOf(n.op); ok {
		key := "keys"
		if _, sortAgg := n.op.(*plan.SortAggregate); sortAgg {
			key = "key" // SortAggregateExec prints "key=[…]"
		}
		in.Args = "(" + key + "=[" + exprsText(g.Keys) + "], functions=[" + exprsText(g.Functions) + "])"
		in.Text = in.Name + in.Args // HashAggregate(keys=[…], functions=[…])
		return
	}
	in.Text = strings.TrimSpace(in.Name + " " + in.Args)
}

func describeJoin(j *plan.Join) string {
	var b strings.Builder
	if j.Strategy != plan.BroadcastNestedLoopJoinStrategy && j.Strategy != plan.CartesianProductStrategy {
		fmt.Fprintf(&b, "[%s], [%s], ", exprsText(j.LeftKeys), exprsText(j.RightKeys))
	}
	b.WriteString(j.Type)
	if j.BuildSide != "" {
		b.WriteString(", " + j.BuildSide)
	}
	if j.Condition != nil {
		b.WriteString(", " + j.Condition.Text())
	}
	return b.String()
}

func describeScan(n *node, op *plan.FileScan, b Behaviour) string {
	si := n.scan
	var fields []string
	if si == nil {
		return op.Format + " " + op.Table + "[" + exprsText(op.Output) + "]"
	}
	op.Metadata = map[string]string{}
	spec := si.table.Buckets()
	bucketed := si.bucketed && !si.disabled
	if spec != nil && isSparkBucketed(si.table) && b.ExplainBucketedField {
		b := false
		op.Bucketed = &b
		switch {
		case bucketed:
			b = true
			op.Metadata["Bucketed"] = "true"
		case si.disabled:
			op.BucketedCause = plan.NotBucketedByPlanner
		case si.cause == CauseBucketColumnNotRead:
			op.BucketedCause = plan.NotBucketedColumnsNotRead
		default:
			op.BucketedCause = plan.NotBucketedByConfiguration
		}
		op.BucketedReason = op.BucketedCause.String()
		if !b {
			op.Metadata["Bucketed"] = "false (" + op.BucketedReason + ")"
		}
		fields = append(fields, "Bucketed: "+op.Metadata["Bucketed"])
	}
	if spec != nil && isSparkBucketed(si.table) && (bucketed || !b.DisableUnnecessaryBucketedScan) {
		op.TotalBuckets = spec.NumBuckets
		op.SelectedBuckets = spec.NumBuckets
		if si.pruned {
			op.SelectedBuckets = si.selected
		}
		sel := fmt.Sprintf("%d out of %d", op.SelectedBuckets, op.TotalBuckets)
		if si.coalescedTo > 0 && bucketed {
			op.CoalescedTo = si.coalescedTo
			sel += fmt.Sprintf(" (Coalesced to %d)", si.coalescedTo)
		}
		op.Metadata["SelectedBucketsCount"] = sel
		fields = append(fields, "SelectedBucketsCount: "+sel)
	}
	text := op.Format + " " + op.Table + "[" + exprsText(op.Output) + "]"
	if len(fields) > 0 {
		text += " " + strings.Join(fields, ", ")
	}
	return text
}

// isSparkBucketed reports a table whose bucket spec Spark keeps when reading: a data source
// table (not Hive-format, not Delta).
func isSparkBucketed(t *plan.Table) bool {
	return t.Buckets() != nil && !t.Hive && plan.FileSourceFormat(strings.ToLower(t.Format))
}
