package sql

// walkFuncs calls fn for every function call in e, outside subqueries, outer calls first.
func walkFuncs(e *expr, fn func(*funcCall)) {
	if e == nil {
		return
	}
	for _, a := range e.Or {
		for _, n := range a.And {
			walkCmp(n, fn)
		}
	}
}

func walkCmp(c *cmpExpr, fn func(*funcCall)) {
	walkArith(c.Left, fn)
	r := c.RHS
	if r == nil {
		return
	}
	walkArith(r.Right, fn)
	if r.Is != nil {
		walkArith(r.Is.Other, fn)
	}
	if r.In != nil {
		for _, it := range r.In.Items {
			walkFuncs(it, fn)
		}
	}
	if r.Between != nil {
		walkArith(r.Between.Low, fn)
		walkArith(r.Between.High, fn)
	}
	if r.Like != nil {
		walkArith(r.Like.Pattern, fn)
	}
}

func walkArith(a *arith, fn func(*funcCall)) {
	if a == nil {
		return
	}
	walkUnary(a.Left, fn)
	for _, o := range a.Rest {
		walkUnary(o.Right, fn)
	}
}

func walkUnary(u *unary, fn func(*funcCall)) {
	p := u.Primary
	for _, x := range u.Postfix {
		walkFuncs(x.Index, fn)
	}
	switch {
	case p.Func != nil:
		fn(p.Func)
		for _, x := range p.Func.List.Args {
			walkFuncs(x, fn)
		}
		if p.Func.Filter != nil {
			walkFuncs(p.Func.Filter.Cond, fn)
		}
	case p.Cast != nil:
		walkFuncs(p.Cast.X, fn)
	case p.Case != nil:
		walkFuncs(p.Case.Subject, fn)
		for _, w := range p.Case.Whens {
			walkFuncs(w.When, fn)
			walkFuncs(w.Then, fn)
		}
		walkFuncs(p.Case.Else, fn)
	case p.Tuple != nil:
		for _, x := range p.Tuple {
			walkFuncs(x, fn)
		}
	}
}
