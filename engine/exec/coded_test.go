package exec

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
)

// codedVec returns a vector of n rows drawn from dict (NULL where the draw is len(dict)),
// with the dictionary codes a Parquet reader gives it; dict may repeat a value under two
// codes, which the reader allows.
func codedVec(tb testing.TB, r *rand.Rand, ty string, dict []string, n int) *store.Vec {
	tb.Helper()
	v := store.NewVec(typ(tb, ty), n)
	for range n {
		c := r.IntN(len(dict) + 1)
		if c == len(dict) {
			v.AppendNull()
		} else if err := store.AppendParsed(v, dict[c]); err != nil {
			tb.Fatal(err)
		}
		v.Codes = append(v.Codes, int32(c))
	}
	v.DictLen = len(dict)
	return v
}

// TestGroupCodedAgrees: grouping a coded key column (bigint and string, with NULLs and a
// value repeated under two codes) numbers the groups exactly as grouping the same values
// without codes, batch after batch.
func TestGroupCodedAgrees(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 7))
	for _, ty := range []string{"bigint", "string"} {
		var dict []string
		for i := range 40 {
			dict = append(dict, fmt.Sprint(i*7919%1000))
		}
		dict = append(dict, dict[3]) // the same value under two codes
		col := schema{{Name: "k", Type: typ(t, ty)}}
		coded, plain := newGroupTable(col), newGroupTable(col)
		for b := range 5 {
			v := codedVec(t, r, ty, dict, 300+b*50)
			if !v.HasCodes() {
				t.Fatal("no codes")
			}
			w := store.NewVec(v.Type, v.Len())
			w.AppendRows(v, nil)
			n := v.Len()
			g1, g2 := make([]int32, n), make([]int32, n)
			coded.assign([]*store.Vec{v}, n, g1)
			plain.assign([]*store.Vec{w}, n, g2)
			for i := range n {
				if g1[i] != g2[i] {
					t.Fatalf("%s batch %d row %d: group %d, want %d", ty, b, i, g1[i], g2[i])
				}
			}
		}
		if coded.groups() != plain.groups() {
			t.Fatalf("%s: %d groups, want %d", ty, coded.groups(), plain.groups())
		}
	}
}
