package plan

// A Project is everything bucketlint loaded from a user's paths, merged into one model so that
// rules can reason across files: the DDL in one file, the join in another.
type Project struct {
	// Files are the inputs read, in the order given.
	Files []string
	// Suppressions are the inline bucketlint:ignore comments of the files, in file order.
	Suppressions []Suppression
	// Tables are the declared or described tables, by lower-case name.
	Tables map[string]*Table
	// Explains are the explain outputs found.
	Explains []*Explain
	// Queries are the SQL queries found, in file order.
	Queries []*Query
	// Confs are the Spark configuration settings found, in file order.
	Confs []Conf
	Code  []*CodeFile // code facts (writes, reads, joins, SQL strings), one per code file read
	// Conflicts are the facts about a table that two sources state differently, in the order
	// of the tables' names; the table keeps the value of Kept.
	Conflicts []Conflict
	// TableEvents are the CREATE, DROP and RENAME statements and saveAsTable writes of every
	// script, by file in path order and within a file in statement order.
	TableEvents []TableEvent
	// Notes say what was read only in part or skipped on purpose (a dbt macro, Jinja not
	// understood), by file in path order.
	Notes []Note
}

// A Note is something a reader did not understand and skipped on purpose, at its place: not an
// error, as the input is valid where it came from (a dbt macro, a Jinja block).
type Note struct {
	Pos  Pos
	Text string
}

// A Conflict is one fact of a table that two sources disagree about: a bucket spec, a format,
// the columns or the partition columns. Kept is the source whose value the table keeps (a
// catalog or DESCRIBE output before DDL, DDL before a code write, then the earlier file).
type Conflict struct {
	Table string
	// Fact is "bucket spec", "format", "columns" or "partition columns".
	Fact       string
	Kept       Pos
	KeptValue  string
	Other      Pos
	OtherValue string
}

// String describes the conflict at the position of the value that was not kept.
func (c Conflict) String() string {
	return c.Other.String() + ": table " + c.Table + ": " + c.Fact + " " + c.OtherValue +
		" conflicts with " + c.KeptValue + " at " + c.Kept.String() + " (kept)"
}

// A Conf is one Spark configuration setting: SET k=v, --conf k=v, .config(k, v).
type Conf struct {
	Key   string
	Value string
	Pos   Pos
	// Span is the setting as written, from the key (or SET) to the end of the value and its
	// closing quote; zero when the parser could not tell (a SQL string with escapes).
	Span Span
	// Until, when valid, ends the setting's scope: it was set for a block only (Scala's
	// withSQLConf(k -> v) { … }, which sets the key, runs the block and restores the value
	// the key had before), and Until is the block's end. Zero for a setting that stays in
	// force to the end of its session.
	Until Pos
}
