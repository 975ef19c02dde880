package explain

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A detail is one formatted-mode detail block "(N) Title [codegen id : C]" and its fields.
type detail struct {
	title   string
	codegen int
	reuses  int
	fields  []plan.Field
	line    int
}

// value returns the value of the field named key, "" when absent.
func (d *detail) value(key string) string {
	if d == nil {
		return ""
	}
	for _, f := range d.fields {
		if f.Key == key {
			return f.Value
		}
	}
	return ""
}

// has reports whether the block printed the field named key.
func (d *detail) has(key string) bool {
	if d == nil {
		return false
	}
	for _, f := range d.fields {
		if f.Key == key {
			return true
		}
	}
	return false
}

// outlineID splits a formatted outline text "Title (N)[, Statistics(…)]" into its title, id
// (0 for "(unknown)") and statistics; ok is false when the text carries no id.
func outlineID(text string) (title string, id int, stats string, ok bool) {
	k := -1 // the last " (N)" followed by the end of the text or ", "
	for from := 0; ; {
		i := strings.Index(text[from:], " (")
		if i < 0 {
			break
		}
		i += from
		from = i + 2
		rest := text[from:]
		e := 0
		for e < len(rest) && rest[e] >= '0' && rest[e] <= '9' {
			e++
		}
		if e == 0 && strings.HasPrefix(rest, "unknown") {
			e = len("unknown")
		}
		if e > 0 && e < len(rest) && rest[e] == ')' && (e+1 == len(rest) || strings.HasPrefix(rest[e+1:], ", ")) {
			k = i
		}
	}
	if k < 0 {
		return text, 0, "", false
	}
	rest := text[k+2:]
	e := strings.IndexByte(rest, ')')
	id, _ = strconv.Atoi(rest[:e])
	return text[:k], id, strings.TrimPrefix(rest[e+1:], ", "), true
}

// detailHead reads a detail block header "(N) Title[ [codegen id : C]]".
func detailHead(s string) (id int, d detail, ok bool) {
	if len(s) < 3 || s[0] != '(' {
		return 0, d, false
	}
	e := 1
	for e < len(s) && s[e] >= '0' && s[e] <= '9' {
		e++
	}
	if e == 1 || e >= len(s) || s[e] != ')' || e+1 < len(s) && s[e+1] != ' ' {
		return 0, d, false
	}
	id, err := strconv.Atoi(s[1:e])
	if err != nil {
		return 0, d, false
	}
	d = detail{title: strings.TrimSpace(s[e+1:])}
	if t, c, found := strings.Cut(d.title, " [codegen id : "); found && strings.HasSuffix(c, "]") {
		d.codegen, _ = strconv.Atoi(strings.TrimSuffix(c, "]"))
		d.title = t
	}
	if r, ok := strings.CutPrefix(d.title, "ReusedExchange [Reuses operator id: "); ok {
		d.reuses, _ = strconv.Atoi(strings.TrimSuffix(r, "]"))
	}
	return id, d, true
}

// startsDetail is a quick test for a line that may be a detail block header "(N) …".
func startsDetail(s string) bool {
	return len(s) > 1 && s[0] == '(' && s[1] >= '0' && s[1] <= '9'
}

// field reads one detail line: "Key [n]: [..]", "Key: value", "Condition : value", or the
// normalised "Location [not included in comparison]/…".
func field(s string) (plan.Field, bool) {
	f := plan.Field{Count: -1}
	if s == "" || !isLetter(s[0]) {
		return f, false
	}
	k, end := 1, 1 // the key's bytes, and where they end without trailing spaces
	for ; k < len(s); k++ {
		if c := s[k]; isIdentByte(c) {
			end = k + 1
		} else if c != ' ' {
			break
		}
	}
	f.Key = s[:end]
	if k == len(s) {
		return f, false
	}
	rest := s[k:]
	if rest[0] == '[' {
		e := 1
		for e < len(rest) && rest[e] >= '0' && rest[e] <= '9' {
			e++
		}
		if e == 1 || e == len(rest) || rest[e] != ']' {
			if f.Key == "Location" {
				f.Value = rest
				return f, true
			}
			return f, false
		}
		f.Count = smallInt(rest[1:e])
		e++
		for e < len(rest) && rest[e] == ' ' {
			e++
		}
		rest = rest[e:]
	}
	if rest == "" || rest[0] != ':' {
		return f, false
	}
	if len(rest) > 1 && rest[1] == ' ' {
		f.Value = rest[2:]
	} else {
		f.Value = rest[1:]
	}
	return f, true
}

// smallInt is strconv.Atoi of a string of decimal digits, 0 when it does not fit an int.
func smallInt(digits string) int {
	if len(digits) > 18 {
		v, _ := strconv.Atoi(digits)
		return v
	}
	v := 0
	for i := 0; i < len(digits); i++ {
		v = v*10 + int(digits[i]-'0')
	}
	return v
}

// readDetail reads the fields of the block whose header is line i and returns the line after.
// A line that is not a field continues the value of the field before it (a value printed
// over several lines).
func (p *parser) readDetail(id int, d *detail, i int) int {
	n := 0 // lines up to the next blank line or block header: the fields, usually
	for k := i + 1; k < len(p.lines) && !p.blank(k) && !startsDetail(p.lines[k].s); k++ {
		n++
	}
	d.fields = p.fields(n)
	var more []string // continuation lines of the last field
	flush := func() {
		if len(more) > 0 {
			f := &d.fields[len(d.fields)-1]
			f.Value += "\n" + strings.Join(more, "\n")
			more = more[:0]
		}
	}
	j := i + 1
	for ; j < len(p.lines) && !p.blank(j); j++ {
		s := p.lines[j].s
		if startsDetail(s) {
			if _, _, ok := detailHead(s); ok {
				break
			}
		}
		f, ok := field(s)
		switch {
		case ok:
			flush()
			f.Pos = p.pos(j, 0)
			d.fields = append(d.fields, f)
		case len(d.fields) > 0:
			more = append(more, s)
		default:
			p.errorf(j, 0, "expected a detail field \"Key: value\" in the block of operator (%d)", id)
		}
	}
	flush()
	d.fields = d.fields[:len(d.fields):len(d.fields)]
	return j
}

// formattedName returns an outline or detail title's canonical operator name and the text
// after the name.
func formattedName(title string) (name, rest string, skew bool) {
	e := nameEnd(title)
	name = title[:e]
	switch name {
	case "Scan":
		w, we := word(title, e)
		switch {
		case w == "In-memory" && strings.HasPrefix(title[we:], " table"):
			name, e = "InMemoryTableScan", we+len(" table")
		case w != "":
			name, e = "Scan "+w, we
		}
	case "Execute":
		if w, we := word(title, e); w != "" {
			name, e = "Execute "+w, we
		}
	case "SortMergeJoin", "ShuffledHashJoin":
		if strings.HasPrefix(title[e:], "(skew=true)") {
			skew = true
			e += len("(skew=true)")
		}
	}
	return name, strings.TrimSpace(title[e:]), skew
}

// isFileScan reports whether a formatted "Scan <fmt> <table>" is a v1 file scan.
func isFileScan(name string, d *detail) bool {
	f, ok := strings.CutPrefix(name, "Scan ")
	if !ok || f == "hive" {
		return false
	}
	return strings.Contains(fileFormats, " "+f+" ") || d.has("Location") || strings.HasPrefix(f, "Hyperspace(")
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
