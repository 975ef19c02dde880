package simulate

import (
	"fmt"
	"testing"

	"github.com/bucketlint/bucketlint/internal/gen"
)

// TestJoinChain plans long chains of joins (issue 14: they took minutes): over tables
// bucketed alike on the join key no join shuffles; over unbucketed tables each table is
// shuffled once. The join descriptions name a few tables and count the rest.
func TestJoinChain(t *testing.T) {
	opt := Options{SparkVersion: Version{Major: 3, Minor: 5, Patch: -1}}
	for _, shape := range []gen.ChainShape{gen.ChainNext, gen.ChainFirst} {
		for _, bucketed := range []bool{true, false} {
			t.Run(fmt.Sprintf("shape%d/bucketed=%v", shape, bucketed), func(t *testing.T) {
				const n = 300
				tables, q := gen.JoinChain(t, n, bucketed, shape)
				res, err := Simulate(tables, q, opt)
				if err != nil {
					t.Fatal(err)
				}
				want := 0
				if !bucketed {
					want = n + 1
				}
				if res.Exchanges != want {
					t.Errorf("%d Exchanges, want %d", res.Exchanges, want)
				}
				for _, d := range res.Decisions {
					if len(d.Reason) > 1000 {
						t.Fatalf("a reason of %d bytes: %.200s…", len(d.Reason), d.Reason)
					}
				}
			})
		}
	}
}
