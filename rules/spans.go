package rules

import (
	"strconv"

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

// bucketCountEdits sets table t's bucket count to n at every place that declares it: the
// spec the table has (its DDL, catalog entry or first write) and every CREATE or saveAsTable
// write of the same name with the same count in any script (plan.Project.TableEvents). Spark
// rejects an append whose bucketBy count differs from the table's ("Specified bucketing does
// not match that of the existing table"), so a fix that changed the DDL and left a job's
// bucketBy(64, …) would break that job; when one of the places has no count written as an
// integer literal (a variable, a template), no edit is offered at all and the fix stays a
// description.
func (p *Pass) bucketCountEdits(t *plan.Table, n int) []Edit {
	spec := t.Buckets()
	span, ok := p.bucketCountSpan(spec)
	if !ok {
		return nil
	}
	text := strconv.Itoa(n)
	edits := []Edit{{Span: span, Text: text}}
	seen := map[plan.Pos]bool{span.Start: true}
	if p.Project == nil {
		return edits
	}
	for i := range p.Project.TableEvents {
		e := &p.Project.TableEvents[i]
		if (e.Kind != plan.CreateTable && e.Kind != plan.WriteTable) || e.Table == nil {
			continue
		}
		other := e.Table.Buckets()
		if other == nil {
			continue
		}
		if lt := lookup(p.Project.Tables, e.Name); lt == nil || lt.Name != t.Name {
			continue
		}
		if other.NumBuckets == 0 {
			return nil // a count not known statically (a variable, a template): not kept in step
		}
		if other.NumBuckets != spec.NumBuckets {
			continue // another definition of the name, which Spark already rejects
		}
		s, ok := p.bucketCountSpan(other)
		if !ok {
			return nil
		}
		if !seen[s.Start] {
			seen[s.Start] = true
			edits = append(edits, Edit{Span: s, Text: text})
		}
	}
	return edits
}
