package sql

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/bucketlint/bucketlint/plan"
)

// change records a table change at pos.
func (st *state) change(ch Change, c chunk, pos lexer.Position) {
	ch.Pos = st.at(c, lpos(pos))
	ch.Text = strings.TrimSpace(c.text)
	st.f.Changes = append(st.f.Changes, ch)
}

// alterTable records an ALTER TABLE statement.
func (st *state) alterTable(ast *alterTable, c chunk) {
	a := ast.Action
	ch := Change{Kind: ChangeOtherAlter, Table: st.name(ast.Name)}
	switch {
	case a.Bucket != nil:
		b, ok := st.bucket(a.Bucket, c)
		if !ok {
			return
		}
		ch.Kind, ch.Bucket = ChangeBucket, b
	case a.NotClustered != "":
		ch.Kind = ChangeNotBucketed
	case a.Cluster != nil:
		ch.Kind, ch.ClusterBy = ChangeClusterBy, a.Cluster.columns()
	case a.SetProps != nil:
		ch.Kind, ch.Properties = ChangeSetProperties, props(a.SetProps)
	case a.UnsetProps != nil:
		ch.Kind, ch.Properties = ChangeUnsetProperties, props(a.UnsetProps)
	case a.AddColumns != nil:
		ch.Kind = ChangeAddColumns
		for _, d := range a.AddColumns {
			ch.Columns = append(ch.Columns, column(d, st, c))
		}
	case a.RenameTo != nil:
		ch.Kind, ch.NewName = ChangeRename, st.name(a.RenameTo)
	case a.SetLocation != nil:
		ch.Kind, ch.Location = ChangeSetLocation, unquoteString(*a.SetLocation)
	}
	st.change(ch, c, ast.Pos)
}

func props(ps []*property) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.key(), p.value())
	}
	return out
}

// cacheTable records CACHE TABLE and its query.
func (st *state) cacheTable(ast *cacheTable, c chunk) {
	name := st.name(ast.Name)
	st.change(Change{Kind: ChangeCache, Table: name}, c, ast.Pos)
	if ast.As != nil {
		q := st.buildQuery(ast.As, c)
		q.Target = name
		st.f.Queries = append(st.f.Queries, q)
	}
}

// set records SET key=value. "SET" alone, "SET -v" and "SET key" (which print) are skipped.
func (st *state) set(c chunk, start int) {
	body := strings.TrimSpace(c.text[leadingSpace(c.text):])
	body = strings.TrimSpace(body[len("set"):])
	k, v, ok := strings.Cut(body, "=")
	if !ok {
		return
	}
	k = strings.Trim(strings.TrimSpace(k), "`")
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') {
		v = unquoteString(v)
	}
	end := c.offset + len(strings.TrimRight(c.text, " \t\r\n"))
	st.f.Confs = append(st.f.Confs, plan.Conf{Key: k, Value: v, Pos: st.lines.pos(start), Span: plan.Span{Start: st.lines.pos(start), End: st.lines.pos(end)}})
	switch strings.ToLower(k) {
	case "spark.sql.ansi.doublequotedidentifiers":
		st.dqIdent = strings.EqualFold(v, "true")
	case "spark.sql.ansi.enabled":
		st.ansi = 1
		if !strings.EqualFold(v, "true") {
			st.ansi = -1
		}
	case "spark.sql.legacy.viewschemabindingmode":
		st.noBinding = strings.EqualFold(v, "false")
	case "spark.sql.legacy.bangequalsnot":
		st.legacyBang = strings.EqualFold(v, "true")
	}
}

// use records USE [DATABASE|SCHEMA|NAMESPACE] [catalog.]db for the statements that follow.
func (st *state) use(c chunk) {
	body := strings.TrimSpace(c.text[leadingSpace(c.text):])
	f := strings.Fields(body)
	if len(f) > 1 {
		switch strings.ToLower(f[1]) {
		case "database", "schema", "namespace":
			f = f[1:]
		}
	}
	if len(f) < 2 {
		return
	}
	var parts []string
	for _, p := range strings.Split(f[1], ".") {
		parts = append(parts, unquoteIdent(p))
	}
	if len(parts) > 1 && parts[0] == "spark_catalog" {
		parts = parts[1:]
	}
	st.db = modelName(parts)
}
