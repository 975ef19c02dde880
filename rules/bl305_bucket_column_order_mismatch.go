package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/simulate"
)

func bl305() *Rule {
	return &Rule{
		ID:    "BL305",
		Name:  "bucket-column-order-mismatch",
		Title: "both sides bucketed on the join columns, in a different order",
		Doc: "The bucket id is `pmod(murmur3(c1, c2, …), n)`: the column order is part of the hash.\n" +
			"`CLUSTERED BY (a, b)` and `CLUSTERED BY (b, a)` put the same row in different buckets, so\n" +
			"when the join pairs `t1.a = t2.a AND t1.b = t2.b` Spark cannot line the buckets up and\n" +
			"shuffles one side, although each side alone is bucketed on exactly the join keys. (The order\n" +
			"of the ON conditions does not matter: Spark reorders join keys to the bucket order.)\n\n" +
			"Declare the bucket columns in the same order in every table joined on them." + suppressDoc("BL305"),
		Bad: "CREATE TABLE t1 (a INT, b INT) USING parquet CLUSTERED BY (a, b) INTO 8 BUCKETS;\n" +
			"CREATE TABLE t2 (a INT, b INT) USING parquet CLUSTERED BY (b, a) INTO 8 BUCKETS;\n" +
			"SELECT * FROM t1 JOIN t2 ON t1.a = t2.a AND t1.b = t2.b;",
		Good: "CREATE TABLE t1 (a INT, b INT) USING parquet CLUSTERED BY (a, b) INTO 8 BUCKETS;\n" +
			"CREATE TABLE t2 (a INT, b INT) USING parquet CLUSTERED BY (a, b) INTO 8 BUCKETS;\n" +
			"SELECT * FROM t1 JOIN t2 ON t1.a = t2.a AND t1.b = t2.b;",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL305,
	}
}

func runBL305(p *Pass) error {
	for _, s := range p.joinSites() {
		if !s.Causes.Has(simulate.CauseKeyOrder) {
			continue
		}
		l, r := &s.Left, &s.Right
		target := r
		if s.Known && l.Shuffled && !r.Shuffled {
			target = l
		}
		other := l
		if target == l {
			other = r
		}
		// The order target should have: other's bucket columns mapped through the key pairs.
		var want []string
		for _, i := range other.BucketKeyOrder() {
			want = append(want, target.Keys[i].Column)
		}
		d := Diagnostic{
			Span: s.Span,
			Message: fmt.Sprintf("%s is bucketed on (%s) and %s on (%s): for the join on %s the bucket columns pair up in a different order, so the join %s (%s)",
				l.Table.Name, strings.Join(l.Table.Buckets().Columns, ", "), r.Table.Name, strings.Join(r.Table.Buckets().Columns, ", "),
				s.KeyText(), shuffledText(s, target), p.spark()),
			Related: append(bucketRelated(l.Table), bucketRelated(r.Table)...),
			Fix: &Fix{Description: p.withLayout(fmt.Sprintf("Rebucket %s CLUSTERED BY (%s), the order of %s", target.Table.Name, strings.Join(want, ", "), other.Table.Name),
				s, target.Table, want, other.Table.Buckets().NumBuckets)},
		}
		if span, code, ok := p.bucketColumnsSpan(target.Table.Buckets()); ok {
			text := strings.Join(want, ", ")
			if code {
				text = columnArgs("python", want, false)
			}
			d.Fix.Edits = []Edit{{Span: span, Text: text}}
		}
		p.Report(d)
	}
	return nil
}
