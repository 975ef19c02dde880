//go:build engine

package store

import (
	"bytes"
	"cmp"
	"math"
)

// Compare orders row i of a against row j of b (same kind) ascending with NULLs first, as
// Spark's default sort order does; NaN sorts above every other double, as in Spark.
func Compare(a *Vec, i int, b *Vec, j int) int {
	an, bn := a.IsNull(i), b.IsNull(j)
	switch {
	case an && bn:
		return 0
	case an:
		return -1
	case bn:
		return 1
	}
	switch a.Kind {
	case KindInt64:
		return cmp.Compare(a.Ints[i], b.Ints[j])
	case KindFloat64:
		x, y := a.Floats[i], b.Floats[j]
		xn, yn := math.IsNaN(x), math.IsNaN(y)
		if xn || yn {
			return cmp.Compare(b2i(xn), b2i(yn))
		}
		return cmp.Compare(x, y)
	case KindBytes:
		return bytes.Compare(a.Bytes(i), b.Bytes(j))
	case KindInt128:
		return a.Wide[i].Cmp(b.Wide[j])
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
