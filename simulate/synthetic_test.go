package simulate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// runSynthetic builds EnsureRequirementsSuite-style plans: DummySparkPlan children with given
// partitionings under a sort-merge join (or a single-child operator with a given required
// distribution), then runs the preparation rules.
//
//	left: HP(A,B;5)          hash partitioning; also SX(HP(A;7)) for a shuffle exchange,
//	right: Range(C;10)       Single, Unknown(8), PC(HP(A;10)|HP(B;10))
//	keys: A,B=C,D            join keys
//	size.left: 1000          estimated size in bytes
//	child: HP(A;5)           single child ...
//	require: clustered(A;13) ... with this required distribution (or alltuples)
func runSynthetic(t *testing.T, src string, o Options) *Result {
	t.Helper()
	exprs := map[string]plan.Expr{}
	e := func(name string) plan.Expr {
		name = strings.TrimSpace(name)
		if x, ok := exprs[name]; ok {
			return x
		}
		x := plan.NewExpr(name+"#"+strconv.Itoa(len(exprs)+1), name, nil, nil)
		exprs[name] = x
		return x
	}
	list := func(s string) []plan.Expr {
		var out []plan.Expr
		for _, f := range strings.Split(s, ",") {
			if strings.TrimSpace(f) != "" {
				out = append(out, e(f))
			}
		}
		return out
	}
	fields := map[string]string{}
	for _, ln := range strings.Split(src, "\n") {
		k, v, ok := strings.Cut(ln, ":")
		if ok {
			fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	var side func(spec string) *node
	side = func(spec string) *node {
		if strings.HasPrefix(spec, "SX(") {
			inner := side(strings.TrimSuffix(strings.TrimPrefix(spec, "SX("), ")"))
			p := *inner.fixed
			x := &plan.Exchange{OpInfo: info("Exchange"), Partitioning: toPlanPartitioning(p), Origin: "ENSURE_REQUIREMENTS"}
			dummy := &node{op: &plan.Generic{OpInfo: info("DummySparkPlan")}, fixed: &part{kind: plan.UnknownPartitioning}}
			return &node{op: x, kids: []*node{dummy}, size: -1}
		}
		p := parsePart(t, spec, list)
		// No logical link: the SinglePartition size check of SPARK-41986 passes.
		return &node{op: &plan.Generic{OpInfo: info("DummySparkPlan")}, fixed: &p}
	}
	s := newSim(nil, o)
	var root *node
	if c, ok := fields["child"]; ok {
		child := side(c)
		req := fields["require"]
		d := dist{kind: plan.AllTuples, n: 1}
		if strings.HasPrefix(req, "clustered(") {
			body := strings.TrimSuffix(strings.TrimPrefix(req, "clustered("), ")")
			keys, num, _ := strings.Cut(body, ";")
			d = dist{kind: plan.ClusteredDistribution, keys: list(keys)}
			if num != "" {
				d.n, _ = strconv.Atoi(num)
			}
		}
		root = &node{op: &plan.Generic{OpInfo: info("DummyOperator")}, kids: []*node{child}, fixedReq: []dist{d}}
	} else {
		l, r := side(fields["left"]), side(fields["right"])
		for name, n := range map[string]*node{"left": l, "right": r} {
			if v, ok := fields["size."+name]; ok {
				n.size, _ = ParseBytes(v)
			}
		}
		lk, rk, _ := strings.Cut(fields["keys"], "=")
		j := &plan.SortMergeJoin{OpInfo: info("SortMergeJoin"), Join: plan.Join{Strategy: plan.SortMergeJoinStrategy, Type: "Inner", LeftKeys: list(lk), RightKeys: list(rk)}}
		root = &node{op: j, kids: []*node{l, r}}
	}
	return s.run(root)
}

func parsePart(t *testing.T, spec string, list func(string) []plan.Expr) part {
	t.Helper()
	name, body, _ := strings.Cut(spec, "(")
	body = strings.TrimSuffix(body, ")")
	keys, num, _ := strings.Cut(body, ";")
	n, _ := strconv.Atoi(num)
	switch name {
	case "HP":
		return hashPart(list(keys), n)
	case "Range":
		return part{kind: plan.RangePartitioning, keys: list(keys), n: n}
	case "Single":
		return part{kind: plan.SinglePartition, n: 1}
	case "Unknown":
		n, _ = strconv.Atoi(body)
		return unknownPart(n)
	case "PC":
		p := part{kind: collection}
		for _, m := range strings.Split(body, "|") {
			p.members = append(p.members, parsePart(t, m, list))
		}
		return p
	}
	t.Fatalf("unknown partitioning %q", spec)
	return part{}
}
