package sql

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// alterTable is ALTER TABLE name action. Actions not modelled are kept as tokens.
type alterTable struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   *qname       `parser:"'ALTER' 'TABLE' @@"`
	Action *alterAction `parser:"@@"`
}

// alterAction is the action of ALTER TABLE.
type alterAction struct {
	Bucket       *bucketClause `parser:"  @@"`
	NotClustered string        `parser:"| 'NOT' @( 'CLUSTERED' | 'SORTED' | 'SKEWED' )"`
	Cluster      *clusterBy    `parser:"| @@"`
	SetProps     []*property   `parser:"| 'SET' 'TBLPROPERTIES' '(' ( @@ ( ',' @@ )* )? ')'"`
	UnsetProps   []*property   `parser:"| 'UNSET' 'TBLPROPERTIES' ( 'IF' 'EXISTS' )? '(' ( @@ ( ',' @@ )* )? ')'"`
	AddColumns   []*columnDef  `parser:"| 'ADD' ( 'COLUMNS' | 'COLUMN' ) ( '(' @@ ( ',' @@ )* ')' | @@ ( ',' @@ )* )"`
	RenameTo     *qname        `parser:"| 'RENAME' 'TO' @@"`
	SetLocation  *string       `parser:"| 'SET' 'LOCATION' @String"`
	Other        []*innerTok   `parser:"| @@+"`
}

// createView is CREATE [OR REPLACE] [GLOBAL] [TEMPORARY] VIEW [IF NOT EXISTS] name [(cols)]
// [COMMENT …] [TBLPROPERTIES (…)] AS query, or a temporary view over a data source (USING
// provider OPTIONS (…)), which has no query.
type createView struct {
	Global  bool        `parser:"'CREATE' ( 'OR' 'REPLACE' )? @'GLOBAL'?"`
	Temp    bool        `parser:"@( 'TEMPORARY' | 'TEMP' )?"`
	Name    *qname      `parser:"'VIEW' ( 'IF' 'NOT' 'EXISTS' )? @@"`
	Cols    []*innerTok `parser:"( '(' @@* ')' )?"`
	Clauses []*innerTok `parser:"( 'COMMENT' String | 'TBLPROPERTIES' '(' @@* ')' | 'PARTITIONED' 'ON' '(' @@* ')' | 'WITH' 'SCHEMA' ( 'BINDING' | 'COMPENSATION' | 'EVOLUTION' | 'TYPE' 'EVOLUTION' ) )*"`
	Using   []*innerTok `parser:"( 'USING' @@ ( '.' @@ )* ( 'OPTIONS' '(' @@* ')' )? )?"`
	Query   *queryStmt  `parser:"( 'AS' @@ )?"`
}

// dropTable is DROP TABLE [IF EXISTS] name [PURGE].
type dropTable struct {
	Pos      lexer.Position
	IfExists bool   `parser:"'DROP' 'TABLE' @( 'IF' 'EXISTS' )?"`
	Name     *qname `parser:"@@ 'PURGE'?"`
}

// analyzeTable is ANALYZE TABLE name [PARTITION (…)] COMPUTE STATISTICS ….
type analyzeTable struct {
	Pos  lexer.Position
	Name *qname      `parser:"'ANALYZE' 'TABLE' @@"`
	Part []*innerTok `parser:"( 'PARTITION' '(' @@* ')' )?"`
	Rest []*innerTok `parser:"'COMPUTE' 'STATISTICS' @@*"`
}

// cacheTable is CACHE [LAZY] TABLE name [OPTIONS (…)] [[AS] query].
type cacheTable struct {
	Pos     lexer.Position
	Lazy    bool        `parser:"'CACHE' @'LAZY'? 'TABLE'"`
	Name    *qname      `parser:"@@"`
	Options []*property `parser:"( 'OPTIONS' '(' ( @@ ( ',' @@ )* )? ')' )?"`
	As      *queryStmt  `parser:"( 'AS'? @@ )?"`
}

// viewColumns are the names of a view's column list: the first word of each comma-separated
// element ("a COMMENT 'x', b" names a and b), unquoted, lower case.
func viewColumns(toks []*innerTok) []string {
	var out []string
	first := true
	for _, t := range toks {
		v := strings.TrimSpace(t.Tok)
		switch {
		case t.Group != nil || v == "" || strings.HasPrefix(v, "--") || strings.HasPrefix(v, "/*"):
		case v == ",":
			first = true
		case first:
			out = append(out, strings.ToLower(unquoteIdent(v)))
			first = false
		}
	}
	return out
}
