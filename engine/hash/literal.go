package hash

import "github.com/bucketlint/bucketlint/plan"

// BucketOfLiteral returns the bucket that a row whose single bucket column, of Spark SQL type
// typ, equals the literal lit falls into among n buckets: what Spark's bucket pruning
// (FileSourceStrategy.getExpressionBuckets) computes for `col = lit` and each `col IN (…)`
// value. lit is the literal's tree as the parsers build it (plan.OpLiteral, its Value as
// read: 42, -7, SAV-100042, 2024-01-31 for DATE '2024-01-31'; a NULL has Type "null"); a
// negated number literal is read too. It returns false for anything else (a column, an
// expression) and when the type or value cannot be read, so that callers assume every bucket
// is selected rather than guess.
func BucketOfLiteral(typ string, lit *plan.X, n int) (int, bool) {
	if n < 1 || lit == nil {
		return 0, false
	}
	if lit.Op == plan.OpUnary && lit.Name == "-" && len(lit.Args) == 1 {
		lit = plan.Negated(lit.Args[0])
	}
	if lit.Op != plan.OpLiteral {
		return 0, false
	}
	t, err := ParseType(typ)
	if err != nil {
		return 0, false
	}
	v := Null(t)
	if lit.Type != "null" {
		if v, err = ParseValue(t, lit.Value); err != nil {
			return 0, false
		}
	}
	return Bucket(Murmur3([]Value{v}), n), true
}
