package sql

import "github.com/alecthomas/participle/v2/lexer"

// The DDL grammar: one struct per production, positions filled in by participle; qname and
// dataType are read by the hand-written parser (rd_types.go) through rd_bridge.go. Spark's own
// grammar is SqlBaseParser.g4 (createTableHeader, createTableClauses, bucketSpec,
// partitionFieldList, alterTable forms); the clauses of CREATE TABLE may come in any order.

// qname is a possibly qualified name: t, db.t, spark_catalog.db.t, `odd name`,
// IDENTIFIER('db.t'), or a {{ template }}.
type qname struct {
	Pos    pos
	EndPos pos
	Ident  *string
	Parts  []string
	// identX is the argument of IDENTIFIER(…) when it is not one string (read by rd only).
	identX *expr
}

// ident is one name part.
type ident struct {
	Pos  lexer.Position
	Name string `parser:"@(Ident | Quoted | Template)"`
}

// dataType is a column type: int, decimal(10, 2), array<int>, struct<a: int, b string>.
type dataType struct {
	Name   string
	Params []string
	Args   []*typeArg
	// unit are the fields of an interval type: YEAR [TO MONTH], DAY TO SECOND (read by rd only).
	unit []string
	// collate is the collation of STRING COLLATE name (read by rd only).
	collate string
	// uses are the version-dependent constructs of a type read for the DDL grammar.
	uses []featUse
}

// typeArg is an element of array<…>, map<…, …> or a struct<…> field.
type typeArg struct {
	Field   string
	Type    *dataType
	NotNull bool
	Comment string
}

// createTable is CREATE [OR REPLACE] [TEMPORARY] [EXTERNAL] TABLE … and REPLACE TABLE …,
// read by the hand-written parser (rd_create.go).
type createTable struct {
	Pos         lexer.Position
	EndPos      lexer.Position
	Replace     bool
	Temporary   bool
	External    bool
	IfNotExists bool
	Name        *qname
	Like        *qname
	Elements    *tableElements
	Clauses     []*createClause
	As          *queryStmt
}

// tableElement is a column definition or a table constraint.
type tableElement struct {
	Constraint *constraint `parser:"  @@"`
	Column     *columnDef  `parser:"| @@"`
}

// constraint is a table constraint, skipped.
type constraint struct {
	Name *ident     `parser:"( 'CONSTRAINT' @@ )?"`
	Kind string     `parser:"@( 'PRIMARY' 'KEY' | 'FOREIGN' 'KEY' | 'UNIQUE' | 'CHECK' )"`
	Rest []*skipTok `parser:"@@*"`
}

// columnDef is name type [NOT NULL] [DEFAULT …] [GENERATED …] [COMMENT '…'].
type columnDef struct {
	Pos  lexer.Position
	Name string       `parser:"@(Ident | Quoted | Template)"`
	Type *dataType    `parser:"@@"`
	Opts []*columnOpt `parser:"@@*"`
}

// columnOpt is one option of a column definition.
type columnOpt struct {
	NotNull   bool       `parser:"  @( 'NOT' 'NULL' )"`
	Comment   *string    `parser:"| 'COMMENT' @String"`
	Default   *expr      `parser:"| 'DEFAULT' @@"`
	Generated *generated `parser:"| @@"`
	Collate   string     `parser:"| 'COLLATE' @(Ident | String)"`
	Key       string     `parser:"| @( 'PRIMARY' 'KEY' | 'UNIQUE' )"`
}

// generated is GENERATED ALWAYS|BY DEFAULT AS [IDENTITY] [(…)].
type generated struct {
	Pos      lexer.Position
	Identity bool        `parser:"'GENERATED' ( 'ALWAYS' | 'BY' 'DEFAULT' ) 'AS' @'IDENTITY'?"`
	Args     []*innerTok `parser:"( '(' @@* ')' )?"`
}

// createClause is one clause after the column list, in any order.
type createClause struct {
	Pos         lexer.Position
	EndPos      lexer.Position
	Using       *qname        `parser:"  'USING' @@"`
	Options     []*property   `parser:"| 'OPTIONS' '(' ( @@ ( ',' @@ )* )? ')'"`
	Partitioned []*partField  `parser:"| ( 'PARTITIONED' | 'PARTITION' ) 'BY' '(' @@ ( ',' @@ )* ')'"`
	Bucket      *bucketClause `parser:"| @@"`
	Cluster     *clusterBy    `parser:"| @@"`
	Skewed      []*skipTok    `parser:"| 'SKEWED' 'BY' @@ 'ON' @@ ( ',' @@ )* ( 'STORED' 'AS' 'DIRECTORIES' )?"`
	RowFormat   *rowFormat    `parser:"| 'ROW' 'FORMAT' @@"`
	Stored      *storedAs     `parser:"| 'STORED' @@"`
	Location    *string       `parser:"| 'LOCATION' @String"`
	Comment     *string       `parser:"| 'COMMENT' @String"`
	Collation   string        `parser:"| 'DEFAULT'? 'COLLATION' @(Ident | String)"`
	Props       []*property   `parser:"| 'TBLPROPERTIES' '(' ( @@ ( ',' @@ )* )? ')'"`
}

// property is key [=] value of OPTIONS, TBLPROPERTIES, SERDEPROPERTIES.
type property struct {
	Key   []string `parser:"( @String | @(Ident | Quoted) ( '.' @(Ident | Quoted) )* )"`
	Value string   `parser:"( '='? @(String | Number | Ident) )?"`
}

// partField is a PARTITIONED BY element: a transform, or a column with an optional type.
type partField struct {
	Pos       lexer.Position
	EndPos    lexer.Position
	Transform *transform `parser:"  @@"`
	Column    *partCol   `parser:"| @@"`
}

// transform is a v2 partition transform: bucket(16, id), days(ts), truncate(4, s).
type transform struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   string          `parser:"@Ident '('"`
	Args   []*transformArg `parser:"( @@ ( ',' @@ )* )? ')'"`
}

// transformArg is one argument of a transform: a number, a string or a (dotted) column.
type transformArg struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Parts  []string `parser:"@(Number | String | Ident | Quoted) ( '.' @(Ident | Quoted) )*"`
}

// partCol is a partition column, typed in Hive form.
type partCol struct {
	Name    string    `parser:"@(Ident | Quoted | Template)"`
	Type    *dataType `parser:"( (?! 'COMMENT' ) @@ )?"`
	Comment string    `parser:"( 'COMMENT' @String )?"`
}

// bucketClause is CLUSTERED BY (…) [SORTED BY (…)] INTO n BUCKETS.
type bucketClause struct {
	Pos     lexer.Position
	EndPos  lexer.Position
	Columns []*ident   `parser:"'CLUSTERED' 'BY' '(' @@ ( ',' @@ )* ')'"`
	Sorted  []*sortCol `parser:"( 'SORTED' 'BY' '(' @@ ( ',' @@ )* ')' )?"`
	Num     string     `parser:"'INTO' @(Number | Template) 'BUCKETS'"`
	// Tokens are the clause's tokens, blanks and comments included, as the participle
	// grammar (ALTER TABLE's) fills them; marks reads the offsets below from them.
	Tokens []lexer.Token
	// colsOpen and colsClose bound what lies between the brackets of the column list,
	// countAt is the offset of the count's token; -1 when unknown.
	colsOpen, colsClose, countAt int
}

// sortCol is a SORTED BY column with its direction.
type sortCol struct {
	Pos  lexer.Position
	Name string `parser:"@(Ident | Quoted | Template)"`
	Dir  string `parser:"@( 'ASC' | 'DESC' )?"`
}

// clusterBy is DDL CLUSTER BY (cols) | AUTO | NONE: clustering, not bucketing.
type clusterBy struct {
	Pos     lexer.Position
	Columns []*qname `parser:"'CLUSTER' 'BY' ( '(' @@ ( ',' @@ )* ')'"`
	Mode    string   `parser:"| @( 'AUTO' | 'NONE' ) )"`
}

// rowFormat is ROW FORMAT SERDE … | DELIMITED ….
type rowFormat struct {
	Serde     *serde   `parser:"  @@"`
	Delimited []string `parser:"| 'DELIMITED' @( ( 'FIELDS' | 'COLLECTION' 'ITEMS' | 'MAP' 'KEYS' | 'LINES' ) 'TERMINATED' 'BY' String ( 'ESCAPED' 'BY' String )? | 'NULL' 'DEFINED' 'AS' String )*"`
}

// serde is SERDE 'class' [WITH SERDEPROPERTIES (…)].
type serde struct {
	Class string      `parser:"'SERDE' @String"`
	Props []*property `parser:"( 'WITH' 'SERDEPROPERTIES' '(' ( @@ ( ',' @@ )* )? ')' )?"`
}

// storedAs is STORED AS fmt | STORED AS INPUTFORMAT … OUTPUTFORMAT … | STORED BY ….
type storedAs struct {
	Input  string   `parser:"  'AS' ( 'INPUTFORMAT' @String 'OUTPUTFORMAT' String | "`
	Format string   `parser:"         @Ident )"`
	By     *storeBy `parser:"| 'BY' @@"`
}

// storeBy is STORED BY 'handler' [WITH SERDEPROPERTIES (…)].
type storeBy struct {
	Handler string      `parser:"@String"`
	Props   []*property `parser:"( 'WITH' 'SERDEPROPERTIES' '(' ( @@ ( ',' @@ )* )? ')' )?"`
}

// skipTok is one token or bracketed group skipped as text, stopping at a top-level comma or
// closing bracket.
type skipTok struct {
	Group []*innerTok `parser:"  '(' @@* ')'"`
	Tok   string      `parser:"| @~( '(' | ')' | ',' )"`
}

// innerTok is one token or group inside brackets, commas included.
type innerTok struct {
	Group []*innerTok `parser:"  '(' @@* ')'"`
	Tok   string      `parser:"| @~( '(' | ')' )"`
}
