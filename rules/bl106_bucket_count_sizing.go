package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

func bl106() *Rule {
	return &Rule{
		ID:    "BL106",
		Name:  "bucket-count-sizing",
		Title: "a bucket count far from what the table's size and the cluster's cores call for",
		Doc: "Every bucket is at least one file, and a bucketed join or aggregation runs one task per bucket.\n" +
			"Too few buckets make huge files and few, slow tasks (a 2 TB table in 8 buckets is 256 GB per\n" +
			"task); too many make tiny files, slow listing and per-task overhead.\n\n" +
			"The rule needs the table's size (`DESCRIBE EXTENDED` statistics or the catalog) and fires when\n" +
			"a bucket holds less than `min_bucket_bytes` (default 128 MiB) or more than `max_bucket_bytes`\n" +
			"(default 1 GiB) and the recommended count differs from the current one by a factor of 2 or\n" +
			"more. The recommended count is size / `target_bucket_bytes` (default 256 MiB) rounded up to a\n" +
			"power of two (which keeps later changes within bucket coalescing's reach), at least\n" +
			"`cluster_cores` when that is set and the table is large enough, at most\n" +
			"`spark.sql.sources.bucketing.maxBuckets`. Set the thresholds in .bucketlint.yaml.\n\n" +
			"A partitioned table holds each bucket once per partition, and no input records the number of\n" +
			"partitions: for it the sizes are whole-table estimates (upper bounds), the message says so and\n" +
			"the fix carries no edit.\n\n" +
			"A table small enough to broadcast (at most `spark.sql.autoBroadcastJoinThreshold`) is joined\n" +
			"by broadcasting it, never by its buckets: the rule then says its bucketing is unneeded instead\n" +
			"of proposing fewer buckets, and it never proposes a single bucket.\n\n" +
			"Tables joined on their bucket keys must keep equal counts (BL301): change them together." + suppressDoc("BL106"),
		Bad:      "-- sales.orders: 2 TiB\nCREATE TABLE sales.orders (id BIGINT, amt DOUBLE) USING parquet CLUSTERED BY (id) INTO 8 BUCKETS;",
		Good:     "CREATE TABLE sales.orders (id BIGINT, amt DOUBLE) USING parquet CLUSTERED BY (id) INTO 8192 BUCKETS;",
		Spark:    "2.0–4.x",
		Since:    "0.1.0",
		Severity: Info,
		Default:  true,
		Run:      runBL106,
	}
}

func runBL106(p *Pass) error {
	for _, t := range sortedTables(p.Project.Tables) {
		if !isBucketed(t) || t.Buckets().NumBuckets <= 0 || t.SizeInBytes <= 0 {
			continue
		}
		n := t.Buckets().NumBuckets
		per := t.SizeInBytes / int64(n)
		rec := recommendedBuckets(t.SizeInBytes, p.Thresholds, p.maxBuckets(tableSpan(t).Start))
		th := p.Thresholds
		var why string
		switch {
		case per > th.MaxBucketBytes && rec >= 2*n:
			why = fmt.Sprintf("above max_bucket_bytes %s", plan.FormatBytes(th.MaxBucketBytes))
		case per < th.MinBucketBytes && 2*rec <= n:
			why = fmt.Sprintf("below min_bucket_bytes %s", plan.FormatBytes(th.MinBucketBytes))
		case th.ClusterCores > 0 && n < th.ClusterCores && rec >= 2*n:
			why = fmt.Sprintf("fewer buckets than the cluster's %d cores", th.ClusterCores)
		default:
			continue
		}
		if thr := p.OptionsAt(tableSpan(t).Start).BroadcastThreshold(); thr > 0 && t.SizeInBytes <= thr && per < th.MinBucketBytes {
			// A table Spark broadcasts is never shuffled for a join: fewer buckets, down to
			// one, would still be files for nothing. Say so instead of proposing INTO 1 BUCKETS.
			d := Diagnostic{
				Span: tableSpan(t),
				Message: fmt.Sprintf("%s holds %s in %d buckets, %s per bucket: it is small enough to broadcast (spark.sql.autoBroadcastJoinThreshold %s), so joins broadcast it instead of reading its buckets, which only make small files",
					t.Name, plan.FormatBytes(t.SizeInBytes), n, plan.FormatBytes(per), plan.FormatBytes(thr)),
				Fix: &Fix{Description: fmt.Sprintf("Write %s without bucketBy / CLUSTERED BY: joins to it broadcast it", t.Name)},
			}
			p.Report(d)
			continue
		}
		rec = max(rec, 2) // one bucket is no parallelism: never the advice
		if per < th.MinBucketBytes && 2*rec > n {
			continue
		}
		d := Diagnostic{
			Span: tableSpan(t),
			Message: fmt.Sprintf("%s holds %s in %d buckets, %s per bucket (%s): about %s of %s fit it",
				t.Name, plan.FormatBytes(t.SizeInBytes), n, plan.FormatBytes(per), why, plural(rec, "bucket"), plan.FormatBytes(th.TargetBucketBytes)),
			Fix: &Fix{Description: fmt.Sprintf("Rebucket %s INTO %d BUCKETS, with the tables joined to it on the same keys", t.Name, rec)},
		}
		if partitioned(t) {
			// Every partition holds its own n bucket files; without the partition count the
			// sizes are of the whole table, upper bounds of a bucket file's.
			parts := strings.Join(t.PartitionColumns, ", ")
			if per > th.MaxBucketBytes {
				d.Message = fmt.Sprintf("%s holds %s in %d buckets per partition (partitioned by %s): %s per bucket if all of it were one partition; the partition count is unknown, so this is an estimate for the whole table",
					t.Name, plan.FormatBytes(t.SizeInBytes), n, parts, plan.FormatBytes(per))
				d.Fix = &Fix{Description: fmt.Sprintf("Size the count to one partition of %s: its size / %s, rounded to a power of two", t.Name, plan.FormatBytes(th.TargetBucketBytes))}
			} else {
				d.Message += fmt.Sprintf(", and each partition (by %s) holds less", parts)
				d.Fix = &Fix{Description: fmt.Sprintf("Rebucket %s INTO at most %d BUCKETS, sized to one partition, with the tables joined to it on the same keys", t.Name, rec)}
			}
			if s, ok := p.bucketCountSpan(t.Buckets()); ok {
				d.Span = s
			}
			p.Report(d)
			continue
		}
		if s, ok := p.bucketCountSpan(t.Buckets()); ok {
			d.Span = s
			if !p.joinedToBucketed(t) {
				// Joined to another bucketed table, the count changes with that table's:
				// editing this one alone would make their join shuffle (BL301), so the fix
				// stays the description that says to change them together.
				d.Fix.Edits = p.bucketCountEdits(t, rec)
			}
		}
		p.Report(d)
	}
	return nil
}

// recommendedBuckets is size / target rounded up to a power of two, at least the cluster's
// cores when every bucket would still hold min_bucket_bytes, at most maxBuckets.
func recommendedBuckets(size int64, th Thresholds, maxBuckets int) int {
	n := nextPowerOfTwo((size + th.TargetBucketBytes - 1) / th.TargetBucketBytes)
	if c := int64(th.ClusterCores); c > 0 && n < c && size/c >= th.MinBucketBytes {
		n = nextPowerOfTwo(c)
	}
	if n > int64(maxBuckets) {
		n = int64(maxBuckets)
	}
	return int(n)
}
