package hash

import (
	"encoding/binary"
	"math/bits"
)

// Seed is the seed of Spark's Murmur3Hash expression (new Murmur3Hash(children) in
// hash.scala): the running hash of a row starts at Seed before its first column.
const Seed int32 = 42

// Murmur3_x86_32 constants, as in Spark's org.apache.spark.unsafe.hash.Murmur3_x86_32.
const (
	c1 uint32 = 0xcc9e2d51
	c2 uint32 = 0x1b873593
)

func mixK1(k uint32) uint32 {
	k *= c1
	k = bits.RotateLeft32(k, 15)
	return k * c2
}

func mixH1(h, k uint32) uint32 {
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

func fmix(h, length uint32) uint32 {
	h ^= length
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// Murmur3Int is Spark's Murmur3_x86_32.hashInt: one mixing round over the 32-bit value,
// finalised with length 4.
func Murmur3Int(v, seed int32) int32 {
	h := mixH1(uint32(seed), mixK1(uint32(v)))
	return int32(fmix(h, 4))
}

// Murmur3Long is Spark's Murmur3_x86_32.hashLong: a round over the low 32 bits, then one over
// the high 32 bits, finalised with length 8.
func Murmur3Long(v int64, seed int32) int32 {
	u := uint64(v)
	h := mixH1(uint32(seed), mixK1(uint32(u)))
	h = mixH1(h, mixK1(uint32(u>>32)))
	return int32(fmix(h, 8))
}

// Murmur3Bytes is Spark's Murmur3_x86_32.hashUnsafeBytes, the byte hash Spark SQL uses for
// strings, binary and decimals wider than 18 digits. The leading len-len%4 bytes are read as
// little-endian words (on every host, as Spark does since it byte-swaps on big-endian
// machines); each remaining byte is then sign-extended and mixed in a round of its own,
// which is where Spark departs from standard MurmurHash3 (kept for compatibility, see
// SPARK-23381). The hash is finalised with the total length.
func Murmur3Bytes(b []byte, seed int32) int32 {
	h := uint32(seed)
	n := len(b) &^ 3
	for i := 0; i < n; i += 4 {
		h = mixH1(h, mixK1(binary.LittleEndian.Uint32(b[i:i+4])))
	}
	for _, c := range b[n:] {
		h = mixH1(h, mixK1(uint32(int32(int8(c)))))
	}
	return int32(fmix(h, uint32(len(b))))
}

// hashString is Murmur3Bytes over a string's bytes without converting it to a []byte.
func hashString(s string, seed int32) int32 {
	h := uint32(seed)
	n := len(s) &^ 3
	for i := 0; i < n; i += 4 {
		w := uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
		h = mixH1(h, mixK1(w))
	}
	for i := n; i < len(s); i++ {
		h = mixH1(h, mixK1(uint32(int32(int8(s[i])))))
	}
	return int32(fmix(h, uint32(len(s))))
}

// Bucket returns Spark's bucket id pmod(hash, n) for a Murmur3 row hash: the id in a
// bucketed file name (_00005) and the shuffle partition of HashPartitioning with n
// partitions. Unlike Go's %, the result is never negative. n must be at least 1; Bucket
// returns -1, which is never a bucket id, otherwise.
func Bucket(hash int32, n int) int {
	if n < 1 {
		return -1
	}
	r := int(hash) % n
	if r < 0 {
		r += n
	}
	return r
}

// HiveBucket returns the bucket id of a Hive-format bucketed table for a HiveHash row hash:
// pmod(hash & Integer.MAX_VALUE, n), as Spark writes such tables (V1WritesUtils) and as
// Hive's ObjectInspectorUtils.getBucketNumber computes it. n must be at least 1; HiveBucket
// returns -1 otherwise.
func HiveBucket(hash int32, n int) int {
	if n < 1 {
		return -1
	}
	return int(hash&0x7fffffff) % n
}
