package simulate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// Simulate predicts the physical plan Spark builds for q over tables (keyed by lower-case
// name, as plan.Project.Tables is) under the version and configuration of opt: the join
// strategies (JoinSelection), bucketed scans and bucket pruning (FileSourceStrategy,
// FileSourceScanExec), CoalesceBucketsInJoin, EnsureRequirements of the version's era, and
// DisableUnnecessaryBucketedScan. Anything it cannot model is listed in Result.Unmodelled.
//
// q is read as name resolution leaves it (workload.Resolve): each join's key pairs oriented
// to its sides, views replaced by their queries. A key pair that does not resolve on its
// sides is left out, not turned round.
func Simulate(tables map[string]*plan.Table, q *plan.Query, opt Options) (*Result, error) {
	if q == nil || q.Root == nil {
		return nil, errors.New("simulate: empty query")
	}
	s := newSim(tables, opt)
	for _, c := range q.CTEs {
		s.ctes[strings.ToLower(c.Name)] = c.Root
		if len(c.Columns) > 0 {
			s.cteColumns[strings.ToLower(c.Name)] = c.Columns
		}
	}
	s.refs = collectRefs(q)
	root, err := s.relation(q.Root, nil)
	if err != nil {
		return nil, err
	}
	root = s.finish(root, q)
	return s.run(root), nil
}

func newSim(tables map[string]*plan.Table, opt Options) *sim {
	b := opt.Behaviour()
	return &sim{opt: opt, b: b, tables: tables, res: &Result{Version: b.Version, Era: b.CoPartition}, ctes: map[string]*plan.Relation{}, cteColumns: map[string][]string{}, expanding: map[string]bool{}}
}

// run applies the preparation rules to a planned tree and emits the result.
func (s *sim) run(root *node) *Result {
	s.res.Adaptive = s.opt.Adaptive() && needsAdaptive(root, s)
	if s.res.Adaptive && !s.b.CoalesceBucketsUnderAQE {
		// CoalesceBucketsInJoin is a non-adaptive preparation rule before 3.5.0; only from
		// 3.5.0 is it also the first query-stage preparation rule (SPARK-43087).
		s.coalesceUnderAQE = true
		s.coalesceSkipped = s.opt.CoalesceBuckets()
	}
	s.coalesce(root)
	root = s.ensure(root)
	s.sealed = nil // DisableUnnecessaryBucketedScan changes scans' partitioning
	s.disableUnnecessaryBucketedScans(root)
	out := s.emit(root)
	if !s.res.Adaptive {
		reuseExchanges(out)
	}
	if s.res.Adaptive {
		a := &plan.AdaptiveSparkPlan{OpInfo: info("AdaptiveSparkPlan")}
		a.Args = "isFinalPlan=false"
		a.Text = "AdaptiveSparkPlan isFinalPlan=false"
		a.Kids = []plan.Node{out}
		out = a
	}
	s.res.Plan = out
	plan.Walk(out, func(n plan.Node) bool {
		switch n.(type) {
		case *plan.Exchange:
			s.res.Exchanges++
		case *plan.Sort:
			s.res.Sorts++
		}
		return true
	})
	return s.res
}

// sim is one simulation's state.
type sim struct {
	opt Options
	// b is the behaviour of opt's Spark version, chosen once.
	b      Behaviour
	tables map[string]*plan.Table
	ctes   map[string]*plan.Relation
	// cteColumns are the column lists of the CTEs that have one.
	cteColumns map[string][]string
	// expanding are the CTEs being inlined, to stop self-reference.
	expanding map[string]bool
	refs      refSet
	ids       ids
	res       *Result
	// filters are the WHERE key filters of the SELECT block being planned.
	filters []plan.KeyFilter
	// where are the WHERE conjuncts of the SELECT block being planned that Spark pushes to
	// one relation's scan, by relation name.
	where map[string][]*plan.X
	// nullRejected are the columns of the relation being planned that Spark filters with
	// isnotnull (join keys), which changes the nullability of a union's children's outputs.
	nullRejected map[string]bool
	// depth is the nesting of SELECT blocks being planned; 1 is the outermost.
	depth int
	// coalesceSkipped is set when bucket coalescing is on but adaptive execution skips it;
	// coalesceUnderAQE when adaptive execution would skip it (before 3.5).
	coalesceSkipped, coalesceUnderAQE bool
	// coalesceBlocked are the joins bucket coalescing would reconcile but does not, with why.
	coalesceBlocked map[plan.Node]Cause
	// scope says which relations each side of a join brings into scope.
	scope scopeIndex
	// sealed holds the nodes EnsureRequirements has finished, with their output partitioning
	// once asked (nil before): a finished subtree does not change until
	// DisableUnnecessaryBucketedScan, and a chain of joins asks for each partitioning at
	// every join above it (issue 14).
	sealed map[*node]*part
	// specs keeps the shuffle specs of PartitioningCollections (co-partitioning, 3.3+).
	specs specMemo
	// joinOut is the output of the join planned last, with its spare capacity (joinOutput).
	joinOut []attr
}

func (s *sim) note(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, u := range s.res.Unmodelled {
		if u == msg {
			return
		}
	}
	s.res.Unmodelled = append(s.res.Unmodelled, msg)
}

func (s *sim) decide(n *node, side, inserted string, cause Cause, reason string) {
	s.res.Decisions = append(s.res.Decisions, Decision{Node: n.op, Side: side, Inserted: inserted, Reason: reason, Cause: cause})
}

// needsAdaptive is InsertAdaptiveSparkPlan.shouldApplyAQE: the plan has an exchange or an
// operator that requires a distribution of a child.
func needsAdaptive(n *node, s *sim) bool {
	if _, ok := n.op.(*plan.Exchange); ok {
		return true
	}
	for _, d := range s.required(n) {
		if d.kind != plan.UnspecifiedDistribution {
			return true
		}
	}
	for _, k := range n.kids {
		if needsAdaptive(k, s) {
			return true
		}
	}
	return false
}

// finish adds the root-only operators: LIMIT at the root is CollectLimit.
func (s *sim) finish(root *node, _ *plan.Query) *node { return root }
