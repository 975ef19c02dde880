package simulate

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// partitionHints applies the partitioning hints of a SELECT block (ResolveHints, 3.0–4.x):
// REPARTITION(n) is a round-robin shuffle, REPARTITION([n,] cols) a hash shuffle,
// REPARTITION_BY_RANGE([n,] cols) a range shuffle (n defaults to the shuffle width),
// COALESCE(n) no shuffle, and REBALANCE a shuffle only under adaptive execution (3.2+).
func (s *sim) partitionHints(n *node, hints []plan.Hint) *node {
	for _, h := range hints {
		switch h.Name {
		case "REPARTITION", "REPARTITION_BY_RANGE", "REBALANCE", "COALESCE":
		default:
			continue // join strategy hints
		}
		num, keys := s.hintArgs(h, n.out)
		width := num
		if width == 0 {
			width = s.opt.NewShufflePartitions()
		}
		var p plan.Partitioning
		origin := "REPARTITION_BY_COL"
		switch h.Name {
		case "REPARTITION":
			switch {
			case len(keys) == 0:
				p, origin = plan.Partitioning{Kind: plan.RoundRobinPartitioning, NumPartitions: width}, "REPARTITION_BY_NUM"
			case num > 0:
				p, origin = plan.Partitioning{Kind: plan.HashPartitioning, Keys: keys, NumPartitions: width}, "REPARTITION_BY_NUM"
			default:
				p = plan.Partitioning{Kind: plan.HashPartitioning, Keys: keys, NumPartitions: width}
			}
		case "REPARTITION_BY_RANGE":
			p = plan.Partitioning{Kind: plan.RangePartitioning, Orders: ascending(keys), NumPartitions: width}
			if num > 0 {
				origin = "REPARTITION_BY_NUM"
			}
		case "REBALANCE":
			if !s.res.Adaptive && !s.opt.Adaptive() || !s.b.RebalanceHint {
				// RebalancePartitions is removed when adaptive execution is off.
				continue
			}
			width = s.opt.NewShufflePartitions()
			if len(keys) == 0 {
				p, origin = plan.Partitioning{Kind: plan.RoundRobinPartitioning, NumPartitions: width}, "REBALANCE_PARTITIONS_BY_NONE"
			} else {
				p, origin = plan.Partitioning{Kind: plan.HashPartitioning, Keys: keys, NumPartitions: width}, "REBALANCE_PARTITIONS_BY_COL"
			}
		case "COALESCE":
			g := &plan.Generic{OpInfo: info("Coalesce")}
			g.Args = strconv.Itoa(num)
			n = newNode(g, n.out, n.size, n)
			continue
		default:
			continue
		}
		if !s.b.RepartitionOrigins && strings.HasPrefix(origin, "REPARTITION") {
			origin = "REPARTITION"
		}
		x := &plan.Exchange{OpInfo: info("Exchange"), Partitioning: p, Origin: origin}
		n = newNode(x, n.out, n.size, n)
	}
	return n
}

// hintArgs reads a partitioning hint's arguments: the partition count (a leading integer
// literal, 0 when none) and the columns among out.
func (s *sim) hintArgs(h plan.Hint, out []attr) (num int, keys []plan.Expr) {
	for i, x := range h.ArgsX {
		if x.Op == plan.OpLiteral && i == 0 {
			if v, err := strconv.Atoi(x.Value); err == nil {
				num = v
				continue
			}
		}
		if r, ok := columnOf(x); ok {
			if a, ok := resolve(out, r); ok {
				keys = append(keys, a.expr)
				continue
			}
		}
		text := x.Raw
		if i < len(h.Args) {
			text = h.Args[i]
		}
		s.note("%s hint column %q could not be resolved; left out", h.Name, text)
	}
	return num, keys
}

// exprKey builds a join key that is an expression over one side's columns ("a.a + 1"): a new
// expression no partitioning matches.
func (s *sim) exprKey(out []attr, x *plan.X) (attr, bool) {
	if !resolvesAll(out, x) {
		return attr{}, false
	}
	a := s.ids.newAttr(strings.ToLower(x.Raw), "", "")
	a.expr = a.expr.WithRefs(nil)
	return a, true
}
