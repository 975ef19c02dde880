package rules

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// keyMatch says how a side's bucket columns relate to its join (or grouping) keys; the
// simulator's explainer defines the matches.
type keyMatch = simulate.KeyMatch

// The key matches.
const (
	notBucketed   = simulate.NotBucketed   // no usable bucket spec
	exactKeys     = simulate.ExactKeys     // bucket columns = key columns, as sets
	subsetKeys    = simulate.SubsetKeys    // bucket columns ⊂ key columns
	supersetKeys  = simulate.SupersetKeys  // bucket columns ⊃ key columns
	differentKeys = simulate.DifferentKeys // neither
)

// matchKeys compares bucket columns with the key columns (simulate.MatchKeys).
func matchKeys(bucket []string, keys []plan.ColumnRef) keyMatch {
	return simulate.MatchKeys(bucket, keys)
}

// explained is the side as the simulator's explainer sees it.
func (s *joinSide) explained() *simulate.JoinSide {
	return &simulate.JoinSide{Label: sideName(s), Table: s.Table, Keys: s.Keys, Scan: s.Scan}
}

// explained is the join as the simulator's explainer sees it, with bucketing enabled or not
// where it runs.
func (s *joinSite) explained(bucketing bool) *simulate.Join {
	return &simulate.Join{Left: *s.Left.explained(), Right: *s.Right.explained(), BucketingEnabled: bucketing}
}

// sideMatch is matchKeys for a join side: notBucketed unless Spark can read the side's table
// as bucketed.
func sideMatch(s *joinSide) keyMatch { return s.explained().Match() }

// bucketKeyOrder returns, for each bucket column of a side, the index of the join key pair
// it is clustered on; nil when a bucket column is not a key.
func bucketKeyOrder(s *joinSide) []int { return s.explained().BucketKeyOrder() }

func keyIndex(keys []plan.ColumnRef, col string) int { return simulate.KeyIndex(keys, col) }

// orderMismatch reports whether both sides are bucketed on the join keys with columns that
// pair up in a different order: (a, b) on one side and (b, a) on the other for a = a, b = b.
func orderMismatch(s *joinSite) bool { return s.explained(true).OrderMismatch() }

// typeMismatch returns the first key pair whose columns have different known types, or
// whose key casts its column to another type, -1 when none.
func typeMismatch(s *joinSite) int { return s.explained(true).TypeMismatch() }

// castsColumn reports whether a key casts its column to a type other than the column's.
func castsColumn(s *joinSide, k plan.ColumnRef) bool { return s.explained().CastsColumn(k) }

// rawType returns a key's column type, else the type it is compared at.
func rawType(s *joinSide, k plan.ColumnRef) string { return s.explained().RawType(k) }

// keyColumns lists a side's key columns as written: "(customer_id, dt)".
func keyColumns(keys []plan.ColumnRef) string { return simulate.KeyColumns(keys) }

// sideName names a side for messages: its table, or "the other input".
func sideName(s *joinSide) string {
	switch {
	case s.Table != nil && s.Via != "":
		return s.Table.Name + " via " + s.Via
	case s.Table != nil:
		return s.Table.Name
	case s.Name != "":
		return s.Name
	}
	return "the other input"
}

// shuffledText says which sides a join shuffles: "shuffles b", "shuffles a and b".
func shuffledText(s *joinSite, guess *joinSide) string {
	var names []string
	for _, side := range s.sides() {
		if side.Shuffled {
			names = append(names, sideName(side))
		}
	}
	if !s.Known && guess != nil {
		names = []string{sideName(guess)}
	}
	if len(names) == 0 {
		return "needs no shuffle"
	}
	return "shuffles " + strings.Join(names, " and ")
}

// layoutCause explains in one clause why a join over these sides shuffles, from the tables'
// bucket specs (simulate.Join.Explain): the cause BL310 prints and the other BL3xx rules each
// report in detail. focus is the side whose shuffle is explained: its own mismatch is named
// first.
func layoutCause(s *joinSite, focus *joinSide, opts simulate.Options) simulate.Why {
	i := 0
	if focus == &s.Right {
		i = 1
	}
	return s.explained(opts.BucketingEnabled()).Explain(i)
}

// keyName names a key's column with its table ("orders.customer_id"), else the key as
// written.
func keyName(s *joinSide, k plan.ColumnRef) string { return s.explained().KeyName(k) }
