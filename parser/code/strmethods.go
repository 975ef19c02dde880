package code

import (
	"strings"
)

// strMethod evaluates the string methods that SQL texts commonly pass through: Scala's
// stripMargin, trim/strip, and Python's str.format with constant arguments. Anything else
// yields an unknown value.
func (ev *evaluator) strMethod(r *value, name string, n *node) *value {
	args := ev.evalArgs(n.args)
	v := *r
	v.verbatim = false
	switch name {
	case "stripMargin":
		lines := strings.Split(v.str, "\n")
		for i, l := range lines {
			t := strings.TrimLeft(l, " \t")
			if strings.HasPrefix(t, "|") {
				lines[i] = t[1:]
			}
		}
		v.str = strings.Join(lines, "\n")
	case "strip", "trim":
		if len(args) > 0 {
			return unknown
		}
		v.str = strings.TrimSpace(v.str)
	case "format":
		if ev.scala {
			// Scala's "…%s…".format(a, b) substitutes as Python's % does.
			return ev.percent(&v, &value{kind: vList, items: args}, n)
		}
		return ev.format(&v, n.args, args)
	default:
		return unknown
	}
	return &v
}

// format substitutes "{}", "{0}" and "{name}" fields of a str.format call; a field whose
// argument is not a constant string or number makes the result unresolved.
func (ev *evaluator) format(v *value, args []arg, vals []*value) *value {
	var b strings.Builder
	s := v.str
	auto := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c == '{' || c == '}') && i+1 < len(s) && s[i+1] == c {
			b.WriteByte(c)
			i++
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		field := fExpr(s[i+1 : i+j])
		if s[i+1:i+j] == "" {
			field = ""
		}
		i += j
		arg := formatArg(field, &auto, args, vals)
		switch {
		case arg != nil && arg.kind == vStr && arg.resolved:
			b.WriteString(arg.str)
		case arg != nil && arg.kind == vNum:
			b.WriteString(ev.numText(arg))
		default:
			v.resolved = false
			b.WriteString("{" + field + "}")
		}
	}
	v.str = b.String()
	return v
}

func formatArg(field string, auto *int, args []arg, vals []*value) *value {
	idx := -1
	switch {
	case field == "":
		idx = *auto
		*auto++
	case len(field) == 1 && isDigit(field[0]):
		idx = int(field[0] - '0')
	}
	pos := 0
	for i, a := range args {
		switch a.name {
		case "":
			if pos == idx {
				return vals[i]
			}
			pos++
		case field:
			return vals[i]
		}
	}
	return nil
}

// percent evaluates Python's "…%s…" % value and "…%s…%s…" % (a, b) for %s and %d fields;
// other conversions, or arguments that are not constants, leave the text unresolved.
func (ev *evaluator) percent(x, y *value, n *node) *value {
	args := []*value{y}
	if y.kind == vList {
		args = y.items
	}
	v := &value{kind: vStr, resolved: x.resolved, strNode: n}
	var b strings.Builder
	s := x.str
	for i := 0; i < len(s); i++ {
		if s[i] != '%' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; {
		case c == '%':
			b.WriteByte('%')
		case (c == 's' || c == 'd') && len(args) > 0:
			a := args[0]
			args = args[1:]
			switch {
			case a.kind == vStr && a.resolved:
				b.WriteString(a.str)
			case a.kind == vNum:
				b.WriteString(ev.numText(a))
			default:
				v.resolved = false
				b.WriteString("{%" + string(c) + "}")
			}
		default:
			v.resolved = false
			b.WriteByte('%')
			b.WriteByte(c)
		}
	}
	v.str = b.String()
	return v
}
