//go:build engine

package exec

import (
	"fmt"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// intWidth ranks the integer types by width; 0 for any other type.
func intWidth(k hash.Kind) int {
	switch k {
	case hash.KindTinyInt:
		return 1
	case hash.KindSmallInt:
		return 2
	case hash.KindInt:
		return 3
	case hash.KindBigInt:
		return 4
	}
	return 0
}

// resolveKeys resolves hash, join or partitioning keys: column references, or a widening
// integer cast of one (cast(k#1 as bigint)), or a widening cast of an integer or decimal to
// a decimal (cast(k#1 as decimal(20,2))), which Spark inserts when join keys differ in type.
// A cast keeps every value but changes the key's type, and so its Murmur3 hash (hashInt
// versus hashLong, a long versus the bytes of a decimal wider than 18 digits): the returned
// types are the keys' types after the casts. A cast to a decimal also changes the unscaled
// values (see castKeys).
func (s schema) resolveKeys(es []plan.Expr) ([]int, []hash.Type, error) {
	idx := make([]int, len(es))
	types := make([]hash.Type, len(es))
	for i, e := range es {
		x := treeOf(e)
		target, err := hash.ParseType(x.Type)
		if x.Op != plan.OpCast || err != nil {
			c, err := s.resolve(e)
			if err != nil {
				return nil, nil, err
			}
			idx[i], types[i] = c, s[c].Type
			continue
		}
		ex, err := argColumn(x.Args[0])
		if err != nil {
			return nil, nil, fmt.Errorf("unsupported key %q: %w", e.Raw, err)
		}
		c, err := s.resolveX(ex)
		if err != nil {
			return nil, nil, err
		}
		from := s[c].Type
		if w := intWidth(from.Kind); !widensToDecimal(from, target) && (w == 0 || intWidth(target.Kind) < w) {
			return nil, nil, fmt.Errorf("unsupported key %q: only widening integer and decimal casts are evaluated", e.Raw)
		}
		idx[i], types[i] = c, target
	}
	return idx, types, nil
}

// decimalsDiffer reports whether a and b are decimals whose unscaled values cannot be
// compared as they are: another scale, or another width in memory.
func decimalsDiffer(a, b hash.Type) bool {
	if a.Kind != hash.KindDecimal || b.Kind != hash.KindDecimal {
		return false
	}
	return a.Scale != b.Scale || (a.Precision > hash.MaxLongDigits) != (b.Precision > hash.MaxLongDigits)
}

// decimalDigits is the decimal type Spark widens an integer type to (DecimalType.forType:
// tinyint decimal(3,0), smallint decimal(5,0), int decimal(10,0), bigint decimal(20,0)), or
// t itself for a decimal.
func decimalDigits(t hash.Type) (hash.Type, bool) {
	switch t.Kind {
	case hash.KindTinyInt:
		return hash.DecimalType(3, 0), true
	case hash.KindSmallInt:
		return hash.DecimalType(5, 0), true
	case hash.KindInt:
		return hash.DecimalType(10, 0), true
	case hash.KindBigInt:
		return hash.DecimalType(20, 0), true
	case hash.KindDecimal:
		return t, true
	}
	return hash.Type{}, false
}

// widensToDecimal reports whether casting from to the decimal to keeps every value: no
// fewer integer digits and no smaller scale.
func widensToDecimal(from, to hash.Type) bool {
	d, ok := decimalDigits(from)
	return ok && to.Kind == hash.KindDecimal && to.Scale >= d.Scale && to.Precision-to.Scale >= d.Precision-d.Scale
}

// keyCasts returns, for each key, the decimal type its values must be converted to, or the
// zero Type when the key's vector serves as it is (no cast, or an integer widening).
func keyCasts(s schema, keys []int, types []hash.Type) []hash.Type {
	var out []hash.Type
	for i, k := range keys {
		from, to := s[k].Type, types[i]
		if to.Kind != hash.KindDecimal || from.Kind == hash.KindDecimal && !decimalsDiffer(from, to) {
			continue
		}
		if out == nil {
			out = make([]hash.Type, len(keys))
		}
		out[i] = to
	}
	return out
}

// castKeys returns the key columns of b, with the columns casts names converted into bufs
// (reused across calls; it grows bufs as needed): the values of a widening cast to a
// decimal, at the decimal's scale and width.
func castKeys(b *store.Batch, keys []int, casts []hash.Type, bufs *[]store.Vec) []*store.Vec {
	out := pick(b, keys)
	if casts == nil {
		return out
	}
	if len(*bufs) < len(keys) {
		*bufs = make([]store.Vec, len(keys))
	}
	for i, to := range casts {
		if to.Kind == hash.KindDecimal {
			castDecimal(&(*bufs)[i], out[i], b.Len, to)
			out[i] = &(*bufs)[i]
		}
	}
	return out
}

// castDecimal sets dst to the first n values of src (an integer or decimal vector) cast to
// the decimal type to, which widens it (see widensToDecimal). dst keeps its memory across
// calls; src's null bitmap is shared, not copied.
func castDecimal(dst, src *store.Vec, n int, to hash.Type) {
	from, _ := decimalDigits(src.Type)
	shift := to.Scale - from.Scale
	kind, _ := store.KindOf(to)
	dst.Type, dst.Kind, dst.Nulls = to, kind, src.Nulls
	if kind == store.KindInt64 { // a narrow decimal from a narrow one or a small integer
		m := int64(1)
		for range shift {
			m *= 10
		}
		dst.Ints = growZero(dst.Ints[:0], n)
		for i, x := range src.Ints[:n] {
			dst.Ints[i] = x * m
		}
		return
	}
	var factors [3]uint64
	nf := 0
	for rest := shift; rest > 0; nf++ {
		k := min(rest, 18)
		factors[nf] = uint64(hash.Pow10Int128(k).Lo)
		rest -= k
	}
	dst.Wide = growZero(dst.Wide[:0], n)
	for i := range n {
		x := src.Decimal128(i)
		for _, f := range factors[:nf] {
			x, _ = x.MulSmall(f)
		}
		dst.Wide[i] = x
	}
}
