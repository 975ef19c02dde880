package explain

import (
	"bytes"
	"strings"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// Parse reads every explain output in src, the contents of the file named file. Text around
// the outputs (notebook cells, logs, the "-- !query" blocks of Spark's .sql.out files, the
// ASCII table of DataFrame.show) is skipped. Parse returns the outputs it could read, even
// when some of their lines could not be, and the errors found, sorted and capped at about ten.
func Parse(file string, src []byte) ([]*plan.Explain, perr.List) {
	if !bytes.Contains(src, []byte("== ")) && !bytes.Contains(src, []byte("Found ")) {
		return nil, nil // no line can open an output (startsExplain): not worth copying and splitting
	}
	p := newParser(file, src)
	var out []*plan.Explain
	for i := 0; i < len(p.lines); {
		if !p.startsExplain(i) {
			i++
			continue
		}
		e, next := p.explain(i)
		out = append(out, e)
		i = max(next, i+1)
	}
	return out, p.errs.Capped()
}

// sectionRank orders the sections of one explain output; a header that does not come after
// the previous one starts a new output.
func sectionRank(title string) int {
	switch title {
	case "Parsed Logical Plan":
		return 1
	case "Analyzed Logical Plan":
		return 2
	case "Optimized Logical Plan":
		return 3
	case "Physical Plan":
		return 4
	}
	return 0
}

// startsExplain reports whether line i opens an explain output: a plan section header or
// codegen mode's "Found N WholeStageCodegen subtrees.".
func (p *parser) startsExplain(i int) bool {
	if isCodegenStart(p.lines[i].s) {
		return true
	}
	t, ok := header(p.lines[i].s)
	return ok && sectionRank(t) > 0
}

// isHeader reports whether line i is a section header or starts a codegen output.
func (p *parser) isHeader(i int) bool {
	_, ok := header(p.lines[i].s)
	return ok || isCodegenStart(p.lines[i].s)
}

// isCodegenStart reports codegen mode's first line "Found 2 WholeStageCodegen subtrees.".
func isCodegenStart(s string) bool {
	t := strings.TrimSpace(s)
	return strings.HasPrefix(t, "Found ") && strings.HasSuffix(t, " WholeStageCodegen subtrees.")
}

// explain reads the output starting at line i and returns it with the line after it.
func (p *parser) explain(i int) (*plan.Explain, int) {
	e := &plan.Explain{File: p.file, Pos: p.pos(i, indent(p.lines[i].s))}
	if isCodegenStart(p.lines[i].s) {
		e.Mode = "codegen"
		return e, p.codegen(e, i)
	}
	rank := 0
	for {
		k := p.skipBlank(i)
		if k >= len(p.lines) {
			break
		}
		title, ok := header(p.lines[k].s)
		if !ok {
			break
		}
		r := sectionRank(title)
		switch {
		case r == 4 && rank < 4:
			i = p.physical(e, k)
		case r > rank:
			i = p.textSection(&e.Logical, title, k)
		case r == 0 && rank == 4:
			i = p.textSection(&e.Extra, title, k)
		default:
			e.Mode = mode(e)
			return e, i
		}
		rank = max(r, rank)
	}
	e.Mode = mode(e)
	return e, i
}

// textSection keeps the section whose header is line h as text, up to the next blank line or
// header, and returns the line after it.
func (p *parser) textSection(to *[]plan.TextSection, title string, h int) int {
	j := h + 1
	for j < len(p.lines) && !p.blank(j) && !p.isHeader(j) {
		j++
	}
	texts := make([]string, 0, j-h-1)
	for k := h + 1; k < j; k++ {
		texts = append(texts, p.lines[k].s)
	}
	*to = append(*to, plan.TextSection{Name: title, Text: strings.Join(texts, "\n"), Pos: p.pos(h, indent(p.lines[h].s))})
	return j
}

// mode names the explain mode from what was printed (formats.md §13 step 3).
func mode(e *plan.Explain) string {
	switch {
	case e.Mode != "":
		return e.Mode
	case len(e.Logical) == 0:
		return "simple"
	case len(e.Logical) == 1 && e.Logical[0].Name == "Optimized Logical Plan" &&
		strings.Contains(e.Logical[0].Text, "Statistics("):
		return "cost"
	}
	return "extended"
}

// codegen reads codegen mode: after "Found N WholeStageCodegen subtrees.", one
// "== Subtree i / N (…) ==" header per stage, its tree, and the generated Java, skipped.
func (p *parser) codegen(e *plan.Explain, i int) int {
	j := i + 1
	for {
		k := p.skipBlank(j)
		if k >= len(p.lines) {
			return j
		}
		title, ok := header(p.lines[k].s)
		if !ok || !strings.HasPrefix(title, "Subtree ") {
			return j
		}
		name, _, _ := strings.Cut(title, " (")
		j = p.skipBlank(k + 1)
		if j < len(p.lines) && !p.isHeader(j) && !isJava(p.lines[j].s) {
			raw, next := p.readTree(j)
			root := p.simpleNode(raw)
			e.Plans = append(e.Plans, plan.Section{Name: name, Root: root, Pos: p.pos(k, indent(p.lines[k].s))})
			j = next
		}
		for j < len(p.lines) && (p.blank(j) || isJava(p.lines[j].s)) {
			j++
		}
	}
}

// isJava reports a line of codegen mode's generated code: "Generated code:" and the
// numbered "/* 001 */ …" lines.
func isJava(s string) bool {
	t := strings.TrimSpace(s)
	return t == "Generated code:" || strings.HasPrefix(t, "/* ")
}
