package code

import "github.com/bucketlint/bucketlint/plan"

// isFunctions reports a receiver that is Spark's functions module (F.col, functions.broadcast)
// or os.path, whose methods share names with DataFrame methods.
func isFunctions(n *node) bool {
	name, ok := dotted(n)
	if !ok {
		return false
	}
	switch name {
	case "F", "f", "fn", "func", "functions", "sf", "psf", "os.path", "path", "pyspark.sql.functions",
		"org.apache.spark.sql.functions":
		return true
	}
	return false
}

// sessionMethod handles calls on a SparkSession, its builder or Spark's functions module.
func (ev *evaluator) sessionMethod(recv *node, name string, n *node) (*value, bool) {
	switch name {
	case "table":
		if len(n.args) >= 1 {
			return ev.readTable(ev.eval(n.args[0].val), n), true
		}
	case "sql":
		if len(n.args) >= 1 {
			return ev.sqlCall(n), true
		}
	case "config", "set", "setConf":
		ev.confCall(n)
		return unknown, true
	case "setAll":
		ev.confPairs(n)
		return unknown, true
	case "broadcast":
		if len(n.args) == 1 {
			return ev.broadcast(n.args[0].val), true
		}
	case "createDataFrame", "range", "parallelize", "makeRDD":
		return ev.sessionFrame(name, n), true
	case "partitionBy", "orderBy":
		if recv.kind == nIdent && recv.name == "Window" {
			w := &value{kind: vWindow}
			if name == "partitionBy" {
				w.keys = ev.colRefs(n.args, nil)
			}
			return w, true
		}
	}
	return nil, false
}

// over records a window's partitioning keys against the frame whose method arguments hold
// the .over(window) call.
func (ev *evaluator) over(n *node) *value {
	w := ev.eval(n.args[0].val)
	if w.kind != vWindow || len(w.keys) == 0 {
		return unknown
	}
	f := ev.ctx
	if f == nil {
		f = &frame{}
	}
	keys := append([]plan.ColumnRef(nil), w.keys...)
	for i := range keys {
		if keys[i].Qualifier == "" && keys[i].Column != "" {
			place(&keys[i], f.ref)
		}
	}
	ev.aggregate("window", f, n, keys)
	return unknown
}

func (ev *evaluator) broadcast(n *node) *value {
	v := ev.eval(n)
	f := ev.frameOf(v, n)
	f.ref.Broadcast = true
	return &value{kind: vFrame, frame: f}
}

// returned is the frame bound as the value of calling Python function name (pyReturn);
// there is none to look up until a function has returned one.
func (ev *evaluator) returned(name string) (*value, bool) {
	if !ev.returns {
		return nil, false
	}
	v, ok := ev.env[name+"()"]
	return v, ok
}

// function evaluates a call of a plain name: broadcast(df), Seq(…), col(…), f(…).
func (ev *evaluator) function(n *node) *value {
	if n.x.kind == nIdent {
		if f := ev.funcs[n.x.name]; f != nil {
			ev.callPy(f, n, ev.evalArgs(n.args))
			if v, ok := ev.returned(n.x.name); ok {
				return &value{kind: vFrame, frame: v.frame.clone()}
			}
			return unknown
		}
		if v, ok := ev.returned(n.x.name); ok {
			ev.evalEach(n.args)
			return &value{kind: vFrame, frame: v.frame.clone()}
		}
		switch n.x.name {
		case "broadcast":
			if len(n.args) == 1 {
				return ev.broadcast(n.args[0].val)
			}
		case "Seq", "List", "Array", "list", "tuple":
			v := &value{kind: vList}
			if ev.scala {
				v.rows = literalRows(n.args)
			}
			for _, a := range n.args {
				v.items = append(v.items, ev.eval(a.val))
			}
			return v
		case "col", "column", "$", "'", "lit", "expr":
			return unknown
		}
	}
	ev.eval(n.x)
	ev.evalEach(n.args)
	return unknown
}
