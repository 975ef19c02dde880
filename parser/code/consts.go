package code

import (
	"regexp"
	"slices"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// constColumns is the frame's constant columns after a call of method name: columns the
// code shows hold one value on every row (lit(…), a literal or a cast of one in selectExpr).
// Methods that keep columns as they are keep them; a projection keeps those it passes on
// and adds those it defines; withColumn redefines one; anything else forgets them.
func (ev *evaluator) constColumns(prev []string, name string, n *node) []string {
	switch name {
	case "filter", "where", "orderBy", "sort", "sortWithinPartitions", "cache", "persist",
		"unpersist", "checkpoint", "localCheckpoint", "limit", "hint", "alias", "as", "sample":
		return prev
	case "withColumn":
		if len(n.args) != 2 {
			return nil
		}
		col, ok := ev.constString(n.args[0].val, 0)
		if !ok {
			return nil
		}
		col = strings.ToLower(col)
		out := slices.DeleteFunc(slices.Clone(prev), func(c string) bool { return c == col })
		if ev.isLit(n.args[1].val, 0) {
			out = append(out, col)
		}
		return out
	case "select", "selectExpr":
		var out []string
		for _, a := range n.args {
			if c, ok := ev.projectedConst(prev, a.val, name == "selectExpr"); ok {
				out = append(out, c)
			}
		}
		return out
	}
	return nil
}

// projectedConst returns the name of a constant column one projection item makes: a
// constant one passed on by name, or a literal given a name.
func (ev *evaluator) projectedConst(prev []string, n *node, expr bool) (string, bool) {
	if s, ok := ev.constString(n, 0); ok {
		s = strings.ToLower(strings.TrimSpace(s))
		if slices.Contains(prev, s) {
			return s, true
		}
		if expr {
			if m := constExprRe.FindStringSubmatch(s); m != nil {
				return strings.Trim(m[1], "`"), true
			}
		}
		return "", false
	}
	// lit(x).alias("c"), lit(x).as("c"), lit(x).name("c")
	if n.kind == nCall && n.x.kind == nAttr && len(n.args) == 1 {
		switch n.x.name {
		case "alias", "as", "name":
			if c, ok := ev.constString(n.args[0].val, 0); ok && ev.isLit(n.x.x, 0) {
				return strings.ToLower(c), true
			}
		}
	}
	return "", false
}

// isLit reports lit(literal) or typedLit(literal), possibly cast: one value for every row.
func (ev *evaluator) isLit(n *node, depth int) bool {
	if n == nil || depth > 4 || n.kind != nCall {
		return false
	}
	if n.x.kind == nAttr && (n.x.name == "cast" || n.x.name == "astype") && !isFunctions(n.x.x) {
		return ev.isLit(n.x.x, depth+1)
	}
	fn := ""
	switch {
	case n.x.kind == nIdent:
		fn = n.x.name
	case n.x.kind == nAttr && isFunctions(n.x.x):
		fn = n.x.name
	}
	if fn != "lit" && fn != "typedLit" || len(n.args) != 1 {
		return false
	}
	a := n.args[0].val
	switch a.kind {
	case nStr, nNum:
		return true
	case nIdent:
		switch a.name {
		case "None", "null", "True", "False", "true", "false":
			return true
		}
	case nUnary:
		return a.name == "-" && a.x != nil && a.x.kind == nNum
	}
	return false
}

// constExprRe matches a selectExpr item that is a literal, or a cast of one, given a name
// with AS (lower case): "cast('2020-01-01' as date) as p", "null as p", "1 as one".
var constExprRe = regexp.MustCompile(`^(?:` + sqlLit + `|cast\(\s*` + sqlLit + `\s+as\s+[a-z][a-z0-9_ ,()]*\))\s+as\s+([a-z_][a-z0-9_]*|` + "`[^`]+`" + `)$`)

const sqlLit = `(?:'[^']*'|-?\d+(?:\.\d+)?[ld]?|null|true|false|(?:date|timestamp)\s*'[^']*')`

// renamed is the frame's renamed columns (new name → the column of the frame's source it
// is) after a call of method name: "i as ii" in selectExpr, col("i").as("ii") in select,
// withColumnRenamed("i", "ii"). Methods that keep columns as they are keep them; a
// projection keeps those it passes on; anything else forgets them.
func (ev *evaluator) renamed(prev map[string]string, name string, n *node) map[string]string {
	src := func(c string) string {
		if s, ok := prev[c]; ok {
			return s
		}
		return c
	}
	out := map[string]string{}
	switch name {
	case "filter", "where", "orderBy", "sort", "sortWithinPartitions", "cache", "persist",
		"unpersist", "checkpoint", "localCheckpoint", "limit", "hint", "alias", "as", "sample":
		return prev
	case "withColumnRenamed", "withColumn":
		if len(n.args) != 2 {
			return nil
		}
		a, ok1 := ev.constString(n.args[0].val, 0)
		b, ok2 := ev.constString(n.args[1].val, 0)
		for k, v := range prev {
			out[k] = v
		}
		if name == "withColumn" {
			delete(out, strings.ToLower(a))
			return out
		}
		if !ok1 || !ok2 {
			return nil
		}
		a, b = strings.ToLower(a), strings.ToLower(b)
		out[b] = src(a)
		delete(out, a)
	case "select", "selectExpr":
		for _, arg := range n.args {
			from, to, ok := ev.projectedName(arg.val, name == "selectExpr")
			if ok && (from != to || prev[from] != "") {
				out[to] = src(from)
			}
		}
	default:
		return nil
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// projectedName reads a projection item that is a column, possibly renamed: "i",
// "i as ii" (selectExpr), col("i").as("ii"), $"i".alias("ii").
func (ev *evaluator) projectedName(n *node, expr bool) (from, to string, ok bool) {
	if s, isStr := ev.constString(n, 0); isStr {
		s = strings.ToLower(strings.TrimSpace(s))
		if !expr {
			return s, s, identRe.MatchString(s)
		}
		if m := renameRe.FindStringSubmatch(s); m != nil {
			return m[1], m[2], true
		}
		return s, s, identRe.MatchString(s)
	}
	if n.kind == nCall && n.x.kind == nAttr && len(n.args) == 1 {
		switch n.x.name {
		case "alias", "as", "name":
			c := ev.colRef(n.x.x, nil)
			if t, isStr := ev.constString(n.args[0].val, 0); isStr && c.Column != "" && c.Qualifier == "" {
				return c.Column, strings.ToLower(t), true
			}
		}
	}
	c := ev.colRef(n, nil)
	return c.Column, c.Column, c.Column != "" && c.Qualifier == ""
}

var (
	identRe  = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)
	renameRe = regexp.MustCompile(`^([a-z_][a-z0-9_]*)\s+(?:as\s+)?([a-z_][a-z0-9_]*)$`)
)

// sourceKeys places grouping keys on the frame's source: a column the frame renamed is the
// source's column.
func (ev *evaluator) sourceKeys(keys []plan.ColumnRef, f *frame) []plan.ColumnRef {
	for i := range keys {
		if src, ok := f.ref.Renamed[keys[i].Column]; ok && keys[i].Column != "" {
			keys[i].Column = src
		}
	}
	return keys
}
