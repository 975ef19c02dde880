package code

import "github.com/bucketlint/bucketlint/plan"

// scopedConfs records the settings of a Scala withSQLConf(k -> v, …) { block } whose call n
// the statement loop has just read, with the parser at the block's "{": each is in force
// from its key to the block's closing brace (plan.Conf.Until), as Spark's test helper sets
// the keys, runs the block and restores the values they had. It reports whether n was such
// a call. A pair whose key is not a constant is skipped; a value that is not a constant is
// kept as written, as for any setting.
func (ev *evaluator) scopedConfs(p *exprParser, n *node) bool {
	if !ev.scala || n.kind != nCall || n.x.kind != nIdent || n.x.name != "withSQLConf" || !p.isOp("{") {
		return false
	}
	closing := matchingClose(p.toks, p.i, "{", "}")
	if closing < 0 {
		return false
	}
	until := ev.src.pos(p.toks.at(closing).off)
	for _, a := range n.args {
		k, v := confPair(a.val)
		if k == nil {
			ev.eval(a.val)
			continue
		}
		kv := ev.eval(k)
		if kv.kind != vStr || !kv.resolved {
			continue
		}
		c := plan.Conf{Key: kv.str, Value: ev.confValue(v), Pos: ev.src.pos(k.off), Span: ev.src.span(k.off, v.end), Until: until}
		ev.out.Confs = append(ev.out.Confs, c)
	}
	return true
}

// confPair splits a Scala pair, k -> v or (k, v), into its key and value; nil when n is
// neither.
func confPair(n *node) (k, v *node) {
	switch {
	case n == nil:
	case n.kind == nBin && n.name == "->":
		return n.x, n.y
	case n.kind == nList && n.name == "(" && len(n.args) == 2 && n.args[0].name == "" && n.args[1].name == "":
		return n.args[0].val, n.args[1].val
	}
	return nil, nil
}
