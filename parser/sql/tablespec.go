package sql

import (
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// tableSpec is a table described in one line, as `verify --table-spec` takes it: [name ':']
// [format] and CREATE TABLE's clauses in any order.
type tableSpec struct {
	Pos     lexer.Position
	Name    *qname          `parser:"( @@ ':' )?"`
	Format  string          `parser:"( (?! 'PARTITIONED' | 'PARTITION' | 'CLUSTERED' | 'CLUSTER' | 'USING' | 'STORED' | 'ROW' | 'LOCATION' | 'OPTIONS' | 'TBLPROPERTIES' | 'COMMENT' | 'SKEWED' ) @Ident )?"`
	Clauses []*createClause `parser:"@@*"`
}

// ParseTableSpec reads a table described in one line: "db.t: parquet [PARTITIONED BY (p)]
// CLUSTERED BY (k) [SORTED BY (s)] INTO 8 BUCKETS" — an optional name and colon, an optional
// format (hive for a Hive-format table), then the clauses of CREATE TABLE in any order
// (USING hive and STORED AS … also make a Hive-format table). A spec without a name
// describes a table named "table". Errors are positioned in spec, read as file.
func (p *Parser) ParseTableSpec(file, spec string) (*plan.Table, perr.List) {
	st := &state{p: p, f: &File{Name: file}, lines: newLineIndex(file, spec)}
	c := chunk{text: spec, raw: spec}
	if off, msg := brackets(spec); off >= 0 {
		st.errs.Add(st.lines.pos(off), "%s", msg)
		return nil, st.errs
	}
	ast, err := p.spec.ParseString(file, spec)
	if err != nil {
		st.fail(c, err)
		return nil, st.errs
	}
	ct := &createTable{Pos: ast.Pos, Name: ast.Name, Clauses: ast.Clauses}
	if ct.Name == nil {
		ct.Name = &qname{Pos: lpos(ast.Pos), Parts: []string{"table"}}
	}
	if ast.Format != "" {
		using := &createClause{Pos: ast.Pos, Using: &qname{Pos: lpos(ast.Pos), Parts: []string{ast.Format}}}
		ct.Clauses = append([]*createClause{using}, ct.Clauses...)
	}
	t := st.table(ct, c)
	if t == nil {
		return nil, st.errs
	}
	return t, st.errs
}
