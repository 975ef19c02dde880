package sql

import "testing"

// TestSlab: nodes handed out are distinct, zeroed, and stay where they are until reset; a
// reset zeroes and reuses them; the first chunk is small (a one-statement parse does not pay
// for slabChunk nodes of each type) and chunks grow to slabChunk.
func TestSlab(t *testing.T) {
	for _, n := range []int{1, slabFirst, slabFirst + 1, 300, 5000, slabChunk*slabKeep + 700} {
		var s slab[[4]int]
		for round := range 3 {
			got := make([]*[4]int, n)
			seen := map[*[4]int]bool{}
			for i := range got {
				got[i] = s.get()
				if *got[i] != ([4]int{}) {
					t.Fatalf("n=%d round %d: node %d not zeroed: %v", n, round, i, *got[i])
				}
				if seen[got[i]] {
					t.Fatalf("n=%d round %d: node %d handed out twice", n, round, i)
				}
				seen[got[i]] = true
				got[i][0], got[i][3] = i+1, round+1
			}
			for i, p := range got {
				if p[0] != i+1 || p[3] != round+1 {
					t.Fatalf("n=%d round %d: node %d overwritten: %v", n, round, i, *p)
				}
			}
			if len(s.chunks[0]) != slabFirst {
				t.Errorf("n=%d: first chunk of %d nodes, want %d", n, len(s.chunks[0]), slabFirst)
			}
			for _, c := range s.chunks {
				if len(c) > slabChunk {
					t.Errorf("n=%d: a chunk of %d nodes, more than %d", n, len(c), slabChunk)
				}
			}
			s.reset()
			if len(s.chunks) > slabKeep {
				t.Errorf("n=%d: %d chunks kept, want at most %d", n, len(s.chunks), slabKeep)
			}
		}
	}
}
