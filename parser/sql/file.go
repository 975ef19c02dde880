package sql

import "github.com/bucketlint/bucketlint/plan"

// A File is what one SQL file declares and runs, in statement order within each list.
type File struct {
	Name string
	// Tables are the tables created (CREATE TABLE, REPLACE TABLE, CTAS, CREATE TABLE LIKE),
	// as each statement declared them; later changes are in Changes, not applied.
	Tables []*plan.Table
	// Changes are ALTER TABLE, DROP TABLE, ANALYZE TABLE and CACHE TABLE statements.
	Changes []Change
	// Queries are SELECT, INSERT … SELECT and the queries of CTAS, CACHE TABLE … AS and
	// CREATE VIEW … AS (Query.View set).
	Queries []*plan.Query
	// Confs are SET key=value statements.
	Confs []plan.Conf
	// Other are the statements not modelled (views, functions, SHOW, DESCRIBE …), as text.
	Other []Statement
	// Database is the database of the last USE at the end of the text ("" when none), which
	// the next SQL text of the same session starts from (ParseSession).
	Database string
}

// A Statement is a statement kept as text.
type Statement struct {
	Pos  plan.Pos
	Text string
}

// A ChangeKind names what a Change does.
type ChangeKind string

// The table changes.
const (
	// ChangeBucket is ALTER TABLE … CLUSTERED BY … INTO n BUCKETS (Hive syntax; Spark rejects
	// it with "Operation not allowed", so the spec is recorded but never applied by Spark).
	ChangeBucket ChangeKind = "alter-bucket"
	// ChangeNotBucketed is ALTER TABLE … NOT CLUSTERED | NOT SORTED | NOT SKEWED (also rejected
	// by Spark).
	ChangeNotBucketed ChangeKind = "alter-not-clustered"
	// ChangeClusterBy is ALTER TABLE … CLUSTER BY (…) | NONE (4.0+, Delta): clustering.
	ChangeClusterBy ChangeKind = "alter-cluster-by"
	// ChangeSetProperties and ChangeUnsetProperties are ALTER TABLE … [UN]SET TBLPROPERTIES.
	ChangeSetProperties   ChangeKind = "set-tblproperties"
	ChangeUnsetProperties ChangeKind = "unset-tblproperties"
	// ChangeAddColumns is ALTER TABLE … ADD COLUMNS.
	ChangeAddColumns ChangeKind = "add-columns"
	// ChangeRename is ALTER TABLE … RENAME TO.
	ChangeRename ChangeKind = "rename"
	// ChangeSetLocation is ALTER TABLE … SET LOCATION.
	ChangeSetLocation ChangeKind = "set-location"
	// ChangeOtherAlter is any other ALTER TABLE (harmless for bucketing), kept as text.
	ChangeOtherAlter ChangeKind = "alter"
	// ChangeDrop is DROP TABLE.
	ChangeDrop ChangeKind = "drop"
	// ChangeAnalyze is ANALYZE TABLE … COMPUTE STATISTICS.
	ChangeAnalyze ChangeKind = "analyze"
	// ChangeCache is CACHE [LAZY] TABLE.
	ChangeCache ChangeKind = "cache"
)

// A Change is one statement that changes or uses an existing table.
type Change struct {
	Kind  ChangeKind
	Table string
	// NewName is the target of RENAME TO; Location of SET LOCATION.
	NewName  string
	Location string
	// Bucket is the spec of ChangeBucket.
	Bucket *plan.BucketSpec
	// ClusterBy are the columns of ChangeClusterBy (empty for NONE, "auto" for AUTO).
	ClusterBy []string
	// Columns are the columns of ChangeAddColumns.
	Columns []plan.Column
	// Properties are the keys and values of [UN]SET TBLPROPERTIES, in order: key, value, ….
	Properties []string
	Pos        plan.Pos
	Text       string
}
