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

// Negated is -x as Spark prints it: a number literal with its sign flipped ("-2", "2"), any
// other expression under a unary minus printed "-(x)".
func Negated(x *X) *X {
	if x.Op == OpLiteral {
		if _, err := strconv.ParseFloat(x.Value, 64); err == nil {
			v := "-" + x.Value
			if x.Value != "" && x.Value[0] == '-' {
				v = x.Value[1:]
			}
			return &X{Op: OpLiteral, Type: x.Type, Value: v, Raw: v}
		}
	}
	return &X{Op: OpUnary, Name: "-", Args: []*X{x}, Raw: "-(" + x.Raw + ")"}
}
