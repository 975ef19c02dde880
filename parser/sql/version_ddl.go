package sql

// The version-dependent constructs of statements the participle grammar reads (CREATE TABLE,
// ALTER TABLE, CACHE TABLE, a view's query): its queries and types carry the uses the
// hand-written parser recorded for them (rd_bridge.go), the DDL clauses are read off the tree.

// createUses returns the version-dependent constructs of a CREATE TABLE (createTableHeader,
// colDefinitionList, createTableClauses with clusterBySpec and collationSpec, AS query).
func createUses(ast *createTable) []featUse {
	out := nameUses(ast.Name)
	for _, el := range ast.Elements.items() {
		if el.Column != nil {
			out = append(out, columnUses(el.Column)...)
		}
	}
	for _, cl := range ast.Clauses {
		switch {
		case cl.Cluster != nil:
			out = append(out, featUse{off: cl.Pos.Offset, f: featClusterBy})
		case cl.Collation != "":
			out = append(out, featUse{off: cl.Pos.Offset, f: featDefaultCollation})
		}
	}
	if ast.As != nil {
		out = append(out, ast.As.uses...)
	}
	return out
}

// columnUses returns those of a column definition (colDefinition: its type, COLLATE,
// GENERATED … AS IDENTITY).
func columnUses(c *columnDef) []featUse {
	var out []featUse
	if c.Type != nil {
		out = append(out, c.Type.uses...)
	}
	for _, o := range c.Opts {
		switch {
		case o.Collate != "":
			out = append(out, featUse{off: c.Pos.Offset, f: featCollate})
			if trimCollation(o.Collate) {
				out = append(out, featUse{off: c.Pos.Offset, f: featTrimCollation})
			}
		case o.Generated != nil && o.Generated.Identity:
			out = append(out, featUse{off: o.Generated.Pos.Offset, f: featIdentity})
		case o.Generated != nil:
			out = append(out, featUse{off: o.Generated.Pos.Offset, f: featGeneratedColumn})
		case o.Default != nil:
			out = append(out, featUse{off: o.Default.Pos.Offset, f: featColumnDefault})
		}
	}
	return out
}

// alterUses returns those of an ALTER TABLE (CLUSTER BY, ADD COLUMNS).
func alterUses(ast *alterTable) []featUse {
	a := ast.Action
	if a == nil {
		return nil
	}
	out := nameUses(ast.Name)
	if a.Cluster != nil {
		out = append(out, featUse{off: a.Cluster.Pos.Offset, f: featClusterBy})
	}
	for _, c := range a.AddColumns {
		out = append(out, columnUses(c)...)
	}
	return out
}

// nameUses returns the use of IDENTIFIER(…) as the name of a table created or changed, where
// older releases read only a multipartIdentifier (in a query, IDENTIFIER(…) parses as a call
// in every release).
func nameUses(q *qname) []featUse {
	if q != nil && (q.Ident != nil || q.identX != nil) {
		return []featUse{{off: q.Pos.Offset, f: featIdentifierName}}
	}
	return nil
}

// queryUses returns those of the query of a CACHE TABLE … AS or a view, nil for none.
func queryUses(q *queryStmt) []featUse {
	if q == nil {
		return nil
	}
	return q.uses
}
