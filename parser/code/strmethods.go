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
			return &value{}
		}
		v.str = strings.TrimSpace(v.str)
	case "format":
		return ev.format(&v, n.args, args)
	default:
		return &value{}
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
