package simulate

import "github.com/bucketlint/bucketlint/plan"

// bucketIDs returns the buckets the literal values fall into for a bucket column of type typ
// (FileSourceStrategy.getExpressionBuckets), and false when a value's bucket is unknown.
func (s *sim) bucketIDs(typ string, values []*plan.X, n int) (map[int]bool, bool) {
	if s.opt.BucketOf == nil {
		return nil, false
	}
	out := map[int]bool{}
	for _, v := range values {
		id, ok := s.opt.BucketOf(typ, v, n)
		if !ok {
			return nil, false
		}
		out[id] = true
	}
	return out, true
}
