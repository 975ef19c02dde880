package sql

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// createTable turns a CREATE TABLE statement into a table and, for CTAS, a query.
func (st *state) createTable(ast *createTable, c chunk) {
	t := st.table(ast, c)
	if t == nil {
		return
	}
	st.f.Tables = append(st.f.Tables, t)
	if ast.As != nil {
		q := st.buildQuery(ast.As, c)
		q.Target = t.Name
		st.f.Queries = append(st.f.Queries, q)
	}
}

// table builds the table a CREATE TABLE declares. Spark's parser rejects SORTED BY … DESC
// ("Column ordering must be ASC"); that is reported as an error and no table is returned.
func (st *state) table(ast *createTable, c chunk) *plan.Table {
	t := &plan.Table{
		Name:        st.name(ast.Name),
		SizeInBytes: -1,
		RowCount:    -1,
		Sources:     []plan.Pos{st.at(c, lpos(ast.Pos))},
	}
	if ast.Like != nil {
		t.Like = st.name(ast.Like)
	}
	for _, e := range ast.Elements.items() {
		if e.Column != nil {
			t.Columns = append(t.Columns, column(e.Column, st, c))
		}
	}
	seen := map[string]bool{}
	var lp layoutParts
	for _, cl := range ast.Clauses {
		name := cl.name()
		if seen[name] {
			// AstBuilder.checkDuplicateClauses: a parse error in every version.
			st.errs.Add(st.at(c, lpos(cl.Pos)), "found duplicate clauses: %s", name)
			return nil
		}
		seen[name] = true
		if !st.clause(t, &lp, cl, c) {
			return nil
		}
	}
	hiveStorage(t, ast.Clauses)
	if seen["CLUSTER BY"] && seen["CLUSTERED BY"] {
		st.errs.Add(st.at(c, lpos(ast.Pos)), "cannot specify both CLUSTER BY and CLUSTERED BY INTO BUCKETS")
		return nil
	}
	t.Layout = plan.ComposeLayout(t.Format, t.Hive, lp.spec, lp.transforms, lp.cluster)
	if b := t.DeclaredBuckets(); b != nil && b.Span.Start.Line == 0 && len(t.Sources) > 0 {
		// A bucket transform of a file-source table became its spec: the statement declared it.
		b.Span.Start = t.Sources[0]
	}
	return t
}

// layoutParts are the layout clauses of a CREATE TABLE, composed once the format is known.
type layoutParts struct {
	spec       *plan.BucketSpec
	transforms []plan.Transform
	cluster    []string
}

// name returns the clause's keywords, as Spark names it in duplicate-clause errors.
func (cl *createClause) name() string {
	switch {
	case cl.Using != nil:
		return "USING"
	case cl.Options != nil:
		return "OPTIONS"
	case cl.Partitioned != nil:
		return "PARTITIONED BY"
	case cl.Bucket != nil:
		return "CLUSTERED BY"
	case cl.Cluster != nil:
		return "CLUSTER BY"
	case cl.Skewed != nil:
		return "SKEWED BY"
	case cl.RowFormat != nil:
		return "ROW FORMAT"
	case cl.Stored != nil:
		return "STORED AS/BY"
	case cl.Location != nil:
		return "LOCATION"
	case cl.Comment != nil:
		return "COMMENT"
	case cl.Props != nil:
		return "TBLPROPERTIES"
	}
	return "COLLATION"
}

func column(d *columnDef, st *state, c chunk) plan.Column {
	col := plan.Column{Name: unquoteIdent(d.Name), Type: plan.CanonicalType(d.Type.render()), Pos: st.at(c, lpos(d.Pos))}
	for _, o := range d.Opts {
		if o.Comment != nil {
			col.Comment = unquoteString(*o.Comment)
		}
	}
	return col
}

// clause applies one CREATE TABLE clause; it returns false when Spark rejects the statement.
func (st *state) clause(t *plan.Table, lp *layoutParts, cl *createClause, c chunk) bool {
	switch {
	case cl.Using != nil:
		t.Format = strings.ToLower(cl.Using.plain())
	case cl.Partitioned != nil:
		lp.transforms = append(lp.transforms, st.partitioned(t, cl.Partitioned, c)...)
	case cl.Bucket != nil:
		b, ok := st.bucket(cl.Bucket, c)
		if !ok {
			return false
		}
		lp.spec = b
	case cl.Cluster != nil:
		lp.cluster = cl.Cluster.columns()
	case cl.Location != nil:
		t.Location = unquoteString(*cl.Location)
	case cl.Options != nil:
		for _, p := range cl.Options {
			if strings.EqualFold(p.key(), "path") && t.Location == "" {
				t.Location = unquoteString(p.Value)
			}
		}
	}
	return true
}

// partitioned records PARTITIONED BY: column names (typed Hive partition columns are appended
// to the schema, as Hive declares them outside the column list) and returns the v2 transforms.
func (st *state) partitioned(t *plan.Table, fields []*partField, c chunk) []plan.Transform {
	var trs []plan.Transform
	for _, f := range fields {
		if f.Transform != nil && !strings.EqualFold(f.Transform.Name, "identity") {
			trs = append(trs, plan.Transform{Text: f.Transform.render(), X: f.Transform.tree(newTrees(st, c))})
			continue
		}
		if f.Transform != nil {
			if len(f.Transform.Args) > 0 {
				t.PartitionColumns = append(t.PartitionColumns, f.Transform.Args[0].name())
			}
			continue
		}
		name := unquoteIdent(f.Column.Name)
		t.PartitionColumns = append(t.PartitionColumns, name)
		if f.Column.Type != nil {
			if _, ok := t.Column(name); !ok {
				t.Columns = append(t.Columns, plan.Column{Name: name, Type: plan.CanonicalType(f.Column.Type.render()), Comment: unquoteString(f.Column.Comment), Pos: st.at(c, lpos(f.Pos))})
			}
		}
	}
	return trs
}

func (tr *transform) render() string {
	args := make([]string, len(tr.Args))
	for i, a := range tr.Args {
		args[i] = a.name()
	}
	return strings.ToLower(tr.Name) + "(" + strings.Join(args, ", ") + ")"
}

// name is an argument as a name: its parts unquoted, lower case, joined by dots.
func (a *transformArg) name() string {
	parts := make([]string, len(a.Parts))
	for i, p := range a.Parts {
		parts[i] = unquoteIdent(p)
	}
	return strings.Join(parts, ".")
}

// tree is the transform as a call: numbers and strings are literals, names columns.
func (tr *transform) tree(t *trees) *plan.X {
	x := plan.X{Op: plan.OpCall, Name: strings.ToLower(tr.Name)}
	for _, a := range tr.Args {
		var arg *plan.X
		switch p := a.Parts[0]; {
		case len(a.Parts) == 1 && p != "" && '0' <= p[0] && p[0] <= '9':
			arg = t.number(p, false, lpos(a.Pos), lpos(a.EndPos))
		case len(a.Parts) == 1 && (p[0] == '\'' || p[0] == '"'):
			arg = t.mk(plan.X{Op: plan.OpLiteral, Type: "string", Value: unquoteString(p)}, lpos(a.Pos), lpos(a.EndPos))
		default:
			parts := strings.Split(a.name(), ".")
			c := plan.X{Op: plan.OpColumn, Name: parts[len(parts)-1], Qualifier: strings.Join(parts[:len(parts)-1], ".")}
			arg = t.mk(c, lpos(a.Pos), lpos(a.EndPos))
		}
		x.Args = append(x.Args, arg)
	}
	return t.mk(x, lpos(tr.Pos), lpos(tr.EndPos))
}

// bucket converts CLUSTERED BY … INTO n BUCKETS. A DESC sort column fails as in Spark's
// AstBuilder.visitBucketSpec ("Column ordering must be ASC").
func (st *state) bucket(b *bucketClause, c chunk) (*plan.BucketSpec, bool) {
	if b.Tokens != nil {
		b.marks() // read by the participle grammar (ALTER TABLE)
	}
	if isTemplate(b.Num) {
		spec := &plan.BucketSpec{NumTemplate: b.Num, Span: st.span(c, lpos(b.Pos), lpos(b.EndPos))}
		return st.bucketColumns(spec, b, c)
	}
	// Spark's grammar wants INTEGER_VALUE here: digits only, no 4L or 4.0.
	num := b.Num
	n, err := strconv.Atoi(num)
	if err != nil {
		st.errs.Add(st.at(c, lpos(b.Pos)), "syntax error: bucket count %s is not an integer literal", num)
		return nil, false
	}
	spec := &plan.BucketSpec{NumBuckets: n, Span: st.span(c, lpos(b.Pos), lpos(b.EndPos))}
	if b.countAt >= 0 {
		spec.CountSpan = st.span(c, pos{Offset: b.countAt}, pos{Offset: b.countAt + len(b.Num)})
	}
	return st.bucketColumns(spec, b, c)
}

// marks sets the offsets of the count and of the column list from the tokens the participle
// grammar filled: the count is the last token before BUCKETS that is not a blank or a
// comment (when it is the count), the list lies between the first ( and the first ) after it.
func (b *bucketClause) marks() {
	b.countAt, b.colsOpen, b.colsClose = -1, -1, -1
	for i := len(b.Tokens) - 2; i >= 0; i-- {
		if v := strings.TrimSpace(b.Tokens[i].Value); v != "" && !strings.HasPrefix(v, "--") && !strings.HasPrefix(v, "/*") {
			if v == b.Num {
				b.countAt = b.Tokens[i].Pos.Offset
			}
			break
		}
	}
	for _, t := range b.Tokens {
		switch {
		case t.Value == "(" && b.colsOpen < 0:
			b.colsOpen = t.Pos.Offset + 1
		case t.Value == ")" && b.colsClose < 0 && b.colsOpen >= 0:
			b.colsClose = t.Pos.Offset
		}
	}
}

// columnsSpan is what lies between the parentheses of CLUSTERED BY (…).
func (st *state) columnsSpan(b *bucketClause, c chunk) plan.Span {
	if b.colsOpen < 0 || b.colsClose < b.colsOpen {
		return plan.Span{}
	}
	return plan.Span{Start: st.lines.pos(c.offset + b.colsOpen), End: st.lines.pos(c.offset + b.colsClose)}
}

// bucketColumns fills the bucket and sort columns of spec.
func (st *state) bucketColumns(spec *plan.BucketSpec, b *bucketClause, c chunk) (*plan.BucketSpec, bool) {
	spec.ColumnsSpan = st.columnsSpan(b, c)
	for _, id := range b.Columns {
		spec.Columns = append(spec.Columns, unquoteIdent(id.Name))
	}
	for _, s := range b.Sorted {
		if strings.EqualFold(s.Dir, "desc") {
			st.errs.Add(st.at(c, lpos(s.Pos)), "operation not allowed: column ordering must be ASC, was 'DESC'")
			return nil, false
		}
		spec.SortColumns = append(spec.SortColumns, unquoteIdent(s.Name))
	}
	return spec, true
}

func (cb *clusterBy) columns() []string {
	if cb.Mode != "" {
		if strings.EqualFold(cb.Mode, "auto") {
			return []string{"auto"}
		}
		return nil
	}
	out := make([]string, len(cb.Columns))
	for i, q := range cb.Columns {
		out[i] = q.plain()
	}
	return out
}

func (p *property) key() string {
	if len(p.Key) == 1 && strings.HasPrefix(p.Key[0], "'") || strings.HasPrefix(p.Key[0], "\"") {
		return unquoteString(p.Key[0])
	}
	parts := make([]string, len(p.Key))
	for i, k := range p.Key {
		parts[i] = strings.Trim(k, "`")
	}
	return strings.Join(parts, ".")
}

func (p *property) value() string {
	if strings.HasPrefix(p.Value, "'") || strings.HasPrefix(p.Value, "\"") {
		return unquoteString(p.Value)
	}
	return p.Value
}
