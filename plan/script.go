package plan

// A TableEventKind says what a TableEvent does to the catalogue a session sees.
type TableEventKind string

// The table events.
const (
	// CreateTable is CREATE TABLE, CREATE TABLE … AS SELECT, REPLACE TABLE or CREATE TABLE …
	// LIKE in a SQL file or a SQL string of code.
	CreateTable TableEventKind = "create"
	// WriteTable is a DataFrame saveAsTable write, which creates (or replaces) the table.
	WriteTable TableEventKind = "write"
	// DropTable is DROP TABLE.
	DropTable TableEventKind = "drop"
	// RenameTable is ALTER TABLE … RENAME TO.
	RenameTable TableEventKind = "rename"
	// CacheTable is CACHE [LAZY] TABLE: the session's later scans of the table read the
	// cached plan.
	CacheTable TableEventKind = "cache"
)

// A TableEvent is one statement of a script (a SQL file, a code file and its SQL strings, a
// notebook) that creates, replaces, renames, drops or caches a table. A session replays its script's
// events in order to know which tables exist at a position; Project.Tables is the catalogue
// the scripts leave behind, merged.
type TableEvent struct {
	Kind TableEventKind
	// Pos is where the statement or write call starts.
	Pos Pos
	// Name is the table the statement names, lower case and qualified as the statement
	// gives it (after USE); NewName is the new name of a RenameTable.
	Name    string
	NewName string
	// Table is the table a CreateTable or WriteTable defines, as its script leaves it: the
	// ALTERs of the same script that follow (ADD COLUMNS, SET LOCATION …) are applied, and a
	// later CREATE of the same name after a DROP is another event. An empty Format means the
	// statement names none (CREATE TABLE without USING or STORED AS, saveAsTable without
	// format()): Spark's defaults for the version decide it.
	Table *Table
}

// A TempView is a temporary view that code registers from a DataFrame:
// df.createOrReplaceTempView(name) and its kin. It lives in the code file's session only.
type TempView struct {
	// Name is the view's name, lower case.
	Name string
	// Frame is the DataFrame registered, with what it derives from as far as the file shows.
	Frame FrameRef
	// Global is set for createGlobalTempView and createOrReplaceGlobalTempView (the view is
	// global_temp.<name>).
	Global bool
	// Span covers the call.
	Span Span
}
