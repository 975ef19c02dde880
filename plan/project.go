package plan

// A Project is everything bucketlint loaded from a user's paths, merged into one model so that
// rules can reason across files: the DDL in one file, the join in another.
type Project struct {
	// Files are the inputs read, in the order given.
	Files []string
	// Tables are the declared or described tables, by lower-case name.
	Tables map[string]*Table
	// Explains are the explain outputs found.
	Explains []*Explain
	// Queries are the SQL queries found, in file order.
	Queries []*Query
	// Confs are the Spark configuration settings found, in file order.
	Confs []Conf
	Code  []*CodeFile // code facts (writes, reads, joins, SQL strings), one per code file read
}

// A Conf is one Spark configuration setting: SET k=v, --conf k=v, .config(k, v).
type Conf struct {
	Key   string
	Value string
	Pos   Pos
}
