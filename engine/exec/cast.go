package exec

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/engine/hash"
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
// integer cast of one (cast(k#1 as bigint)), which Spark inserts when join keys differ in
// type. A cast keeps every value but changes the key's type, and so its Murmur3 hash
// (hashInt versus hashLong): the returned types are the keys' types after the casts.
func (s schema) resolveKeys(es []plan.Expr) ([]int, []hash.Type, error) {
	idx := make([]int, len(es))
	types := make([]hash.Type, len(es))
	for i, e := range es {
		inner, target, isCast := castOf(e.Raw)
		if !isCast {
			c, err := s.resolve(e)
			if err != nil {
				return nil, nil, err
			}
			idx[i], types[i] = c, s[c].Type
			continue
		}
		ex, err := argExpr(inner)
		if err != nil {
			return nil, nil, fmt.Errorf("unsupported key %q: %w", e.Raw, err)
		}
		c, err := s.resolve(ex)
		if err != nil {
			return nil, nil, err
		}
		from := s[c].Type.Kind
		if w := intWidth(from); w == 0 || intWidth(target.Kind) < w {
			return nil, nil, fmt.Errorf("unsupported key %q: only widening integer casts are evaluated", e.Raw)
		}
		idx[i], types[i] = c, target
	}
	return idx, types, nil
}

// castOf splits "cast(x as t)" into x and t.
func castOf(raw string) (inner string, target hash.Type, ok bool) {
	low := strings.ToLower(strings.TrimSpace(raw))
	if !strings.HasPrefix(low, "cast(") || !strings.HasSuffix(low, ")") {
		return "", hash.Type{}, false
	}
	body := strings.TrimSpace(raw)[5 : len(strings.TrimSpace(raw))-1]
	i := strings.LastIndex(strings.ToLower(body), " as ")
	if i < 0 {
		return "", hash.Type{}, false
	}
	t, err := hash.ParseType(strings.TrimSpace(body[i+4:]))
	if err != nil {
		return "", hash.Type{}, false
	}
	return strings.TrimSpace(body[:i]), t, true
}

// decimalsDiffer reports whether a and b are decimals whose unscaled values cannot be
// compared as they are: another scale, or another width in memory.
func decimalsDiffer(a, b hash.Type) bool {
	if a.Kind != hash.KindDecimal || b.Kind != hash.KindDecimal {
		return false
	}
	return a.Scale != b.Scale || (a.Precision > hash.MaxLongDigits) != (b.Precision > hash.MaxLongDigits)
}
