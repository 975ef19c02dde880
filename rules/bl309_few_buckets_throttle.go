package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

func bl309() *Rule {
	return &Rule{
		ID:    "BL309",
		Name:  "few-buckets-throttle",
		Title: "a tiny bucket count forcing a big join into few tasks",
		Doc: "A shuffle-free bucketed join runs exactly one task per bucket: 4 buckets means 4 tasks, however\n" +
			"big the tables and the cluster. The saved shuffle is then paid for with a stage that uses a\n" +
			"handful of cores, spills, and fails on skew. (AQE does not split or coalesce bucketed\n" +
			"partitions.)\n\n" +
			"The rule fires for joins whose both sides keep their bucketed scans when a side holds more\n" +
			"than `max_bucket_bytes` (default 1 GiB) per bucket, or — with `cluster_cores` set — when there\n" +
			"are fewer buckets than cores. A partitioned table holds each bucket once per partition: a\n" +
			"query that filters its partition columns to one value reads one partition, whose size no\n" +
			"input records, so the size is not used; for a join in code (whose filters are not modelled)\n" +
			"the whole-table estimate is reported as info. Rebucket both tables into a count sized to the data (BL106);\n" +
			"a power of two keeps bucket coalescing possible for tables with other counts." + suppressDoc("BL309"),
		Bad:      "-- a: 40 GiB, b: 30 GiB\nCREATE TABLE a (k INT) USING parquet CLUSTERED BY (k) INTO 4 BUCKETS;\nCREATE TABLE b (k INT) USING parquet CLUSTERED BY (k) INTO 4 BUCKETS;",
		Good:     "CREATE TABLE a (k INT) USING parquet CLUSTERED BY (k) INTO 256 BUCKETS;\nCREATE TABLE b (k INT) USING parquet CLUSTERED BY (k) INTO 256 BUCKETS;",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL309,
	}
}

func runBL309(p *Pass) error {
	th := p.Thresholds
	for _, s := range p.joinSites() {
		if !s.Causes.Has(simulate.CauseSatisfied) {
			continue
		}
		n := s.Left.Table.Buckets().NumBuckets
		big := &s.Left
		if s.Right.Table.SizeInBytes > big.Table.SizeInBytes {
			big = &s.Right
		}
		size := big.Table.SizeInBytes
		sev, hedge := Severity(0), ""
		switch {
		case s.Kind == workload.QuerySite && onePartition(s.Query, big.Table):
			// One partition of a table whose partition count is unknown: its size is unknown.
			size = 0
		case partitioned(big.Table) && s.Kind != workload.QuerySite:
			// Code filters are not modelled: the job may read one partition or all of them.
			sev, hedge = Info, fmt.Sprintf(" if the job reads every partition of %s (partitioned by %s)", big.Table.Name, strings.Join(big.Table.PartitionColumns, ", "))
		}
		var why string
		switch {
		case size > 0 && size/int64(n) > th.MaxBucketBytes:
			why = fmt.Sprintf("%s holds %s, %s per task%s (max_bucket_bytes %s)", big.Table.Name, plan.FormatBytes(size), plan.FormatBytes(size/int64(n)), hedge, plan.FormatBytes(th.MaxBucketBytes))
		case th.ClusterCores > 0 && n < th.ClusterCores:
			why = fmt.Sprintf("fewer tasks than the cluster's %d cores", th.ClusterCores)
			sev = 0
		default:
			continue
		}
		rec := n * 2
		if size > 0 {
			rec = max(rec, recommendedBuckets(size, th, p.maxBuckets(s.Span.Start)))
		}
		if th.ClusterCores > 0 {
			rec = max(rec, int(nextPowerOfTwo(int64(th.ClusterCores))))
		}
		d := Diagnostic{
			Severity: sev,
			Span:     s.Span,
			Message: fmt.Sprintf("the bucketed join of %s and %s runs in %d tasks, one per bucket: %s (%s)",
				s.Left.Table.Name, s.Right.Table.Name, n, why, p.spark()),
			Related: append(bucketRelated(s.Left.Table), bucketRelated(s.Right.Table)...),
			Fix:     &Fix{Description: fmt.Sprintf("Rebucket %s and %s INTO %d BUCKETS", s.Left.Table.Name, s.Right.Table.Name, rec)},
		}
		if size > 0 && partitioned(big.Table) {
			// The count applies per partition: the whole-table size cannot size it.
			d.Fix = &Fix{Description: fmt.Sprintf("Rebucket %s and %s into a count sized to one partition of %s (BL106)", s.Left.Table.Name, s.Right.Table.Name, big.Table.Name)}
			p.Report(d)
			continue
		}
		for i, side := range s.Sides() {
			if i == 1 && side.Table == s.Left.Table {
				break // a self-join: one spec to change
			}
			d.Fix.Edits = append(d.Fix.Edits, p.bucketCountEdits(side.Table, rec)...)
		}
		p.Report(d)
	}
	return nil
}
