package plan

import "strconv"

// BucketTransform reads the tree of a bucket(n, cols…) partition transform as the bucket
// spec Spark's session catalog makes of it for a file-source table: n an integer literal,
// every other argument a column. It is false for any other transform.
func BucketTransform(x *X) (*BucketSpec, bool) {
	if x == nil || x.Op != OpCall || x.Name != "bucket" || len(x.Args) < 2 || x.Args[0].Op != OpLiteral {
		return nil, false
	}
	n, err := strconv.Atoi(x.Args[0].Value)
	if err != nil || n < 0 {
		return nil, false
	}
	spec := &BucketSpec{NumBuckets: n}
	for _, a := range x.Args[1:] {
		if a.Op != OpColumn {
			return nil, false
		}
		name := a.Name
		if a.Qualifier != "" {
			name = a.Qualifier + "." + a.Name
		}
		spec.Columns = append(spec.Columns, name)
	}
	return spec, true
}
