package rules

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// keyMatch says how a table's bucket columns relate to its join (or grouping) keys; the
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

// keyColumns lists a side's key columns as written: "(customer_id, dt)".
func keyColumns(keys []plan.ColumnRef) string { return simulate.KeyColumns(keys) }

// shuffledText says which sides a join shuffles: "shuffles b", "shuffles a and b".
func shuffledText(s *workload.Site, guess *workload.Side) string {
	var names []string
	for _, side := range s.Sides() {
		if side.Shuffled {
			names = append(names, side.Label)
		}
	}
	if !s.Known && guess != nil {
		names = []string{guess.Label}
	}
	if len(names) == 0 {
		return "needs no shuffle"
	}
	return "shuffles " + strings.Join(names, " and ")
}
