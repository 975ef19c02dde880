package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

func bl310() *Rule {
	return &Rule{
		ID:    "BL310",
		Name:  "shuffle-on-bucketed-join",
		Title: "an Exchange in explain output under a join over a bucketed table, with its cause",
		Doc: "This is the finding on the real plan: Spark's explain output shows an `Exchange` (a shuffle the\n" +
			"planner inserted, origin `ENSURE_REQUIREMENTS`) between a join and the scan of a side, and at\n" +
			"least one side of the join reads a bucketed table. The rule reports the Exchange line and\n" +
			"explains the cause from the tables' bucket specs when the DDL or catalog is part of the\n" +
			"project: different bucket counts (BL301), one side not bucketed (BL302), bucket columns that\n" +
			"are not the join keys (BL303), a different column order (BL305),\n" +
			"a Hive table (BL105), bucketing disabled (BL401). Without the specs it says what the plan\n" +
			"shows (the scans' `Bucketed` fields). An Exchange caused by different key types is BL304's\n" +
			"finding, which points at it: one finding per Exchange.\n\n" +
			"Give bucketlint the tables' DDL (`SHOW CREATE TABLE` output works) with the explain text, and\n" +
			"run `bucketlint advise` on the query for a layout that removes the shuffle. Shuffles the query\n" +
			"asked for (`repartition`, `DISTRIBUTE BY`) are not reported." + suppressDoc("BL310"),
		Bad: "*(4) SortMergeJoin [a#50], [a#53], Inner\n" +
			":- *(1) Sort [a#50 ASC NULLS FIRST], false, 0\n" +
			":  +- FileScan parquet default.a[a#50] … Bucketed: true, … SelectedBucketsCount: 200 out of 200\n" +
			"+- *(3) Sort [a#53 ASC NULLS FIRST], false, 0\n" +
			"   +- Exchange hashpartitioning(a#53, 200), ENSURE_REQUIREMENTS, [plan_id=124]\n" +
			"      +- FileScan parquet default.b[a#53] … Bucketed: false (disabled by query planner), …",
		Good: "*(3) SortMergeJoin [a#50], [a#53], Inner\n" +
			":- *(1) Sort [a#50 ASC NULLS FIRST], false, 0\n" +
			":  +- FileScan parquet default.a[a#50] … Bucketed: true, … SelectedBucketsCount: 200 out of 200\n" +
			"+- *(2) Sort [a#53 ASC NULLS FIRST], false, 0\n" +
			"   +- FileScan parquet default.b[a#53] … Bucketed: true, … SelectedBucketsCount: 200 out of 200",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL310,
	}
}

func runBL310(p *Pass) error {
	for _, s := range p.joinSites() {
		if s.Kind != workload.ExplainSite || s.Broadcast || !bucketedJoin(s) {
			continue
		}
		if s.Causes.Has(simulate.CauseKeyCast) {
			// The key cast shuffles the side: BL304 reports it, pointing at the Exchange.
			continue
		}
		for i, side := range s.Sides() {
			if side.Exchange == nil {
				continue
			}
			other := s.Sides()[1-i]
			d := Diagnostic{
				Span: side.Exchange.Span(),
				Message: fmt.Sprintf("%s shuffles %s for the %s on %s: %s (%s)",
					exchangeText(side.Exchange), side.Label, s.Node.Info().Name, s.KeyText(), s.Explain(side).Text, p.spark()),
				Fix: &Fix{Description: layoutFix(s, side, other)},
			}
			if other.Scan != nil {
				d.Related = append(d.Related, Related{Span: other.Scan.Span(), Message: other.Label + " is read here, " + scanState(other)})
			}
			if side.Scan != nil {
				d.Related = append(d.Related, Related{Span: side.Scan.Span(), Message: side.Label + " is read here, " + scanState(side)})
			}
			if s.Left.Table != nil {
				d.Related = append(d.Related, bucketRelated(s.Left.Table)...)
			}
			if s.Right.Table != nil && s.Right.Table != s.Left.Table {
				d.Related = append(d.Related, bucketRelated(s.Right.Table)...)
			}
			p.Report(d)
		}
	}
	return nil
}

// bucketedJoin reports whether a side of a printed join reads a bucketed table: by its
// declaration, or by what its scan prints.
func bucketedJoin(s *workload.Site) bool {
	for _, side := range s.Sides() {
		if side.Table != nil && side.Table.Buckets() != nil {
			return true
		}
		if fs, ok := side.Scan.(*plan.FileScan); ok && (fs.TotalBuckets > 0 || fs.BucketedCause != plan.NotBucketedNone || (fs.Bucketed != nil && *fs.Bucketed)) {
			return true
		}
	}
	return false
}

// scanState says how a printed scan reads its table: "bucketed (200 of 200 buckets)".
func scanState(s *workload.Side) string {
	fs, ok := s.Scan.(*plan.FileScan)
	switch {
	case !ok:
		return "as " + s.Scan.Info().Name
	case fs.Bucketed != nil && !*fs.Bucketed && fs.BucketedReason != "":
		return "not bucketed (" + fs.BucketedReason + ")"
	case fs.TotalBuckets > 0 && fs.CoalescedTo > 0:
		return fmt.Sprintf("bucketed (%d buckets, coalesced to %d)", fs.TotalBuckets, fs.CoalescedTo)
	case fs.TotalBuckets > 0:
		return fmt.Sprintf("bucketed (%d of %d buckets)", fs.SelectedBuckets, fs.TotalBuckets)
	case fs.Bucketed != nil && !*fs.Bucketed:
		return "not bucketed"
	}
	return "without bucketing"
}

// exchangeText prints an Exchange without expression ids: "Exchange hashpartitioning(a, 200)".
func exchangeText(x *plan.Exchange) string {
	pt := x.Partitioning
	switch pt.Kind {
	case plan.HashPartitioning:
		return fmt.Sprintf("Exchange hashpartitioning(%s, %d)", strings.Join(plan.Texts(pt.Keys), ", "), pt.NumPartitions)
	case plan.RangePartitioning:
		return fmt.Sprintf("Exchange rangepartitioning(%s, %d)", strings.Join(plan.OrderTexts(pt.Orders), ", "), pt.NumPartitions)
	}
	return "Exchange " + string(pt.Kind)
}

// layoutFix says what removes the shuffle of side, from the tables' specs when known.
func layoutFix(s *workload.Site, side, other *workload.Side) string {
	const advise = "; `bucketlint advise` prints a layout that removes this shuffle"
	sm, om := side.Match(), other.Match()
	switch {
	case side.Table == nil || other.Table == nil:
		return "Add the tables' DDL (SHOW CREATE TABLE) to see the cause" + advise
	case s.Join().TypeMismatch() >= 0:
		return fmt.Sprintf("Store the join keys of %s and %s with the same type", side.Label, other.Label) + advise
	case sm == exactKeys && om == exactKeys && side.Table.Buckets().NumBuckets != other.Table.Buckets().NumBuckets:
		return fmt.Sprintf("Rebucket %s INTO %d BUCKETS to match %s", side.Table.Name, other.Table.Buckets().NumBuckets, other.Table.Name)
	case om == exactKeys && side.Table.Buckets() == nil:
		return fmt.Sprintf("Bucket %s by %s INTO %d BUCKETS, like %s", side.Table.Name, keyColumns(side.Keys), other.Table.Buckets().NumBuckets, other.Table.Name)
	case sm != exactKeys && sm != notBucketed:
		return fmt.Sprintf("Bucket %s by the join keys %s", side.Table.Name, keyColumns(side.Keys)) + advise
	}
	return "Make both sides bucketed alike on the join keys" + advise
}
