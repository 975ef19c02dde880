package hash

import (
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

func TestBucketOfLiteral(t *testing.T) {
	t.Parallel()
	lit := func(typ, v string) *plan.X { return &plan.X{Op: plan.OpLiteral, Type: typ, Value: v} }
	// Expected buckets are Spark 3.5.9's pmod(hash(v), n), from testdata/spark-3.5-vectors.yaml.
	tests := []struct {
		name string
		typ  string
		lit  *plan.X
		n    int
		want int
		ok   bool
	}{
		{"42", "int", lit("int", "42"), 16, 13, true},
		{"NULL", "int", lit("null", ""), 16, 10, true},
		{"'abc'", "string", lit("string", "abc"), 200, 156, true},
		{"'é'", "string", lit("string", "é"), 8, 6, true},
		{"DATE '2024-02-29'", "date", lit("date", "2024-02-29"), 200, 59, true},
		{"12.50", "decimal(10,2)", lit("decimal(4,2)", "12.50"), 200, 60, true},
		{"TIMESTAMP '…'", "timestamp", lit("timestamp", "2024-01-31 12:34:56.789012"), 200, 136, true},
		{"123L", "bigint", lit("bigint", "123"), 8, Bucket(Murmur3Long(123, Seed), 8), true},
		{"-(7)", "int", &plan.X{Op: plan.OpUnary, Name: "-", Args: []*plan.X{lit("int", "7")}}, 8, Bucket(Murmur3Int(-7, Seed), 8), true},
		{"a column is not a value", "string", &plan.X{Op: plan.OpColumn, Name: "abc"}, 8, 0, false},
		{"an expression is not a value", "int", &plan.X{Op: plan.OpBinary, Name: "+", Args: []*plan.X{lit("int", "1"), lit("int", "2")}}, 8, 0, false},
		{"'x' is not an int", "int", lit("string", "x"), 8, 0, false},
		{"not a bucketable type", "struct<a:int>", lit("int", "1"), 8, 0, false},
		{"no buckets", "int", lit("int", "1"), 0, 0, false},
		{"no literal", "int", nil, 8, 0, false},
	}
	for _, tt := range tests {
		got, ok := BucketOfLiteral(tt.typ, tt.lit, tt.n)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("%s: BucketOfLiteral(%q, …, %d) = %d, %t; want %d, %t", tt.name, tt.typ, tt.n, got, ok, tt.want, tt.ok)
		}
	}
}
