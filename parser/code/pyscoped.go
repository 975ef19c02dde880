package code

import "github.com/bucketlint/bucketlint/plan"

// pyScopedConfs reads the header of a Python "with …sql_conf({k: v, …}):" at the parser's
// position, a statement's start: PySpark's SQLTestUtils.sql_conf (pyspark.testing.sqlutils),
// the context manager Spark's own PySpark tests use as Scala's use withSQLConf, sets the keys,
// runs the block and restores the values they had. Each pair is in force from its key to the
// block's end (plan.Conf.Until): the last token of the lines indented deeper than the "with"
// (or of the header's line, for a body on the same line). It consumes the header up to its
// ":", so that the body is read as usual, and reports whether it did. A pair whose key is not
// a constant is skipped; a value that is not a constant is kept as written, as for any
// setting.
func (ev *evaluator) pyScopedConfs(p *exprParser) bool {
	if ev.scala {
		return false
	}
	with := p.i
	if t := p.toks.at(with); t.kind != tIdent || t.text != "with" {
		return false
	}
	// The context manager: sql_conf or a receiver's (self.sql_conf), called with a dict.
	i := with + 1
	for p.toks.at(i).kind == tIdent && isOpTok(p.toks.at(i+1), ".") {
		i += 2
	}
	if t := p.toks.at(i); t.kind != tIdent || t.text != "sql_conf" || !isOpTok(p.toks.at(i+1), "(") || !isOpTok(p.toks.at(i+2), "{") {
		return false
	}
	dict := i + 2
	closeDict := matchingClose(p.toks, dict, "{", "}")
	closeCall := matchingClose(p.toks, i+1, "(", ")")
	if closeDict < 0 || closeCall < 0 {
		return false
	}
	colon := closeCall + 1
	if t := p.toks.at(colon); t.kind == tIdent && t.text == "as" && p.toks.at(colon+1).kind == tIdent {
		colon += 2
	}
	if !isOpTok(p.toks.at(colon), ":") {
		return false
	}
	until := ev.src.pos(p.toks.at(ev.pyBlockEnd(p.toks, with, colon)).end)
	q := &exprParser{toks: p.toks, i: dict + 1, deep: -1}
	for q.i < closeDict {
		k := q.expr(1)
		if k == nil || !q.isOp(":") {
			break
		}
		q.skip()
		v := q.expr(1)
		if v == nil {
			break
		}
		if kv := ev.eval(k); kv.kind == vStr && kv.resolved {
			ev.out.Confs = append(ev.out.Confs, plan.Conf{Key: kv.str, Value: ev.confValue(v), Pos: ev.src.pos(k.off), Span: ev.src.span(k.off, v.end), Until: until})
		}
		if !q.isOp(",") {
			break
		}
		q.skip()
	}
	p.i = colon + 1
	return true
}

// pyBlockEnd returns the index of the last token of the Python block whose header, starting
// at token with, ends at the ":" at token colon: the last token before the first line
// indented no deeper than the header (or the end of the text); the header line's last token
// when the body follows the ":" on that line.
func (ev *evaluator) pyBlockEnd(toks tokens, with, colon int) int {
	j := colon + 1
	if k := toks.at(j).kind; k != tNewline && k != tEOF {
		// The body follows the ":" on the header's line: it ends with the line.
		for k := toks.at(j + 1).kind; k != tNewline && k != tEOF; k = toks.at(j + 1).kind {
			j++
		}
		return j
	}
	col := ev.column(toks.at(with).off)
	last := colon
	for ; j < toks.len(); j++ {
		t := toks.at(j)
		if t.kind == tEOF {
			break
		}
		if t.kind == tNewline {
			continue
		}
		if toks.at(j-1).kind == tNewline && ev.column(t.off) <= col {
			break
		}
		last = j
	}
	return last
}

// isOpTok reports whether t is the operator s.
func isOpTok(t token, s string) bool { return t.kind == tOp && t.text == s }

// matchingClose returns the index of the closer matching the opener at token i, -1 when the
// text ends first.
func matchingClose(toks tokens, i int, opener, closer string) int {
	depth := 0
	for j := i; j < toks.len(); j++ {
		t := toks.at(j)
		if t.kind == tEOF {
			return -1
		}
		if t.kind != tOp {
			continue
		}
		switch t.text {
		case opener:
			depth++
		case closer:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
