package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

func bl304() *Rule {
	return &Rule{
		ID:    "BL304",
		Name:  "join-key-type-mismatch",
		Title: "a cast on a bucket key (int vs bigint…) that re-introduces the shuffle",
		Doc: "Spark hashes a bucket key by its type: `hash(7 :: int)` and `hash(7 :: bigint)` differ. When\n" +
			"the join compares an `int` column with a `bigint` one, the analyzer wraps the narrower side in\n" +
			"`cast(k as bigint)`; that expression is not the bucket column, so the side is shuffled (before\n" +
			"3.3, with `spark.sql.shuffle.partitions` above the bucket count, the other side too).\n" +
			"Proposals to see through such casts (SPARK-34966, SPARK-40609, SPARK-46219) are not in any\n" +
			"released version.\n\n" +
			"Store the key with the same type in both tables (and rebucket the one you change), or cast at\n" +
			"write time. An explicit `CAST` in the join condition has the same effect and is reported too." + suppressDoc("BL304"),
		Bad: "CREATE TABLE orders (customer_id INT) USING parquet CLUSTERED BY (customer_id) INTO 16 BUCKETS;\n" +
			"CREATE TABLE customers (customer_id BIGINT) USING parquet CLUSTERED BY (customer_id) INTO 16 BUCKETS;\n" +
			"SELECT * FROM orders o JOIN customers c ON o.customer_id = c.customer_id;",
		Good: "CREATE TABLE orders (customer_id BIGINT) USING parquet CLUSTERED BY (customer_id) INTO 16 BUCKETS;\n" +
			"CREATE TABLE customers (customer_id BIGINT) USING parquet CLUSTERED BY (customer_id) INTO 16 BUCKETS;\n" +
			"SELECT * FROM orders o JOIN customers c ON o.customer_id = c.customer_id;",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL304,
	}
}

func runBL304(p *Pass) error {
	for _, s := range p.joinSites() {
		if !s.Causes.Has(simulate.CauseKeyCast) {
			continue
		}
		i := s.Join().TypeMismatch()
		l, r := &s.Left, &s.Right
		lt, rt := l.RawType(l.Keys[i]), r.RawType(r.Keys[i])
		// cast is the side whose key is converted: the one with a printed or written cast,
		// else a string compared with another type (Spark casts the string to the other
		// side's type), else the narrower type.
		cast, wide := l, r
		switch {
		case r.CastsColumn(r.Keys[i]) && !l.CastsColumn(l.Keys[i]):
			cast, wide = r, l
		case l.CastsColumn(l.Keys[i]):
		case isStringType(rt) && !isStringType(lt):
			cast, wide = r, l
		case isStringType(lt) && !isStringType(rt):
		case l.Keys[i].Cast == "" && r.Keys[i].Cast == "" && typeRank(rt) < typeRank(lt):
			cast, wide = r, l
		}
		ck := cast.Keys[i]
		to := wide.RawType(wide.Keys[i])
		if ck.Cast != "" {
			to = ck.Cast
		}
		msg := fmt.Sprintf("join key %s is %s but %s is %s: Spark compares them as %s, so the rows of %s are hashed by a cast, not by its bucket column, and the join %s (%s)",
			l.KeyName(l.Keys[i]), lt, r.KeyName(r.Keys[i]), rt, to, cast.Label, shuffledText(s, cast), p.spark())
		at := s.Span
		if ck.Pos.IsValid() && s.Kind != workload.ExplainSite {
			at = keysSpan([]plan.ColumnRef{ck})
		}
		fix := fmt.Sprintf("Store %s as %s, like %s, and rebucket %s", cast.KeyName(ck), to, wide.KeyName(wide.Keys[i]), cast.Label)
		if ck.Cast != "" && s.Kind != workload.ExplainSite {
			fix = fmt.Sprintf("Remove the CAST of %s from the join condition, or store it as %s", ck.Column, ck.Cast)
		}
		var related []Related
		for _, side := range s.Sides() {
			if side.Exchange != nil {
				related = append(related, Related{Span: side.Exchange.Span(), Message: exchangeText(side.Exchange) + " shuffles " + side.Label + " here"})
			}
		}
		p.Report(Diagnostic{
			Span:    at,
			Message: msg,
			Related: append(related, append(bucketRelated(tableOr(l)), bucketRelated(tableOr(r))...)...),
			Fix:     &Fix{Description: fix},
		})
	}
	return nil
}

// isStringType reports a string type: string, varchar(n), char(n).
func isStringType(t string) bool {
	t = strings.ToLower(t)
	return t == "string" || strings.HasPrefix(t, "varchar") || strings.HasPrefix(t, "char")
}

// typeRank orders numeric types by width; other types rank highest (Spark casts numbers to
// them, or both to a common type).
func typeRank(t string) int {
	switch {
	case t == "tinyint":
		return 1
	case t == "smallint":
		return 2
	case t == "int":
		return 3
	case t == "bigint":
		return 4
	case strings.HasPrefix(t, "decimal"):
		return 5
	case t == "float":
		return 6
	case t == "double":
		return 7
	}
	return 8
}

// tableOr returns a side's table for bucketRelated, an empty unpositioned one when unknown.
func tableOr(s *workload.Side) *plan.Table {
	if s.Table == nil {
		return &plan.Table{}
	}
	return s.Table
}
