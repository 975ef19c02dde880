package hash

import (
	"math/big"
	"testing"
	"time"
)

// icebergVectorFile is testdata/iceberg-vectors.yaml, recorded from the real
// iceberg-spark-runtime jar by `python -m oracle icebergvectors`: each value's hash by
// Iceberg's BucketUtil and its bucket by Iceberg's bucket function, per bucket count.
type icebergVectorFile struct {
	Spark    string `yaml:"spark"`
	Iceberg  string `yaml:"iceberg"`
	TimeZone string `yaml:"session_time_zone"`
	Vectors  []struct {
		Type    string      `yaml:"type"`
		Value   string      `yaml:"value"`
		Hash    int32       `yaml:"hash"`
		Buckets map[int]int `yaml:"buckets"`
	} `yaml:"vectors"`
}

// TestIcebergVectors checks IcebergHash and IcebergBucket against Iceberg itself: int, long,
// string, decimal, date, timestamp, timestamp_ntz and binary values, the spec's own examples
// (34, "iceberg", 14.20, 2017-11-16, 2017-11-16 22:31:08, 00 01 02 03) among them.
func TestIcebergVectors(t *testing.T) {
	t.Parallel()
	var f icebergVectorFile
	readYAML(t, "testdata/iceberg-vectors.yaml", &f)
	if f.Iceberg == "" || len(f.Vectors) < 40 {
		t.Fatalf("iceberg-vectors.yaml: Iceberg %q, %d vectors", f.Iceberg, len(f.Vectors))
	}
	loc, err := time.LoadLocation(f.TimeZone)
	if err != nil {
		t.Fatal(err)
	}
	for _, vec := range f.Vectors {
		typ, err := ParseType(vec.Type)
		if err != nil {
			t.Fatalf("%s: %v", vec.Type, err)
		}
		v, err := ParseValueIn(typ, vec.Value, loc)
		if err != nil {
			t.Fatalf("%s %q: %v", vec.Type, vec.Value, err)
		}
		h, err := IcebergHash(v)
		if err != nil || h != vec.Hash {
			t.Errorf("IcebergHash(%s %q) = %d, %v; Iceberg %s: %d", vec.Type, vec.Value, h, err, f.Iceberg, vec.Hash)
			continue
		}
		for n, want := range vec.Buckets {
			if got := IcebergBucket(h, n); got != want {
				t.Errorf("IcebergBucket(%s %q, %d) = %d, Iceberg: %d", vec.Type, vec.Value, n, got, want)
			}
		}
	}
}

// TestIcebergHashRefuses checks the values Iceberg cannot bucket.
func TestIcebergHashRefuses(t *testing.T) {
	t.Parallel()
	for _, v := range []Value{Null(Type{Kind: KindInt}), Boolean(true), Double(1.5), Float(1)} {
		if _, err := IcebergHash(v); err == nil {
			t.Errorf("IcebergHash(%v) did not fail", v)
		}
	}
}

// TestJavaBigIntegerBytes checks Java's BigInteger.toByteArray on the edges.
func TestJavaBigIntegerBytes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   int64
		want string
	}{{0, "00"}, {1, "01"}, {-1, "ff"}, {127, "7f"}, {128, "0080"}, {-128, "80"}, {-129, "ff7f"}, {1420, "058c"}, {-1420, "fa74"}} {
		got := ""
		for _, b := range javaBigIntegerBytes(big.NewInt(tc.in)) {
			got += string("0123456789abcdef"[b>>4]) + string("0123456789abcdef"[b&15])
		}
		if got != tc.want {
			t.Errorf("javaBigIntegerBytes(%d) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
