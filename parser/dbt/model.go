package dbt

import (
	"path"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A Model is what a model file becomes: the statement dbt sends for it, and what was not
// understood.
type Model struct {
	// Name is the model's relation name: the file's name without .sql, lower case.
	Name string
	// Statement is the CREATE TABLE … AS or CREATE OR REPLACE VIEW … AS statement, its lines
	// mapped to the model file and the files the configs are written in; nil for a disabled
	// model.
	Statement *plan.SQLString
	// Opaque is set when the body holds Jinja left as written ({{ var(…) }}, {% if %}): it is
	// not exactly the SQL dbt compiles, so a statement that does not parse is a note.
	Opaque bool
	// Notes say what was not understood, each at its place.
	Notes []plan.Note
}

// Model reads the model in file (slash-separated) with src its text.
func (p *Project) Model(file string, src []byte) *Model {
	text := string(src)
	base := path.Base(file)
	m := &Model{Name: strings.ToLower(strings.TrimSuffix(base, path.Ext(base)))}
	body, own := p.render(file, text, m)
	c := p.config(file, own)
	if strings.EqualFold(c["enabled"].Text(), "false") {
		m.Notes = append(m.Notes, plan.Note{Pos: c["enabled"].Pos, Text: "model " + m.Name + " is disabled (enabled: false): not read"})
		return m
	}
	if a := c["alias"]; a.Text() != "" {
		m.Notes = append(m.Notes, plan.Note{Pos: a.Pos, Text: "model " + m.Name + " has alias " + a.Text() + ": bucketlint names its table " + m.Name + ", as ref() does"})
	}
	m.Statement = p.statement(file, m, c, body)
	return m
}

// statement builds the statement dbt-spark sends for the model: its header lines, each
// mapped to where its value is written, then the body line for line.
func (p *Project) statement(file string, m *Model, c Config, body *body) *plan.SQLString {
	h := &header{file: file}
	start := plan.Pos{File: file, Line: 1, Col: 1}
	switch mat := strings.ToLower(c["materialized"].Text()); mat {
	case "table", "incremental":
		h.line("CREATE TABLE "+quoteName(m.Name), start)
		if f := c["file_format"]; f.Text() != "" {
			h.line("USING", f.Pos)
			h.line(f.Text(), f.Items[0].Pos)
		}
		if v := c["partition_by"]; len(v.Items) > 0 && !v.Other {
			h.list("PARTITIONED BY", v)
		}
		h.buckets(c)
	default:
		if mat != "" && mat != "view" && mat != "ephemeral" {
			m.Notes = append(m.Notes, plan.Note{Pos: c["materialized"].Pos, Text: "model " + m.Name + ": materialization " + mat + " is not known; read as a view"})
		}
		h.line("CREATE OR REPLACE VIEW "+quoteName(m.Name), start)
	}
	h.line("AS", start)
	last := len(body.lines) - 1
	for last > 0 && strings.TrimSpace(body.lines[last]) == "" {
		last--
	}
	for i, l := range body.lines[:last+1] {
		if i == last {
			l = strings.TrimRight(l, " \t\r;")
		}
		h.line(l, body.pos[i])
	}
	return &plan.SQLString{
		Text: strings.Join(h.text, "\n"), Pos: start, Lines: h.pos, Verbatim: true,
		Resolved: !m.Opaque, Span: plan.Span{Start: start, End: body.pos[last]},
	}
}

// A header is the statement's text being built, a line at a time, each with the position its
// first byte maps to.
type header struct {
	file string
	text []string
	pos  []plan.Pos
}

func (h *header) line(s string, at plan.Pos) {
	h.text = append(h.text, s)
	h.pos = append(h.pos, at)
}

// list writes "KEYWORD (" and then each item on a line of its own, so that each maps to
// where it is written.
func (h *header) list(kw string, v Value) {
	h.line(kw+" (", v.Pos)
	for i, it := range v.Items {
		if i > 0 {
			h.line(",", it.Pos)
		}
		h.line(quoteName(it.Text), it.Pos)
	}
	h.line(")", v.Pos)
}

// buckets writes CLUSTERED BY (…) INTO n BUCKETS when both are configured, as dbt-spark
// does; a count that is not a number stays a template.
func (h *header) buckets(c Config) {
	cols, n := c["clustered_by"], c["buckets"]
	if len(cols.Items) == 0 || cols.Other || n.Pos.Line == 0 {
		return
	}
	h.list("CLUSTERED BY", cols)
	h.line("INTO", n.Pos)
	if t := n.Text(); t != "" && !n.Other {
		h.line(t, n.Items[0].Pos)
	} else {
		h.line("{{ buckets }}", n.Pos)
	}
	h.line("BUCKETS", n.Pos)
}

// quoteName returns a name as SQL: as is when it is a plain identifier or a template, else
// in backticks.
func quoteName(s string) string {
	plain := s != ""
	for i := 0; i < len(s); i++ {
		if !isWord(s[i]) && s[i] != '.' {
			plain = false
		}
	}
	if plain || strings.Contains(s, "{{") {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// A body is the model's text with its Jinja replaced, a line at a time, each line with the
// position of its first byte in the model file.
type body struct {
	lines []string
	pos   []plan.Pos
	cur   strings.Builder
}

func (b *body) newline(at plan.Pos) {
	b.lines = append(b.lines, b.cur.String())
	b.cur.Reset()
	b.pos = append(b.pos, at)
}

// render replaces the Jinja expressions of a model body that name relations by those names
// and blanks the config call, whose arguments it returns. A replacement is padded to the
// width of the Jinja it replaces; one that is wider ends its line, and the text after it goes
// on a line of its own mapped to where it is written. Other Jinja is left as written and
// makes the model Opaque; {# … #} comments are left for the SQL lexer.
func (p *Project) render(file, text string, m *Model) (*body, Config) {
	own := Config{}
	b := &body{pos: []plan.Pos{{File: file, Line: 1, Col: 1}}}
	line, col := 1, 1
	for i := 0; i < len(text); {
		c := text[i]
		if c == '{' && i+1 < len(text) && (text[i+1] == '{' || text[i+1] == '%') {
			closer := map[byte]string{'{': "}}", '%': "%}"}[text[i+1]]
			end := closing(text, i, closer)
			repl, ok := "", false
			if closer == "}}" {
				repl, ok = p.expr(file, text, i, text[i+2:max(i+2, end-2)], m, own)
			}
			if !ok {
				m.Opaque = true
				repl = text[i:end]
			}
			width := end - i
			b.cur.WriteString(repl)
			for _, r := range text[i:end] {
				if r == '\n' {
					line, col = line+1, 1
				} else {
					col += len(string(r))
				}
			}
			switch {
			case !ok && strings.Contains(repl, "\n"):
				// kept as written: its own newlines are the file's, map the line after it
				b.reflow(file, line, col)
			case len(repl) < width && !strings.Contains(text[i:end], "\n"):
				b.cur.WriteString(strings.Repeat(" ", width-len(repl)))
			case ok:
				b.newline(plan.Pos{File: file, Line: line, Col: col})
			}
			i = end
			continue
		}
		if c == '\n' {
			line, col = line+1, 1
			b.newline(plan.Pos{File: file, Line: line, Col: 1})
		} else {
			b.cur.WriteByte(c)
			col++
		}
		i++
	}
	b.lines = append(b.lines, b.cur.String())
	return b, own
}

// reflow splits the current text at its newlines, which are the file's own, and maps the
// line after them to line, col.
func (b *body) reflow(file string, line, col int) {
	parts := strings.Split(b.cur.String(), "\n")
	b.cur.Reset()
	first := len(b.lines)
	for k, part := range parts[:len(parts)-1] {
		b.lines = append(b.lines, part)
		b.pos = append(b.pos, plan.Pos{File: file, Line: b.pos[first].Line + k + 1, Col: 1})
	}
	b.cur.WriteString(parts[len(parts)-1])
	b.pos[len(b.pos)-1] = plan.Pos{File: file, Line: line, Col: col - len(parts[len(parts)-1])}
}

// closing returns the offset after the closer of the tag opened at i, or len(text).
func closing(text string, i int, closer string) int {
	if j := strings.Index(text[i+2:], closer); j >= 0 {
		return i + 2 + j + len(closer)
	}
	return len(text)
}

// expr reads one {{ … }}: ref, source, this and config are understood; the replacement is
// never wider than the expression.
func (p *Project) expr(file, text string, at int, inner string, m *Model, own Config) (string, bool) {
	s := strings.TrimSpace(strings.Trim(inner, "-"))
	fn, args, ok := call(s)
	switch {
	case s == "this":
		return quoteName(m.Name), true
	case !ok:
		return "", false
	case fn == "config":
		open := at + 2 + strings.Index(inner, "(") + 1
		own.merge(kwargs(args, posAt(file, text, open)))
		return "", true
	case fn == "ref":
		a := stringArgs(args)
		if len(a) == 0 || !printable(a...) {
			return "", false
		}
		return quoteName(strings.ToLower(a[len(a)-1])), true
	case fn == "source":
		a := stringArgs(args)
		if len(a) != 2 || !printable(a...) {
			return "", false
		}
		rel, ok := p.sources[a[0]+"."+a[1]]
		if !ok {
			rel = strings.ToLower(a[0] + "." + a[1])
			m.Notes = append(m.Notes, plan.Note{Pos: posAt(file, text, at), Text: "source " + a[0] + "." + a[1] + " is not declared in a property file: read as " + rel})
		}
		return quoteName(rel), true
	}
	return "", false
}

// printable reports whether no name has a control character (a newline in a ref's name is
// no relation dbt could create): such a call is Jinja not understood.
func printable(names ...string) bool {
	for _, s := range names {
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 || s[i] == 0x7f {
				return false
			}
		}
	}
	return true
}

// call splits "name(args)" into its name and the text between the parentheses.
func call(s string) (string, string, bool) {
	open := strings.IndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") {
		return "", "", false
	}
	name := strings.TrimSpace(s[:open])
	for i := 0; i < len(name); i++ {
		if !isWord(name[i]) {
			return "", "", false
		}
	}
	return name, s[open+1 : len(s)-1], true
}

// stringArgs returns a call's positional string arguments; nil when one is not a string
// literal (keyword arguments such as version= are left out).
func stringArgs(args string) []string {
	k := &kwScanner{src: args}
	var out []string
	for {
		k.space()
		if k.i >= len(k.src) {
			return out
		}
		c := k.src[k.i]
		if c != '\'' && c != '"' {
			if name, _ := k.ident(); name != "" {
				k.skipArg()
				continue
			}
			return nil
		}
		it, ok := k.str()
		if !ok {
			return nil
		}
		out = append(out, it.Text)
		k.space()
		if k.i < len(k.src) && k.src[k.i] == ',' {
			k.i++
		}
	}
}

// posAt returns the position of text[off].
func posAt(file, text string, off int) plan.Pos {
	p := plan.Pos{File: file, Line: 1, Col: 1}
	for i := 0; i < off && i < len(text); i++ {
		if text[i] == '\n' {
			p.Line++
			p.Col = 1
		} else {
			p.Col++
		}
	}
	return p
}
