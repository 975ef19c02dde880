package simulate

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A Why is the explanation of one shuffle: its primary cause as a value and the sentence a
// user reads.
type Why struct {
	Cause Cause
	Text  string
}

// A JoinSide is one input of an equi-join as the explainer sees it: the table whose layout
// it reads (or keeps, through a CTE, subquery or join), the keys on it and, for a printed
// plan, its scan.
type JoinSide struct {
	// Label names the side in sentences: "orders", "orders via CTE t", "the other input".
	Label string
	// Table is the side's table, nil when unknown (no DDL, a path, a derived input).
	Table *plan.Table
	// Keys are the equi-join keys on this side, in the join's pair order.
	Keys []plan.ColumnRef
	// Scan is the printed scan of the side, nil when none was printed.
	Scan plan.Node
}

// A Join is an equi-join whose shuffles are explained from its sides' layouts.
type Join struct {
	Left, Right JoinSide
	// BucketingEnabled is spark.sql.sources.bucketing.enabled where the join runs.
	BucketingEnabled bool
}

// Sides returns both sides, left first.
func (j *Join) Sides() [2]*JoinSide { return [2]*JoinSide{&j.Left, &j.Right} }

// Explain says why the join shuffles side focus (0 left, 1 right), from the tables' bucket
// specs, the keys and what the printed scans say, in one clause: bucketing disabled, a
// Hive-serde table, sides without bucketing, bucket columns that are not the keys (the focus
// side's own mismatch named first), key types that differ, columns that pair up in another
// order, bucket counts that differ. It is the one explanation of a join's shuffle that the
// rules print and report.
func (j *Join) Explain(focus int) Why {
	l, r := &j.Left, &j.Right
	if !j.BucketingEnabled || j.scanSays(CauseBucketingDisabled) {
		return Why{CauseBucketingDisabled, "spark.sql.sources.bucketing.enabled is false, so no scan is bucketed"}
	}
	for _, side := range j.Sides() {
		if side.Table != nil && side.Table.Hive && side.Table.Buckets() != nil {
			return Why{CauseHiveTable, side.Table.Name + " is a Hive-serde table, read without its bucket spec"}
		}
	}
	lm, rm := l.Match(), r.Match()
	switch {
	case lm == NotBucketed && rm == NotBucketed:
		if l.Table == nil && r.Table == nil {
			return Why{CauseUnknownTable, "the tables' bucket specs are unknown (add their DDL)"}
		}
		return Why{CauseUnbucketed, "neither side is bucketed"}
	case lm == ExactKeys && rm == NotBucketed:
		return Why{CauseUnbucketed, fmt.Sprintf("only %s is bucketed on the join keys; %s is not bucketed", l.Label, r.Label)}
	case rm == ExactKeys && lm == NotBucketed:
		return Why{CauseUnbucketed, fmt.Sprintf("only %s is bucketed on the join keys; %s is not bucketed", r.Label, l.Label)}
	}
	order := j.Sides()
	if focus == 1 {
		order[0], order[1] = order[1], order[0]
	}
	for _, side := range order {
		if m := side.Match(); m != ExactKeys && m != NotBucketed {
			return Why{m.Cause(), fmt.Sprintf("%s is bucketed on (%s) but joined on %s", side.Label, strings.Join(side.Table.Buckets().Columns, ", "), KeyColumns(side.Keys))}
		}
	}
	if i := j.TypeMismatch(); i >= 0 {
		return Why{CauseKeyCast, fmt.Sprintf("the join key types differ: %s is %s, %s is %s", l.KeyName(l.Keys[i]), l.RawType(l.Keys[i]), r.KeyName(r.Keys[i]), r.RawType(r.Keys[i]))}
	}
	if j.OrderMismatch() {
		return Why{CauseKeyOrder, fmt.Sprintf("%s is bucketed on (%s) and %s on (%s): the columns pair up in a different order", l.Label, strings.Join(l.Table.Buckets().Columns, ", "), r.Label, strings.Join(r.Table.Buckets().Columns, ", "))}
	}
	if lm == ExactKeys && rm == ExactKeys && l.Table.Buckets().NumBuckets != r.Table.Buckets().NumBuckets {
		return Why{CauseCountMismatch, fmt.Sprintf("the bucket counts differ: %s has %d, %s has %d", l.Label, l.Table.Buckets().NumBuckets, r.Label, r.Table.Buckets().NumBuckets)}
	}
	if lm == ExactKeys && rm == ExactKeys {
		return Why{j.droppedLayout(), "both sides are bucketed alike, so the scan or the planner dropped the layout (see the scans' Bucketed field)"}
	}
	return Why{CauseUnknown, "the layouts do not match the join keys"}
}

// scanSays reports whether a printed scan of the join says it is not read as bucketed for
// cause.
func (j *Join) scanSays(cause Cause) bool {
	for _, side := range j.Sides() {
		if side.Scan != nil && ScanCause(side.Scan) == cause {
			return true
		}
	}
	return false
}

// droppedLayout is the cause of a shuffle between sides bucketed alike: what a printed scan
// says dropped its bucketing, unknown when none says.
func (j *Join) droppedLayout() Cause {
	switch {
	case j.scanSays(CauseBucketColumnNotRead):
		return CauseBucketColumnNotRead
	case j.scanSays(CauseScanDisabled):
		return CauseScanDisabled
	}
	return CauseUnknown
}

// ScanCause says why a printed scan does not read its table as bucketed, as far as the scan
// shows it: a Hive table scan, a DataSource V2 scan, the cache, files read by path, or the
// reason a file scan prints after "Bucketed: false". It is CauseUnknown for a scan that
// reads its buckets or shows nothing either way.
func ScanCause(n plan.Node) Cause {
	switch x := n.(type) {
	case *plan.HiveTableScan:
		return CauseHiveTable
	case *plan.BatchScan:
		return CauseDataSourceV2
	case *plan.InMemoryTableScan:
		return CauseCached
	case *plan.FileScan:
		switch x.BucketedCause {
		case plan.NotBucketedByConfiguration:
			return CauseBucketingDisabled
		case plan.NotBucketedByPlanner:
			return CauseScanDisabled
		case plan.NotBucketedColumnsNotRead:
			return CauseBucketColumnNotRead
		}
		if x.Table == "" {
			return CauseReadByPath
		}
	}
	return CauseUnknown
}

// TypeMismatch returns the first key pair whose columns have different known types, or
// whose key casts its column to another type, -1 when none.
func (j *Join) TypeMismatch() int {
	l, r := &j.Left, &j.Right
	for i := range l.Keys {
		if i >= len(r.Keys) {
			break
		}
		lt, rt := l.KeyType(l.Keys[i]), r.KeyType(r.Keys[i])
		if lt != "" && rt != "" && lt != rt {
			return i
		}
		if l.CastsColumn(l.Keys[i]) || r.CastsColumn(r.Keys[i]) {
			return i
		}
	}
	return -1
}

// OrderMismatch reports whether both sides are bucketed on the join keys with columns that
// pair up in a different order: (a, b) on one side and (b, a) on the other for a = a, b = b.
func (j *Join) OrderMismatch() bool {
	l, r := j.Left.BucketKeyOrder(), j.Right.BucketKeyOrder()
	if len(l) == 0 || len(l) != len(r) || j.Left.Match() != ExactKeys || j.Right.Match() != ExactKeys {
		return false
	}
	for i := range l {
		if l[i] != r[i] {
			return true
		}
	}
	return false
}
