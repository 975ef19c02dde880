package rules

import (
	"github.com/bucketlint/bucketlint/plan"
)

// bucketCountSpan is the bucket count as written: the n of "INTO n BUCKETS" (DDL) or the
// first argument of "bucketBy(n, …)" (code), as the parser recorded it. ok is false when the
// count is not an integer literal.
func (p *Pass) bucketCountSpan(spec *plan.BucketSpec) (plan.Span, bool) {
	if spec == nil || !spec.CountSpan.Start.IsValid() {
		return plan.Span{}, false
	}
	return spec.CountSpan, true
}

// bucketColumnsSpan is the bucket column list as written: between the parentheses of
// "CLUSTERED BY (…)" (DDL), or the arguments after the count of "bucketBy(n, …)" (code, and
// then code is set), as the parser recorded it. ok is false when it is not known.
func (p *Pass) bucketColumnsSpan(spec *plan.BucketSpec) (s plan.Span, code, ok bool) {
	if spec == nil || !spec.ColumnsSpan.Start.IsValid() {
		return plan.Span{}, false, false
	}
	switch p.languageAt(spec.Span.Start) {
	case "python", "scala":
		code = true
	}
	return spec.ColumnsSpan, code, true
}
