package code

import "sort"

// javaAccessor reports the Java methods that are Scala's parameterless accessors: Java calls
// df.write(), spark.read(), spark.conf(), df.na() with parentheses.
func javaAccessor(name string) bool {
	switch name {
	case "write", "read", "conf", "na", "stat":
		return true
	}
	return false
}

// javaDeclTarget consumes a Java local or field declaration with an initialiser, "[modifiers]
// Type[<…>][[]] name =", at the parser's position and returns the name; "" (consuming
// nothing) when the statement is not one.
func javaDeclTarget(p *exprParser) string {
	at := func(i int) token {
		if i < p.toks.len() {
			return p.toks.at(i)
		}
		return p.toks.at(p.toks.len() - 1)
	}
	isOp := func(i int, s string) bool { return at(i).kind == tOp && at(i).text == s }
	i := p.i
	for at(i).kind == tIdent && javaModifier(at(i).text) {
		i++
	}
	if at(i).kind != tIdent {
		return ""
	}
	i++
	for isOp(i, ".") && at(i+1).kind == tIdent {
		i += 2
	}
	if isOp(i, "<") {
		depth := 0
		for ; ; i++ {
			t := at(i)
			if t.kind == tNewline || t.kind == tEOF {
				return ""
			}
			switch {
			case isOp(i, "<"):
				depth++
			case isOp(i, ">"):
				depth--
			case isOp(i, ">>"):
				depth -= 2
			}
			if depth <= 0 {
				i++
				break
			}
		}
	}
	for isOp(i, "[") && isOp(i+1, "]") {
		i += 2
	}
	if at(i).kind != tIdent || !isOp(i+1, "=") {
		return ""
	}
	p.i = i + 2
	return at(i).text
}

// javaModifier reports the Java modifiers a declaration may start with.
func javaModifier(s string) bool {
	switch s {
	case "final", "static", "private", "public", "protected", "transient", "volatile":
		return true
	}
	return false
}

// objectScopes are the Scala objects (or Java classes) whose bodies hold a file's tokens, by
// their qualified names ("Config", "Config.Keys"), "" outside any: the tokens from index
// from[k] up to from[k+1] are in names[k]. A body is the braces after "object Name" or
// "class Name" (its extends clause in between). Only the changes are stored: a token's
// object is looked up when a constant is bound, which most tokens never are.
type objectScopes struct {
	from  []int
	names []string
}

// at returns the object holding token i, "" when none does.
func (o *objectScopes) at(i int) string {
	k := sort.SearchInts(o.from, i+1) - 1
	if k < 0 {
		return ""
	}
	return o.names[k]
}

// newObjectScopes reads the objects holding each of toks.
func newObjectScopes(toks tokens) *objectScopes {
	o := &objectScopes{}
	type open struct {
		name  string
		depth int
	}
	var stack []open
	depth := 0
	pending := ""
	// set records that the object is that of the stack's top from token i on.
	set := func(i int) {
		name := ""
		if len(stack) > 0 {
			name = stack[len(stack)-1].name
		}
		if n := len(o.names); n > 0 && o.from[n-1] == i {
			o.names[n-1] = name
		} else if n > 0 && o.names[n-1] == name || n == 0 && name == "" {
			return
		} else {
			o.from, o.names = append(o.from, i), append(o.names, name)
		}
	}
	for i := range toks.len() {
		t := toks.at(i)
		switch {
		case t.kind == tIdent && (t.text == "object" || t.text == "class") && i+1 < toks.len() && toks.at(i+1).kind == tIdent:
			pending = toks.at(i + 1).text
		case t.kind == tOp && t.text == "{":
			depth++
			if pending != "" {
				name := pending
				if len(stack) > 0 {
					name = stack[len(stack)-1].name + "." + name
				}
				stack = append(stack, open{name, depth})
				pending = ""
				set(i)
			}
		case t.kind == tOp && t.text == "}":
			if len(stack) > 0 && stack[len(stack)-1].depth == depth {
				stack = stack[:len(stack)-1]
				set(i)
			}
			if depth > 0 {
				depth--
			}
		case t.kind == tOp && (t.text == "(" || t.text == "=" || t.text == ";"):
			pending = "" // "class C(…)" keeps its name; a statement ends it
			if t.text == "(" && i > 0 && toks.at(i-1).kind == tIdent && (i < 2 || toks.at(i-2).text == "object" || toks.at(i-2).text == "class") {
				pending = toks.at(i - 1).text
			}
		}
	}
	return o
}

// isConstant reports a string or number value.
func isConstant(v *value) bool {
	return v.kind == vStr && v.resolved || v.kind == vNum
}
