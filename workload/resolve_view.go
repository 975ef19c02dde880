package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// expandView replaces a scan of a view by the view's query, as Spark's analyzer does
// (a SubqueryAlias named after the view over the view's plan): the relation becomes a SELECT
// block aliased as the scan was (or by the view's name), with View naming the view and the
// scan's position. The view's CTEs join the query's, named "view.cte". It returns the view's
// name and whether the scan was replaced; a view being expanded (one that reads itself) is
// not.
func (r *resolver) expandView(rel *plan.Relation) (string, bool) {
	if rel.CTE || rel.Kind != plan.TableRel {
		return "", false
	}
	v := r.cat.View(rel.Table)
	if v == nil || v.Root == nil {
		return "", false
	}
	name := strings.ToLower(v.Target)
	if name == "" {
		name = rel.Table
	}
	key := "view " + name
	if r.expanding[key] {
		return "", false
	}
	body := copyRelation(v.Root)
	renamed := map[string]string{}
	for _, c := range v.CTEs {
		renamed[strings.ToLower(c.Name)] = name + "." + strings.ToLower(c.Name)
	}
	renameCTEs(body, renamed)
	for _, c := range v.CTEs {
		nc := copyCTE(c)
		nc.Name, nc.View = renamed[strings.ToLower(c.Name)], name
		if r.cte(nc.Name) != nil {
			continue // added when the query read the view before
		}
		renameCTEs(nc.Root, renamed)
		r.q.CTEs = append(r.q.CTEs, nc)
		r.expanding[key] = true
		r.relation(nc.Root)
		delete(r.expanding, key)
	}
	// The view's definition for writing it back as SQL shares the body's inputs, which are
	// resolved with the query (a view the view reads is expanded there too).
	viewRoot := *body
	viewQuery := *v
	viewQuery.Root = &viewRoot
	if body.Kind != plan.SelectRel || body.Alias != "" {
		body = &plan.Relation{Kind: plan.SelectRel, Select: &plan.Select{
			Items: []string{"*"}, ItemsX: []*plan.X{{Op: plan.OpStar, Raw: "*"}}, ItemAliases: []string{""}, From: body,
		}}
	}
	body.Alias = rel.Alias
	if body.Alias == "" {
		body.Alias = column(name)
	}
	body.View, body.Span, body.Text, body.ColumnAliases = name, rel.Span, rel.Text, rel.ColumnAliases
	body.ViewQuery, body.NameSpan = &viewQuery, rel.NameSpan
	if len(body.ColumnAliases) == 0 {
		// The view's own column list names its output, as a scan's alias list would.
		body.ColumnAliases = v.ViewColumns
	}
	*rel = *body
	return key, true
}

// renameCTEs renames the CTE scans under rel.
func renameCTEs(rel *plan.Relation, names map[string]string) {
	if rel == nil || len(names) == 0 {
		return
	}
	if rel.Kind == plan.TableRel && rel.CTE {
		if n, ok := names[strings.ToLower(rel.Table)]; ok {
			rel.Table = n
		}
	}
	if rel.Join != nil {
		renameCTEs(rel.Join.Left, names)
		renameCTEs(rel.Join.Right, names)
	}
	if rel.Select != nil {
		renameCTEs(rel.Select.From, names)
	}
	for _, in := range rel.Inputs {
		renameCTEs(in, names)
	}
}
