package plan

import "strings"

// A CodeFile is what bucketlint found in one PySpark, Scala, notebook, shell or Spark
// configuration file: DataFrame writes and reads, joins, aggregations, SQL strings handed to
// spark.sql and configuration settings, each with its position. Names of tables are lower
// case, without backquotes and without a leading "spark_catalog."; paths are as written.
type CodeFile struct {
	// File is the input's name as given; Language is "python", "scala", "shell", "conf"
	// (spark-defaults.conf) or "sql" (a Databricks SQL notebook source).
	File     string
	Language string
	// Notebook is "ipynb" or "databricks" for notebooks, empty otherwise.
	Notebook string
	// Test is set for a test source by its build tool's or test runner's conventions (a
	// test or tests directory on its path, as Maven/sbt/Gradle's src/test and Python's tests/;
	// pytest's test_*.py and *_test.py; ScalaTest/JUnit's *Suite, *Test, *Tests, *Spec):
	// the data it writes is what the test makes, not a production job's.
	Test       bool
	Writes     []*Write
	Reads      []*Read
	Joins      []*CodeJoin
	Aggregates []*CodeAggregate
	// SQL are the SQL texts found: spark.sql arguments and %sql notebook cells, for a SQL
	// parser to read. spark.sql("SET k=v") is a Conf, not an SQLString.
	SQL   []*SQLString
	Confs []Conf
	// TempViews are the temporary views the file registers from DataFrames, in order.
	TempViews []*TempView
	// Assigns are the file's assignment statements, in order.
	Assigns []Assign
}

// An Assign is one assignment statement: "name = …" in Python, "val name = …" in Scala (also
// "a.b = …" and annotated "name: T = …"). Var is the name as written; Span runs from the
// name to the end of the assigned expression.
type Assign struct {
	Var  string
	Span Span
}

// A Write is one DataFrameWriter (df.write…) or DataFrameWriterV2 (df.writeTo(t)…) call
// chain that ends in a terminal call.
type Write struct {
	// Span runs from the written frame's expression to the end of the terminal call (a later
	// statement when the writer was bound to a variable).
	Span Span
	// Frame is the DataFrame written, resolved to its source tables where visible.
	Frame FrameRef
	// Format is the .format(f) or .using(f) argument, or the format implied by the terminal
	// (parquet, orc, csv, json, text, jdbc), lower case; empty when not given (Spark's
	// spark.sql.sources.default applies).
	Format string
	// Mode is the save mode, lower case ("overwrite", "append", "ignore", "errorifexists");
	// for writeTo it is the final action ("create", "createorreplace", "append", "overwrite",
	// "overwritepartitions", "replace").
	Mode    string
	Options []Option
	// PartitionBy are the partitionBy (or writeTo's partitionedBy) columns as written.
	PartitionBy     []string
	PartitionBySpan Span
	// Transforms are writeTo's partitionedBy transforms other than plain columns
	// (bucket(16, col("id")), days(col("ts"))), as a CREATE TABLE's PARTITIONED BY holds
	// them. TransformsExpr holds partitionedBy's arguments as written when one of them is
	// not known statically (a variable, a column built at run time); Transforms and
	// PartitionBy then hold only what is known, and the table's layout is not known.
	Transforms     []Transform
	TransformsExpr string
	// Bucket is the bucketBy(n, cols…) spec with sortBy's columns, nil when the chain has no
	// bucketBy. Bucket.Span covers ".bucketBy(…)" from its dot to its closing parenthesis.
	// When the count is not a literal (a variable not bound to a constant), NumBuckets is 0
	// and BucketCountExpr holds the argument as written.
	Bucket          *BucketSpec
	BucketCountExpr string
	// SortBy are sortBy's columns as written (kept when there is no bucketBy: Spark rejects
	// sortBy without bucketBy); SortBySpan covers ".sortBy(…)".
	SortBy     []string
	SortBySpan Span
	// Terminal is the call that performs the write: "saveAsTable", "save", "insertInto",
	// "parquet", "orc", "csv", "json", "text", "avro", "jdbc" or "writeTo".
	// TerminalSpan covers ".save(…)" from its dot to its closing parenthesis (for writeTo,
	// ".writeTo(…)"), the text a fix replaces.
	Terminal     string
	TerminalSpan Span
	// Table is the table written (saveAsTable, insertInto, writeTo, jdbc's table argument);
	// Path is the path written (save, parquet… or the "path" option, which for saveAsTable
	// is the external table's location). Either may be empty when the argument is not a
	// constant; TargetExpr then holds it as Read.Expr does.
	Table      string
	Path       string
	TargetExpr string
	// Repartition is the last repartition/coalesce/repartitionByRange applied to the frame,
	// in the same chain or in the definitions of the variables it comes from; nil if none is
	// visible (a join or aggregation after it discards it).
	Repartition *RepartitionCall
}

// An Option is one .option(k, v) of a reader or writer; Value is as written when not a
// constant.
type Option struct {
	Key   string
	Value string
	Pos   Pos
}

// A RepartitionCall is df.repartition(n, cols…), df.coalesce(n) or df.repartitionByRange(…).
type RepartitionCall struct {
	// Method is "repartition", "coalesce" or "repartitionByRange".
	Method string
	// N is the partition count, 0 when not given or not a constant (NExpr then holds it as
	// written, when given).
	N     int
	NExpr string
	// Cols are the partitioning columns as written (names for string arguments).
	Cols []string
	Span Span
}

// ReadKind says how a DataFrame was read.
type ReadKind string

// The read kinds.
const (
	// ReadTable is spark.table(t) or spark.read.table(t).
	ReadTable ReadKind = "table"
	// ReadPath is spark.read.parquet(path), spark.read.format(f).load(path) and the like:
	// files read by path, without any catalog bucket spec.
	ReadPath ReadKind = "path"
	// ReadSQL is spark.sql(query).
	ReadSQL ReadKind = "sql"
	// ReadJDBC is spark.read.jdbc(…) or format("jdbc").
	ReadJDBC ReadKind = "jdbc"
)

// A Read is one DataFrame read: spark.table, spark.read…, spark.sql.
type Read struct {
	Span Span
	Kind ReadKind
	// Table is the table read (ReadTable, or the "dbtable" of a JDBC read); Path the first
	// path read (ReadPath); Format the reader's format, lower case, empty when not given.
	Table  string
	Path   string
	Format string
	// Expr is the table or path argument when it is not a constant: for a string, its text
	// with "{expr}" standing for each unknown part (f"{base}/sales.db/orders" gives
	// "{base}/sales.db/orders"); otherwise the expression as written.
	Expr string
	// SQL is the query of a ReadSQL.
	SQL *SQLString
	// Var is the variable the read was assigned to in its statement, empty when none.
	Var string
}

// A FrameRef names a DataFrame used by a write, join or aggregation, and what it derives
// from as far as the file shows.
type FrameRef struct {
	// Var is the variable holding the frame (the base variable of a derived expression
	// such as orders.filter(…)), empty for a frame built inline.
	Var string
	// Text is the expression as written, cut to its first line and 80 bytes.
	Text string
	// Alias is the last .alias(a) / .as(a) name given to the frame.
	Alias string
	// Tables and Paths are the tables and paths the frame derives from, in order of first
	// appearance; SQL are the spark.sql queries it derives from. All empty: unresolved.
	Tables []string
	Paths  []string
	SQL    []*SQLString
	// Broadcast is set when the frame is wrapped in broadcast(…) or carries a broadcast hint;
	// Hints are the .hint(name) names, lower case.
	Broadcast bool
	Hints     []string
	// MaxRows is the most rows the frame can hold, when the code shows it: local data
	// (Seq(…).toDF, createDataFrame or parallelize of a literal list, a range with constant
	// bounds mapped to rows) and spark.range with constant bounds, followed only by methods
	// that never add rows (filter, a projection without a generator, an aggregation,
	// distinct, limit, repartition…). 0 when unknown.
	MaxRows int64
	// Local is set when the frame's rows are data the program holds: a local collection (a
	// literal list, a Scala range or for-comprehension, a Python comprehension, their map)
	// made a frame by toDF/toDS, createDataFrame or parallelize — Spark's LocalRelation (or an
	// RDD of the driver's data), whose rows live in the driver. Methods that keep the rows
	// keep it, a union keeps it when every input is local, a join or a method that may add
	// rows clears it.
	Local bool
	// RangeRows is set for spark.range(…) with constant bounds whose rows and single id
	// column only row-keeping methods that add no column followed (filter, sort,
	// repartition, limit…): Spark's analyzer then sizes it as 8 bytes a row
	// (Range.computeStats), MaxRows rows.
	RangeRows bool
	// ConstColumns are the columns, lower case, the code shows hold one value on every row
	// of the frame: lit(…) given a name, a literal or a cast of one in selectExpr.
	ConstColumns []string
	// Renamed maps a column the code renamed, lower case, to the column of the frame's
	// source it is: "i as ii" in selectExpr, col("i").as("ii"), withColumnRenamed("i", "ii").
	Renamed map[string]string
	Span    Span
}

// Resolved reports whether anything the frame derives from is known.
func (f FrameRef) Resolved() bool { return len(f.Tables)+len(f.Paths)+len(f.SQL) > 0 }

// A CodeJoin is one DataFrame join: left.join(right, on, how).
type CodeJoin struct {
	// Span covers the whole call expression, from the left frame to the closing parenthesis.
	Span  Span
	Left  FrameRef
	Right FrameRef
	// LeftKeys and RightKeys are the equi-join keys pairwise, each oriented to its side when
	// the condition's qualifiers allow it (by variable, alias or col("alias.k")). For a join
	// on column names both lists hold the names. Using is set for a join on names.
	LeftKeys  []ColumnRef
	RightKeys []ColumnRef
	Using     bool
	// On is the join argument as written; Residual are conjuncts that are not equalities of
	// two columns.
	On       string
	Residual []string
	// How is the join type as written, lower case; "inner" when not given. Type is Spark's
	// name for it, as plan.JoinSpec.Type has it ("Inner", "LeftOuter", "RightOuter",
	// "FullOuter", "LeftSemi", "LeftAnti", "Cross"), empty when How is not a known name.
	How  string
	Type string
	// Broadcast is "left" or "right" when that side is wrapped in broadcast(…) or carries a
	// broadcast hint, empty otherwise. Hints are both sides' .hint names, left first.
	Broadcast string
	Hints     []string
}

// A CodeAggregate is an operation that requires a distribution of a frame by keys:
// groupBy/groupby (also rollup, cube), a window's partitionBy used by .over(…), distinct,
// dropDuplicates, repartition and repartitionByRange.
type CodeAggregate struct {
	Span Span
	// Kind is the method: "groupBy", "rollup", "cube", "window", "distinct",
	// "dropDuplicates", "repartition", "repartitionByRange".
	Kind  string
	Frame FrameRef
	// Keys are the grouping or partitioning keys; empty for distinct (all columns).
	Keys []ColumnRef
}

// An SQLString is an SQL text found in code, for a SQL parser to read.
type SQLString struct {
	Text string
	// Pos is the position of the text's first byte. When Verbatim is set the text is a
	// byte-for-byte copy of one literal or notebook cell, and Lines[i] is the position of the
	// first byte of the text's line i+1 (Lines[0] == Pos), so a SQL parser maps line l,
	// column c of Text to Lines[l-1] advanced by c-1 columns. When Verbatim is not set
	// (escapes, concatenation, interpolation) only Pos is meaningful.
	Pos      Pos
	Lines    []Pos
	Verbatim bool
	// Resolved is set when every part of the text is a constant: literals, and f-string or
	// s-string interpolations of variables bound to string constants in the file. An
	// unresolved text holds "{expr}" where a part was unknown.
	Resolved bool
	// Span covers the call (spark.sql(…)) or the notebook cell.
	Span Span
}

// PosAt maps a position inside Text (1-based line and byte column, as a SQL parser reading
// Text alone reports it) to the position in the user's file. For a text that is not
// Verbatim, every position maps to Pos, the start of the text.
func (s *SQLString) PosAt(line, col int) Pos {
	if !s.Verbatim || line < 1 || line > len(s.Lines) || col < 1 {
		return s.Pos
	}
	p := s.Lines[line-1]
	p.Col += col - 1
	return p
}

// TableOfWrite is the catalogue entry a write defines, as Spark's session would create it:
// saveAsTable creates (or replaces) a table with the writer's format, bucket spec and
// partition columns; writeTo's create, createOrReplace and replace create one partitioned by
// partitionedBy's columns and transforms (a bucket transform of a file-source table becomes
// its bucket spec, as for CREATE TABLE). It is false for any other write, and for a write
// whose layout is not known statically (bucket or partition columns held in run-time values,
// writeTo into another catalog without using(), whose provider the catalog decides): such a
// table is not known, never guessed.
func TableOfWrite(w *Write) (*Table, bool) {
	if w.Table == "" {
		return nil, false
	}
	t := &Table{
		Name: w.Table, Format: w.Format, PartitionColumns: w.PartitionBy,
		Location: w.Path, SizeInBytes: -1, RowCount: -1, Sources: []Pos{w.Span.Start},
	}
	switch {
	case w.Terminal == "saveAsTable":
		if w.Bucket != nil && w.Bucket.ColumnsExpr != "" {
			return nil, false
		}
		t.SetBuckets(w.Bucket)
	case w.Terminal == "writeTo" && (w.Mode == "create" || w.Mode == "createorreplace" || w.Mode == "replace"):
		if w.TransformsExpr != "" {
			return nil, false
		}
		if parts := NameParts(w.Table); w.Format == "" && len(parts) > 2 && !strings.EqualFold(parts[0], "spark_catalog") {
			// A table of another catalog without using(): its provider is the catalog's,
			// which the code does not say.
			return nil, false
		}
		t.Layout = ComposeLayout(w.Format, false, nil, w.Transforms, nil)
	default:
		return nil, false
	}
	return t, true
}
