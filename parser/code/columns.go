package code

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// colRef reads a column expression: "k", "o.k", col("k"), F.col("o.k"), $"k", 'k, df.k,
// df["k"], df("k"), with .cast(t), .alias(a), .asc()/.desc() around it. Column is lower case;
// Qualifier is the variable or alias as written. Anything else keeps only Text and Pos. When
// f is given, the key is placed in that frame.
func (ev *evaluator) colRef(n *node, f *frame) plan.ColumnRef {
	c := plan.ColumnRef{Text: ev.text(n), Pos: ev.src.pos(n.off)}
	ev.readCol(n, &c, 0)
	c.X = ev.keyX(n, c)
	_, named := ev.constString(n, 0)
	c.NameString = named && c.Column != ""
	if f != nil && c.Column != "" {
		place(&c, f.ref)
		if c.Qualifier != "" && c.Qualifier != f.ref.Var && c.Qualifier != f.ref.Alias {
			c.Relation, c.Table = "", ""
		}
	}
	return c
}

func (ev *evaluator) readCol(n *node, c *plan.ColumnRef, depth int) {
	if depth > 8 {
		return
	}
	switch n.kind {
	case nStr, nIdent, nBin:
		if s, ok := ev.constString(n, 0); ok {
			setName(c, s)
		}
	case nAttr:
		if s, ok := ev.constString(n, 0); ok {
			setName(c, s) // a constant: Keys.ID
		} else if n.x.kind == nIdent && !isFunctions(n.x) {
			c.Qualifier, c.Column = n.x.name, strings.ToLower(n.name)
		}
	case nIndex:
		if n.x.kind == nIdent && len(n.args) == 1 {
			if s, ok := ev.constString(n.args[0].val, 0); ok {
				c.Qualifier, c.Column = n.x.name, strings.ToLower(s)
			}
		}
	case nCall:
		ev.readColCall(n, c, depth)
	}
}

func (ev *evaluator) readColCall(n *node, c *plan.ColumnRef, depth int) {
	var fn string
	switch {
	case n.x.kind == nIdent:
		fn = n.x.name
	case n.x.kind == nAttr && isFunctions(n.x.x):
		fn = n.x.name
	case n.x.kind == nAttr:
		switch n.x.name {
		case "cast", "astype":
			if len(n.args) == 1 {
				c.Cast = ev.castType(n.args[0].val)
			}
			ev.readCol(n.x.x, c, depth+1)
		case "desc", "desc_nulls_first", "desc_nulls_last":
			c.Desc = true
			ev.readCol(n.x.x, c, depth+1)
		case "alias", "as", "name", "asc", "asc_nulls_first", "asc_nulls_last":
			ev.readCol(n.x.x, c, depth+1)
		case "col", "apply":
			// Java's and Scala's df.col("k"), Scala's df.apply("k").
			if n.x.x.kind == nIdent && len(n.args) == 1 {
				if s, ok := ev.constString(n.args[0].val, 0); ok {
					c.Qualifier, c.Column = n.x.x.name, strings.ToLower(s)
				}
			}
		}
		return
	default:
		return
	}
	if len(n.args) != 1 {
		return
	}
	s, ok := ev.constString(n.args[0].val, 0)
	if !ok {
		return
	}
	switch fn {
	case "col", "column", "$", "'", "Column":
		setName(c, s)
	case "desc", "asc":
		c.Desc = fn == "desc"
		setName(c, s)
	default:
		if n.x.kind == nIdent && fn != "lit" && fn != "expr" {
			// Scala's df("k").
			c.Qualifier, c.Column = fn, strings.ToLower(s)
		}
	}
}

// constString returns the string constant n stands for: a literal whose interpolations
// (f"…{x}", s"…$x") are names bound to constants, a name bound to a constant string (a
// variable, a constant, a Scala object's val read as Obj.name), or a concatenation of
// those. ok is false for anything else: a value that is not known is not guessed.
func (ev *evaluator) constString(n *node, depth int) (string, bool) {
	if n == nil || depth > 16 {
		return "", false
	}
	switch n.kind {
	case nStr:
		if len(n.lit.parts) == 1 && n.lit.parts[0].expr == "" {
			return n.lit.parts[0].lit, true // as strValue has it, without making the value
		}
		v := ev.strValue(n)
		return v.str, v.resolved
	case nIdent, nAttr:
		name, ok := dotted(n)
		if !ok {
			return "", false
		}
		if v, found := ev.env[name]; found && v.kind == vStr && v.resolved {
			return v.str, true
		}
	case nBin:
		if n.name != "+" {
			return "", false
		}
		a, ok1 := ev.constString(n.x, depth+1)
		b, ok2 := ev.constString(n.y, depth+1)
		return a + b, ok1 && ok2
	}
	return "", false
}

// setName sets a column from a name that may be qualified ("o.k").
func setName(c *plan.ColumnRef, s string) {
	s = strings.ReplaceAll(strings.TrimSpace(s), "`", "")
	if s == "" || s == "*" || strings.ContainsAny(s, " ()+-*/,'\"") {
		return
	}
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		c.Qualifier, s = s[:i], s[i+1:]
	}
	c.Column = strings.ToLower(s)
}

// colArgs flattens positional arguments and the lists among them (groupBy(["a", "b"]),
// Seq("a", "b")).
func colArgs(args []arg) []*node {
	var out []*node
	for _, a := range args {
		if a.name != "" {
			continue
		}
		v := a.val
		if v.kind == nList || (v.kind == nCall && v.x.kind == nIdent && (v.x.name == "Seq" || v.x.name == "List" || v.x.name == "Array")) {
			for _, b := range v.args {
				out = append(out, b.val)
			}
			continue
		}
		if v.kind == nUnary && (v.name == "*" || v.name == ":") {
			v = v.x
		}
		out = append(out, v)
	}
	return out
}

// expandCols replaces a name bound to a list of string constants (KEYS = ["a", "b"];
// bucketBy(8, *KEYS)) by the list's literals.
func (ev *evaluator) expandCols(nodes []*node) []*node {
	var out []*node
	for _, n := range nodes {
		v, ok := ev.env[n.name]
		if n.kind != nIdent || !ok || v.kind != vList {
			out = append(out, n)
			continue
		}
		for _, it := range v.items {
			if it.kind == vStr && it.strNode != nil && it.strNode.kind == nStr {
				out = append(out, it.strNode)
			}
		}
	}
	return out
}

// colRefs reads each column argument as a key.
func (ev *evaluator) colRefs(args []arg, f *frame) []plan.ColumnRef {
	var out []plan.ColumnRef
	for _, n := range ev.expandCols(colArgs(args)) {
		out = append(out, ev.colRef(n, f))
	}
	return out
}

// nameArgs reads column-name arguments (bucketBy's, sortBy's, partitionBy's: names, not
// Column expressions) as names. known is false when any of them is not a constant (a
// parameter, fields.head, a list built at run time): its name is not known statically and
// is left out, never guessed from the expression's text. Names are lower case, a qualified
// constant "o.k" kept whole.
func (ev *evaluator) nameArgs(args []arg) (names []string, known bool) {
	known = true
	for _, n := range ev.expandCols(colArgs(args)) {
		if _, ok := ev.constString(n, 0); !ok && !ev.columnCall(n) {
			known = false
			continue
		}
		c := ev.colRef(n, nil)
		name := c.Column
		if c.Qualifier != "" && n.kind == nStr {
			name = c.Qualifier + "." + c.Column
		}
		if name == "" {
			known = false
			continue
		}
		names = append(names, name)
	}
	return names, known
}

// columnCall reports a Column built from a constant name (col("k"), F.col("k"), $"k"), as
// writeTo's partitionedBy takes.
func (ev *evaluator) columnCall(n *node) bool {
	if n.kind != nCall || len(n.args) != 1 {
		return false
	}
	_, ok := ev.constString(n.args[0].val, 0)
	return ok
}

// knownNames is nameArgs' known names: those of the arguments that are constants.
func (ev *evaluator) knownNames(args []arg) []string {
	names, _ := ev.nameArgs(args)
	return names
}

// argsText is the arguments as written, joined by ", ".
func (ev *evaluator) argsText(args []arg) string {
	var parts []string
	for _, a := range args {
		parts = append(parts, ev.text(a.val))
	}
	return strings.Join(parts, ", ")
}
