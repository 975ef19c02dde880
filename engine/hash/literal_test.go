package hash

import "testing"

func TestBucketOfLiteral(t *testing.T) {
	t.Parallel()
	// Expected buckets are Spark 3.5.9's pmod(hash(v), n), from testdata/spark-3.5-vectors.yaml.
	tests := []struct {
		typ, lit string
		n        int
		want     int
		ok       bool
	}{
		{"int", "42", 16, 13, true},
		{"int", "NULL", 16, 10, true},
		{"string", "'abc'", 200, 156, true},
		{"string", "'é'", 8, 6, true},
		{"date", "DATE '2024-02-29'", 200, 59, true},
		{"decimal(10,2)", "12.50", 200, 60, true},
		{"decimal(10,2)", "12.50BD", 200, 60, true},
		{"timestamp", "TIMESTAMP '2024-01-31 12:34:56.789012'", 200, 136, true},
		{"bigint", "123L", 8, Bucket(Murmur3Long(123, Seed), 8), true},
		{"string", "abc", 8, 0, false},      // a bare word is a column, not a value
		{"string", "'abc", 8, 0, false},     // unterminated
		{"int", "'x'", 8, 0, false},         // not an int
		{"struct<a:int>", "1", 8, 0, false}, // not a bucketable type
		{"int", "1", 0, 0, false},
	}
	for _, tt := range tests {
		got, ok := BucketOfLiteral(tt.typ, tt.lit, tt.n)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("BucketOfLiteral(%q, %q, %d) = %d, %t; want %d, %t", tt.typ, tt.lit, tt.n, got, ok, tt.want, tt.ok)
		}
	}
}
