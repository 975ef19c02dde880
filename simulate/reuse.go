package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// reuseExchanges is ReuseExchangeAndSubquery (3.2+; ReuseExchange before): an Exchange whose
// subtree is the same as an earlier one's (canonically, expression ids aside) is replaced by
// a ReusedExchange and is not a second shuffle. Without adaptive execution only: under AQE
// the initial plan has no reuse (stages are reused when they are created).
func reuseExchanges(root plan.Node) {
	seen := map[string]plan.Node{}
	var walk func(n plan.Node)
	walk = func(n plan.Node) {
		in := n.Info()
		for i, k := range in.Kids {
			if _, ok := k.(*plan.Exchange); ok {
				c := canonicalPlan(k)
				if first, ok := seen[c]; ok {
					r := &plan.ReusedExchange{OpInfo: info("ReusedExchange"), Reused: first}
					r.Args = "Reuses " + first.Info().Text
					r.Text = "ReusedExchange " + first.Info().Text
					in.Kids[i] = r
					continue
				}
				seen[c] = k
			}
			walk(in.Kids[i])
		}
	}
	walk(root)
}

func canonicalPlan(n plan.Node) string {
	var b strings.Builder
	var rec func(n plan.Node)
	rec = func(n plan.Node) {
		b.WriteString(n.Info().Text)
		b.WriteByte('(')
		for _, k := range n.Children() {
			rec(k)
			b.WriteByte(',')
		}
		b.WriteByte(')')
	}
	rec(n)
	return b.String()
}
