//go:build engine

package exec

import (
	"slices"
	"testing"
)

// TestSortedInts checks the wrapper around store.SortInt64Pairs (tested there): the row
// order comes back, ties in input order, and the key column is left as it was.
func TestSortedInts(t *testing.T) {
	keys := []int64{5, -3, 5, 0, -3, 9}
	orig := slices.Clone(keys)
	got := sortedInts(keys, make([]int32, len(keys)))
	if want := []int32{1, 4, 3, 0, 2, 5}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	if !slices.Equal(keys, orig) {
		t.Fatalf("the key column changed: %v", keys)
	}
}
