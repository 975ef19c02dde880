package plan

// A Query is one SQL query statement read as a logical workload: a SELECT, a WITH … SELECT,
// an INSERT INTO|OVERWRITE … SELECT, the query of a CREATE TABLE … AS SELECT or of a CACHE
// TABLE … AS SELECT. It is what a physical-planner simulator builds a plan from: the relation
// tree (scans, joins, subqueries, set operations) with, at each SELECT block, the keys that
// drive Spark's required distributions (join keys, GROUP BY keys, window partition keys,
// DISTRIBUTE BY keys) and the filters that allow bucket pruning.
//
// Names are lower case. A table name is qualified as the source gave it, after USE scoping
// (an unqualified name read after "USE db" is "db.t") and with a leading "spark_catalog."
// removed; a name that refers to a CTE keeps the CTE's name and Relation.CTE says so.
type Query struct {
	// Span is the statement's extent; Text is the statement as written, comments included.
	Span Span
	Text string
	// Target is the table written by INSERT, CTAS or CACHE TABLE … AS, empty for a plain query.
	Target string
	// Overwrite is set for INSERT OVERWRITE.
	Overwrite bool
	// View is set when Target is a view the query defines (CREATE VIEW … AS) rather than a
	// table it writes: a query reading the view reads this query.
	View bool
	// ViewColumns are the names of a view's column list "CREATE VIEW v (a, b) AS …", lower
	// case, which rename the query's output columns in order; empty when none is written.
	ViewColumns []string
	// Temp is set for a temporary view (CREATE TEMPORARY VIEW, CREATE GLOBAL TEMPORARY VIEW),
	// which only the session that creates it sees; a view without it is a catalogue entry.
	Temp bool
	// Weight is the N of a "-- weight: N" comment in the statement (how often the query runs,
	// for advice), 0 when none is written.
	Weight float64
	// Hints are statement-level hints: those of INSERT /*+ … */ INTO.
	Hints []Hint
	// CTEs are the WITH clause's named queries, in declared order.
	CTEs []*CTE
	// Root is the query's relation: usually a SelectRel, or a SetRel for UNION and the like.
	Root *Relation
}

// A CTE is one named query of a WITH clause.
type CTE struct {
	Name string
	// Columns are the names of a column list "name (a, b) AS (…)", lower case, which rename
	// the query's output columns in order; empty when none is written.
	Columns []string
	Root    *Relation
	Span    Span
	// View is the view whose definition holds this CTE, when name resolution added a view's
	// CTEs to the query reading it (named "view.cte"); empty for the query's own.
	View string
}

// A RelationKind says which kind of relation a Relation is.
type RelationKind string

// The relation kinds.
const (
	// TableRel is a scan of a named table (or of a CTE, when Relation.CTE is set).
	TableRel RelationKind = "table"
	// JoinRel is a join of two relations; Relation.Join holds it.
	JoinRel RelationKind = "join"
	// SelectRel is a SELECT block (a query or a subquery in FROM); Relation.Select holds it.
	SelectRel RelationKind = "select"
	// SetRel is UNION [ALL], INTERSECT or EXCEPT of Relation.Inputs.
	SetRel RelationKind = "set"
	// OtherRel is any relation not modelled (VALUES, a table-valued function, a template);
	// its text is kept.
	OtherRel RelationKind = "other"
)

// A Relation is one node of a query's relation tree.
type Relation struct {
	Kind RelationKind
	Span Span
	// Text is the relation as written.
	Text string
	// Alias is the name the relation is referred to by in its scope ("o" in "orders o"), empty
	// when none was given.
	Alias string
	// ColumnAliases are the names of a column alias list "AS x (a, b)", lower case, which
	// rename the relation's output columns in order; empty when none is written.
	ColumnAliases []string
	// View is the name of the view this relation was read from, set when name resolution
	// replaced a scan of a view by the view's query (as Spark's analyzer does); empty
	// otherwise.
	View string
	// ViewQuery is that view's definition as parsed (its text and its own CTEs), for a tool
	// that writes the query back as SQL; nil when View is empty.
	ViewQuery *Query
	// Table is the table name of a TableRel; NameSpan is the extent of that name as written
	// (without the alias), where a tool that rewrites the query's text puts another name.
	Table    string
	NameSpan Span
	// CTE is set when a TableRel names a CTE of the enclosing query rather than a table.
	CTE bool
	// Join is the join of a JoinRel.
	Join *JoinSpec
	// Select is the SELECT block of a SelectRel.
	Select *Select
	// SetOp is "UNION", "UNION ALL", "INTERSECT", "EXCEPT" … for a SetRel; Inputs are its
	// operands in order.
	SetOp  string
	Inputs []*Relation
}

// Name returns the name columns of the relation are qualified by: its alias, else its table
// name's last part.
func (r *Relation) Name() string {
	if r.Alias != "" {
		return r.Alias
	}
	return NameTail(r.Table)
}

// A JoinSpec is one join of a FROM clause. Joins nest to the left as Spark builds them:
// "a JOIN b ON … JOIN c ON …" is Join(Join(a, b), c).
type JoinSpec struct {
	// Type is Spark's join type name: "Inner", "LeftOuter", "RightOuter", "FullOuter",
	// "LeftSemi", "LeftAnti", "Cross".
	Type string
	// Natural is set for a NATURAL join; Using lists a USING join's columns. In both cases the
	// keys are the same-named columns of both sides.
	Natural bool
	Using   []string
	// Comma is set for a join written as a comma in the FROM list. Its type is Inner; its keys
	// are the WHERE equalities between the two sides, as Spark's optimizer pushes them down.
	Comma bool
	Left  *Relation
	Right *Relation
	// LeftKeys and RightKeys are the equi-join keys, pairwise: LeftKeys[i] = RightKeys[i],
	// each oriented to its side.
	LeftKeys  []ColumnRef
	RightKeys []ColumnRef
	// Condition is the ON condition as written, empty for none; Residual are its conjuncts
	// that are not equi-join keys (non-equi parts), as written.
	Condition string
	Residual  []string
	// ConditionX is the ON condition as a tree, nil for none; ResidualX are the trees of
	// Residual, pairwise.
	ConditionX *X
	ResidualX  []*X
	Span       Span
}

// A Select is one SELECT block.
type Select struct {
	Span Span
	// HintAt is where a new hint comment goes: just after the SELECT keyword; zero when the
	// parser did not record it.
	HintAt Pos
	// Hints are the /*+ … */ hints of the block.
	Hints    []Hint
	Distinct bool
	// Items are the select-list expressions as written; ItemsX are the same as trees,
	// without their aliases, which ItemAliases holds ("" where none was given).
	Items       []string
	ItemsX      []*X
	ItemAliases []string
	// From is the FROM tree: a single relation or a tree of joins; nil for SELECT without FROM.
	From *Relation
	// Where is the WHERE condition as written; Filters are its conjuncts that compare a column
	// to literals (=, IN, <=>), the predicates that allow bucket pruning.
	Where   string
	WhereX  *X
	Filters []KeyFilter
	// Equalities are the WHERE conjuncts equating two columns, as written. They are the join
	// keys of comma joins; when their columns could not be placed (unqualified names over
	// several tables), a simulator places them with the tables' schemas.
	Equalities []ColumnPair
	// GroupBy are the GROUP BY keys; Aggregate is set when the block aggregates (GROUP BY, or
	// an aggregate function without GROUP BY, or DISTINCT).
	GroupBy   []ColumnRef
	Aggregate bool
	Having    string
	HavingX   *X
	// Windows are the window specifications of OVER clauses, in order of appearance.
	Windows []WindowSpec
	// DistributeBy and SortBy are the DISTRIBUTE BY and SORT BY keys; CLUSTER BY k sets both.
	DistributeBy []ColumnRef
	SortBy       []ColumnRef
	// OrderBy are the ORDER BY keys; Limit is the LIMIT expression as written.
	OrderBy []ColumnRef
	Limit   string
	// Generators are the LATERAL VIEWs of the FROM clause, in order: each applies a
	// generator to every row of From (and of the generators before it), adding its columns
	// to the row's (Spark's Generate). WHERE and what follows see their columns.
	Generators []Generator
	// Pivot is set when the block is a PIVOT clause over From (with its Generators): Items
	// are the aggregates, and the block aggregates by the columns of its input that are
	// neither pivoted nor referenced by an aggregate (Spark's ResolvePivot). Those are the
	// GroupBy keys once name resolution (workload.Resolve) knows the input's columns, and
	// Pivot.Grouped says so.
	Pivot *Pivot
}

// A Generator is one LATERAL VIEW [OUTER] f(…) alias AS c1, c2.
type Generator struct {
	// X is the generator call as a tree; Function is its name, lower case ("explode").
	X        *X
	Function string
	Outer    bool
	// Alias is the name its columns are qualified by, lower case, "" when none is given;
	// Columns are its columns' names, lower case (empty when none are written: Spark then
	// names them after the generator, col, key and value, pos …).
	Alias   string
	Columns []string
	Span    Span
}

// A Pivot is a PIVOT (aggregates FOR columns IN (values)) clause.
type Pivot struct {
	// Columns are the FOR column or columns.
	Columns []ColumnRef
	// Values are the IN values as written; Names are the names of the columns the pivot
	// makes, in Spark's order (for each value, each aggregate): the value's alias or text,
	// followed by "_" and the aggregate's alias or text when there are several aggregates.
	Values []string
	Names  []string
	// Grouped is set when Select.GroupBy holds the implicit grouping columns, which name
	// resolution finds from the input's columns; clear, the grouping is not known.
	Grouped bool
}

// A ColumnPair is two keys compared for equality.
type ColumnPair struct {
	Left, Right ColumnRef
}

// A WindowSpec is one OVER (PARTITION BY … ORDER BY …) specification.
type WindowSpec struct {
	// Function is the window function's name, lower case: "sum", "row_number".
	Function string
	// Args are the function's arguments as written ("*" for count(*)); Distinct is set for
	// f(DISTINCT …).
	Args     []string
	Distinct bool
	// ArgsX are the arguments as trees, pairwise with Args (one OpStar for count(*), none
	// when the arguments are not expressions, as in extract(year FROM d)).
	ArgsX []*X
	// Item is the 1-based position in Select.Items of the select item that is exactly this
	// call (aliased or not); 0 when the call is part of a larger expression or outside the
	// select list (QUALIFY).
	Item        int
	PartitionBy []ColumnRef
	OrderBy     []ColumnRef
	// Frame is the ROWS or RANGE frame as written, nil when none is (Spark's default frame).
	Frame *WindowFrame
	Span  Span
}

// A WindowFrame is an explicit ROWS or RANGE frame of a window specification.
type WindowFrame struct {
	// Rows is set for ROWS, clear for RANGE.
	Rows bool
	// Start and End are the bounds, upper case with single spaces: "UNBOUNDED PRECEDING",
	// "CURRENT ROW", "2 PRECEDING", "1 FOLLOWING", "UNBOUNDED FOLLOWING". A frame written
	// with one bound ("ROWS 2 PRECEDING") ends at "CURRENT ROW".
	Start, End string
	// StartX and EndX are the bounds as Spark prints them in a SpecifiedWindowFrame (and
	// parser/explain reads them): a call of unboundedpreceding$, currentrow$ or
	// unboundedfollowing$, or the offset, negative when preceding (2 PRECEDING is the literal
	// -2, an expression e preceding is -(e)).
	StartX, EndX *X
}

// A KeyFilter is a WHERE conjunct comparing a column to literal values.
type KeyFilter struct {
	Column ColumnRef
	// Op is "=", "<=>" or "IN" (negated forms are not filters).
	Op string
	// Values are the literals as written; ValuesX are their trees (OpLiteral), pairwise.
	Values  []string
	ValuesX []*X
}

// A Hint is one hint of a /*+ … */ comment: BROADCAST(t), MERGE(a, b), SHUFFLE_HASH(t),
// SHUFFLE_REPLICATE_NL(t), REPARTITION(8, c), COALESCE(4), REBALANCE(c) ….
type Hint struct {
	// Name is upper case ("BROADCASTJOIN" and "MAPJOIN" are kept as written, not aliased).
	Name string
	// Args are the arguments as written, names lower case. ArgsX are their trees, pairwise,
	// for the hints whose arguments are expressions (REPARTITION, REPARTITION_BY_RANGE,
	// REBALANCE, COALESCE); nil for join hints, whose arguments name relations.
	Args  []string
	ArgsX []*X
	Pos   Pos
}

// A ColumnRef is an expression used as a key: a join, grouping, window, distribution or sort
// key. When it is a column of a relation in scope (possibly under a cast), Column and the
// names locating it are set; otherwise only Text is.
type ColumnRef struct {
	// Text is the expression as written.
	Text string
	// Qualifier is the qualifier as written ("o" in "o.id"), lower case, empty when none.
	Qualifier string
	// Relation is the name of the relation in scope the column belongs to (alias or table
	// name); Table is that relation's table when it is a table scan. Both are empty when the
	// column could not be placed (an unqualified column with several relations in scope: a
	// simulator resolves it against the tables' schemas).
	Relation string
	Table    string
	// Column is the column name, empty when the expression is not a (cast) column.
	Column string
	// X is the key as an expression tree.
	X *X
	// Cast is the target type of a CAST around the column ("bigint"), empty when not cast.
	Cast string
	// NameString is set for a DataFrame key written as a column name in a string ("k",
	// 'o.k') rather than as an expression (col("k"), df.k).
	NameString bool
	// Desc is set for a DESC sort key; Nulls is "FIRST" or "LAST" when written (NULLS FIRST,
	// NULLS LAST), empty for the default (first ascending, last descending).
	Desc  bool
	Nulls string
	Pos   Pos
}

// IsColumn reports whether the key is a plain column, possibly cast.
func (c ColumnRef) IsColumn() bool { return c.Column != "" }

// WalkRelation calls fn on r and then on the relations under it, depth first, left before
// right: a join's sides, a SELECT block's FROM tree, a set operation's inputs. It stops
// descending below a relation for which fn returns false.
func WalkRelation(r *Relation, fn func(*Relation) bool) {
	if r == nil || !fn(r) {
		return
	}
	switch r.Kind {
	case JoinRel:
		if r.Join != nil {
			WalkRelation(r.Join.Left, fn)
			WalkRelation(r.Join.Right, fn)
		}
	case SelectRel:
		if r.Select != nil {
			WalkRelation(r.Select.From, fn)
		}
	case SetRel:
		for _, in := range r.Inputs {
			WalkRelation(in, fn)
		}
	}
}

// WalkRelations walks every relation of q: its CTEs' in declared order, then its root.
func (q *Query) WalkRelations(fn func(*Relation) bool) {
	for _, c := range q.CTEs {
		WalkRelation(c.Root, fn)
	}
	WalkRelation(q.Root, fn)
}
