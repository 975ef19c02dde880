package hash

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
)

// Iceberg's bucket transform (the table spec's "Bucket Transform Details"): a 32-bit
// Murmur3 hash, x86 variant with seed 0 and the standard tail (unlike Spark's
// Murmur3Bytes), over the value's Iceberg encoding, and bucket (hash & MaxInt32) % n.
// Checked against testdata/iceberg-vectors.yaml, recorded from Iceberg 1.12.0's own
// BucketUtil and bucket function by `python -m oracle icebergvectors`.

// IcebergHash is the hash Iceberg's bucket transform computes for v: tinyint, smallint, int
// and bigint as the 8 little-endian bytes of the long value, a date as its days and a
// timestamp (either kind) as its microseconds the same way, a string by its UTF-8 bytes, a
// binary value by its bytes, a decimal by the minimal big-endian two's complement bytes of
// its unscaled value. It fails for NULL (whose bucket is NULL) and for the types Iceberg
// cannot bucket (boolean, float, double, arrays).
func IcebergHash(v Value) (int32, error) {
	if v.null {
		return 0, fmt.Errorf("NULL has no Iceberg bucket (the transform of NULL is NULL)")
	}
	switch v.typ.Kind {
	case KindTinyInt, KindSmallInt, KindInt, KindBigInt, KindDate, KindTimestamp, KindTimestampNTZ:
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(v.n))
		return murmur3Standard(b[:]), nil
	case KindString, KindBinary:
		return murmur3Standard([]byte(v.s)), nil
	case KindDecimal:
		u := v.big
		if u == nil {
			u = big.NewInt(v.n)
		}
		return murmur3Standard(javaBigIntegerBytes(u)), nil
	}
	return 0, fmt.Errorf("a %s value has no Iceberg bucket: Iceberg buckets integers, dates, timestamps, decimals, strings and binary values", v.typ)
}

// IcebergBucket is the bucket, among n, of an Iceberg hash: (h & Integer.MAX_VALUE) % n.
func IcebergBucket(h int32, n int) int {
	if n <= 0 {
		return 0
	}
	return int(h&math.MaxInt32) % n
}

// murmur3Standard is MurmurHash3_x86_32 with seed 0 as Guava's murmur3_32_fixed computes it:
// little-endian words, then the 1-3 remaining bytes as one little-endian word.
func murmur3Standard(b []byte) int32 {
	var h uint32
	n := len(b) &^ 3
	for i := 0; i < n; i += 4 {
		h = mixH1(h, mixK1(binary.LittleEndian.Uint32(b[i:i+4])))
	}
	var k uint32
	switch len(b) & 3 {
	case 3:
		k ^= uint32(b[n+2]) << 16
		fallthrough
	case 2:
		k ^= uint32(b[n+1]) << 8
		fallthrough
	case 1:
		k ^= uint32(b[n])
		h ^= mixK1(k)
	}
	return int32(fmix(h, uint32(len(b))))
}

// javaBigIntegerBytes is Java's BigInteger.toByteArray: the minimal big-endian two's complement
// bytes of x, at least one.
func javaBigIntegerBytes(x *big.Int) []byte {
	if x.Sign() >= 0 {
		b := x.Bytes()
		if len(b) == 0 || b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
		return b
	}
	// -x - 1 in magnitude, inverted: the two's complement of x.
	m := new(big.Int).Neg(x)
	m.Sub(m, big.NewInt(1))
	b := m.Bytes()
	if len(b) == 0 || b[0]&0x80 != 0 {
		b = append([]byte{0}, b...)
	}
	for i := range b {
		b[i] = ^b[i]
	}
	return b
}
