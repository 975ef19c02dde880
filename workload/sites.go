package workload

import (
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A SiteKind says where a join site was found.
type SiteKind uint8

// The kinds of join sites.
const (
	// QuerySite is a join of a SQL query, simulated.
	QuerySite SiteKind = iota + 1
	// CodeSite is a DataFrame join in PySpark or Scala code, simulated as the equivalent
	// SQL join when both sides are known.
	CodeSite
	// ExplainSite is a join of a printed physical plan.
	ExplainSite
)

// String names the kind: "query", "code", "explain".
func (k SiteKind) String() string {
	switch k {
	case QuerySite:
		return "query"
	case CodeSite:
		return "code"
	case ExplainSite:
		return "explain"
	}
	return "unknown"
}

// A CauseSet is a set of causes.
type CauseSet uint64

// Has reports whether the set holds c.
func (s CauseSet) Has(c simulate.Cause) bool { return s&(1<<c) != 0 }

// HasAny reports whether the set holds any of cs.
func (s CauseSet) HasAny(cs ...simulate.Cause) bool {
	for _, c := range cs {
		if s.Has(c) {
			return true
		}
	}
	return false
}

// With returns the set with c added.
func (s CauseSet) With(c simulate.Cause) CauseSet { return s | 1<<c }

// A Side is one input of a join site as far as the inputs show it: the table whose layout
// it reads or keeps, the keys on it, whether it is shuffled and why.
type Side struct {
	// JoinSide is the side as the simulator's explainer sees it: Label, Table (nil when
	// unknown: a subquery, another join, a path, a table without DDL), Keys oriented to this
	// side, and the printed Scan of an explain side.
	simulate.JoinSide
	// Name is the table read, as referenced.
	Name string
	// Span is the relation as written, or the scan line of an explain.
	Span plan.Span
	// Via names what the side is when it is not a plain table read — "CTE t", "a subquery",
	// "a join", the frame variable of a derived DataFrame — and Table then is the table whose
	// bucket layout the side's output keeps.
	Via string
	// Shuffled reports a shuffle Exchange on this side (simulated or printed); Exchange is
	// the printed one; Decision is the simulated decision's cause.
	Shuffled bool
	Exchange *plan.Exchange
	Decision simulate.Cause
	// Cause is the primary cause of the side's shuffle (the explainer's); Causes every cause
	// of the side's shuffle a rule reports (see Site.Causes).
	Cause  simulate.Cause
	Causes CauseSet
}

// A Site is one equi-join of a query, a code file or an explain output, with the causes of
// its sides' shuffles.
type Site struct {
	Span plan.Span
	Kind SiteKind
	// Type is the join type: "Inner", "LeftOuter", …
	Type        string
	Left, Right Side
	// Broadcast is set when a broadcast hint or a broadcast strategy (simulated or printed)
	// makes the join shuffle-free whatever the layout.
	Broadcast bool
	// Known is set when Shuffled was simulated or printed, not guessed.
	Known bool
	// Node is the printed join operator, or the simulated one without its inputs (the
	// simulated plan is not kept: Workload.Simulate gives it).
	Node plan.Node
	// Query is the query the join is part of, or the one built for a join in code.
	Query *plan.Query
	// Sim is the simulation of a join in code (Query), nil otherwise.
	Sim *simulate.Result
	// Options are the Spark version and settings in force at the join.
	Options simulate.Options
	// Causes are the causes of the join's shuffles that concern both sides: counts, key
	// order, key types, coalescing. A side's own causes are in its Causes.
	Causes CauseSet
}

// Sides returns both sides, left first.
func (s *Site) Sides() [2]*Side { return [2]*Side{&s.Left, &s.Right} }

// Other returns the side that is not side.
func (s *Site) Other(side *Side) *Side {
	if side == &s.Left {
		return &s.Right
	}
	return &s.Left
}

// Join is the site as the simulator's explainer sees it.
func (s *Site) Join() *simulate.Join {
	return &simulate.Join{Left: s.Left.JoinSide, Right: s.Right.JoinSide, BucketingEnabled: s.Options.BucketingEnabled()}
}

// Explain says why the join shuffles side (the explainer's cause and clause).
func (s *Site) Explain(side *Side) simulate.Why {
	i := 0
	if side == &s.Right {
		i = 1
	}
	return s.Join().Explain(i)
}

// AnyShuffle reports whether the join shuffles a side, or may (not simulated nor printed).
func (s *Site) AnyShuffle() bool { return !s.Known || s.Left.Shuffled || s.Right.Shuffled }

// Shuffles reports whether the join shuffles side, or may.
func (s *Site) Shuffles(side *Side) bool { return !s.Known || side.Shuffled }
