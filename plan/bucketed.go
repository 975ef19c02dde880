package plan

// A BucketedCause is why a FileScan of a bucketed table is not read as bucketed, as a value:
// the text Spark prints after "Bucketed: false" (3.3+), read by the explain parser, or the
// simulator's prediction of it. The zero value is NotBucketedNone.
type BucketedCause uint8

// The causes Spark prints (FileSourceScanExec.metadata, 3.3–4.x).
const (
	// NotBucketedNone: the scan is bucketed, or prints no reason.
	NotBucketedNone BucketedCause = iota
	// NotBucketedByConfiguration: "disabled by configuration"
	// (spark.sql.sources.bucketing.enabled=false).
	NotBucketedByConfiguration
	// NotBucketedByPlanner: "disabled by query planner" (DisableUnnecessaryBucketedScan,
	// spark.sql.sources.bucketing.autoBucketedScan.enabled).
	NotBucketedByPlanner
	// NotBucketedColumnsNotRead: "bucket column(s) not read".
	NotBucketedColumnsNotRead
	// NotBucketedOther: a reason this model does not know; BucketedReason has its text.
	NotBucketedOther
)

// String is the reason as Spark prints it, "" for NotBucketedNone and NotBucketedOther.
func (c BucketedCause) String() string {
	switch c {
	case NotBucketedByConfiguration:
		return "disabled by configuration"
	case NotBucketedByPlanner:
		return "disabled by query planner"
	case NotBucketedColumnsNotRead:
		return "bucket column(s) not read"
	}
	return ""
}
