package code

import (
	"strings"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// parseNotebook reads a Jupyter notebook: each code cell is read in the kernel's language
// (or the language of a %%scala / %%pyspark cell magic), %%sql / %sql cells become SQL
// strings, other cell magics are skipped. Positions are in the .ipynb file.
func parseNotebook(out *plan.CodeFile, whole *source, errs *perr.List) {
	r := &jsonReader{src: whole.text}
	root, err := r.value()
	if err != nil {
		errs.Add(whole.pos(r.i), "notebook: %v", err)
		return
	}
	meta := root.get("metadata")
	lang := "python"
	for _, l := range []*jval{meta.get("kernelspec").get("language"), meta.get("language_info").get("name")} {
		if l != nil && l.kind == 's' && l.str != "" {
			lang = strings.ToLower(l.str)
			break
		}
	}
	if lang != "scala" {
		lang = "python"
	}
	out.Language = lang
	cells := root.get("cells")
	if cells == nil {
		// nbformat 3 keeps cells in worksheets.
		if ws := root.get("worksheets"); ws != nil && ws.kind == 'a' && len(ws.vals) > 0 {
			cells = ws.vals[0].get("cells")
		}
	}
	if cells == nil || cells.kind != 'a' {
		errs.Add(whole.pos(root.offset), "notebook: no cells")
		return
	}
	evs := map[string]*evaluator{}
	for _, c := range cells.vals {
		if t := c.get("cell_type"); t == nil || t.str != "code" {
			continue
		}
		cell, bad := cellSource(c, whole)
		if bad != nil {
			errs.Add(whole.pos(bad.offset), "notebook: a cell's source is not a string or a list of strings; cell not read")
			continue
		}
		if cell == nil {
			continue
		}
		cellLang, body := cellMagic(cell, lang)
		switch cellLang {
		case "sql":
			addSQLCell(out, body)
		case "python", "scala":
			if evs[cellLang] == nil {
				evs[cellLang] = newEvaluator(out, cellLang, errs)
			}
			evs[cellLang].run(body)
		}
	}
}

// cellSource joins a cell's source lines into one text mapped to the file. A source that is
// neither a string nor a list of strings (nbformat allows nothing else) is returned as bad:
// read as empty, it would hide the cell.
func cellSource(c *jval, whole *source) (cell *source, bad *jval) {
	src := c.get("source")
	if src == nil {
		src = c.get("input")
	}
	if src == nil {
		return nil, nil
	}
	parts := []*jval{src}
	if src.kind == 'a' {
		parts = src.vals
	}
	s := &source{file: whole.file, lines: whole.lines, off: []int{}}
	var text []byte
	for _, p := range parts {
		if p.kind != 's' {
			return nil, p
		}
		text = append(text, p.str...)
		s.off = append(s.off, p.offs...)
	}
	s.text = text
	return s, nil
}

// cellMagic returns the language of a cell from its first line's magic and the cell without
// that line: "sql" for %%sql / %sql, "scala" for %%scala / %%spark in a Scala notebook,
// "python" for %%pyspark / %%python, "" for any other cell magic.
func cellMagic(cell *source, lang string) (string, *source) {
	text := string(cell.text)
	trimmed := strings.TrimLeft(text, " \t\r\n")
	if !strings.HasPrefix(trimmed, "%") {
		return lang, cell
	}
	first := trimmed
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	word := strings.Fields(first)[0]
	if !strings.HasPrefix(word, "%%") && word != "%sql" && word != "%scala" && word != "%python" {
		return lang, cell // a line magic (%pip, %matplotlib): the cell is code
	}
	start := len(text) - len(trimmed) + len(first)
	if start < len(text) {
		start++
	}
	body := &source{file: cell.file, lines: cell.lines, text: cell.text[start:], off: cell.off[start:]}
	switch strings.TrimLeft(word, "%") {
	case "sql", "sparksql":
		return "sql", body
	case "scala":
		return "scala", body
	case "spark":
		return lang, body
	case "pyspark", "python", "python3":
		return "python", body
	}
	return "", body
}

// addSQLCell records a SQL cell's text, without surrounding blank lines.
func addSQLCell(out *plan.CodeFile, cell *source) {
	text := string(cell.text)
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	text = strings.TrimRight(text[lead:], " \t\r\n")
	if text == "" {
		return
	}
	s := &plan.SQLString{
		Text: text, Pos: cell.pos(lead), Resolved: true, Verbatim: true,
		Span: cell.span(lead, lead+len(text)),
	}
	s.Lines = []plan.Pos{s.Pos}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			s.Lines = append(s.Lines, cell.pos(lead+i+1))
		}
	}
	if !cell.contiguous(lead, len(text), text) {
		s.Verbatim, s.Lines = false, nil
	}
	out.SQL = append(out.SQL, s)
}

// magicCells reads the magic cells of a Databricks notebook source (cells separated by
// "COMMAND ----------" comment lines, magic lines prefixed "# MAGIC ", "// MAGIC " or
// "-- MAGIC "): %sql cells become SQL strings, %python and %scala cells are read as code.
// In a SQL source, plain cells are SQL.
func magicCells(ev *evaluator, whole *source) {
	prefix := "#"
	switch {
	case strings.HasPrefix(string(whole.text), "//"):
		prefix = "//"
	case strings.HasPrefix(string(whole.text), "--"):
		prefix = "--"
	}
	for _, cell := range splitCells(whole, prefix) {
		lang, body := magicCell(cell, prefix)
		switch {
		case lang == "sql" || (lang == "" && prefix == "--"):
			addSQLCell(ev.out, body)
		case lang == "python" || lang == "scala":
			newEvaluator(ev.out, lang, ev.errs).run(body)
		}
	}
}

// splitCells splits a Databricks source at its "COMMAND ----------" lines; the first line
// ("Databricks notebook source") is dropped.
func splitCells(whole *source, prefix string) []*source {
	var cells []*source
	text := string(whole.text)
	start, off := 0, 0
	sep := prefix + " COMMAND ----------"
	for _, line := range strings.SplitAfter(text, "\n") {
		lineStart := off
		off += len(line)
		switch {
		case lineStart == 0:
			start = off
		case strings.TrimSpace(line) == sep:
			cells = append(cells, sub(whole, start, lineStart))
			start = off
		}
	}
	return append(cells, sub(whole, start, len(text)))
}

func sub(whole *source, i, j int) *source {
	s := &source{file: whole.file, lines: whole.lines, text: whole.text[i:j], off: make([]int, j-i)}
	for k := range s.off {
		s.off[k] = i + k
	}
	return s
}

// magicCell returns a cell's magic language ("" for a plain cell) and, for a magic cell, its
// text with the "MAGIC" prefixes and the magic line removed.
func magicCell(cell *source, prefix string) (string, *source) {
	magic := prefix + " MAGIC"
	lines := strings.SplitAfter(string(cell.text), "\n")
	lang := ""
	body := &source{file: cell.file, lines: cell.lines, off: []int{}}
	off := 0
	for _, line := range lines {
		lineOff := off
		off += len(line)
		if !strings.HasPrefix(line, magic) {
			if lang == "" && strings.TrimSpace(line) != "" {
				return "", cell
			}
			continue
		}
		rest := line[len(magic):]
		restOff := lineOff + len(magic)
		if strings.HasPrefix(rest, " ") {
			rest, restOff = rest[1:], restOff+1
		}
		if lang == "" {
			word := strings.Fields(rest + " x")[0]
			if !strings.HasPrefix(word, "%") {
				return "", cell
			}
			lang = strings.TrimPrefix(word, "%")
			rest = strings.TrimPrefix(rest, word)
			restOff += len(word)
			if strings.TrimSpace(rest) == "" {
				continue
			}
		}
		body.text = append(body.text, rest...)
		for k := range len(rest) {
			body.off = append(body.off, cell.fileOff(restOff+k))
		}
	}
	return lang, body
}
