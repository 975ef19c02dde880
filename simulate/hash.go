package simulate

import (
	"math/bits"
	"strconv"
	"strings"
)

// Spark's Murmur3_x86_32 (org.apache.spark.unsafe.hash), seed 42, as HashPartitioning and
// bucketing use it: bucket id = pmod(hash, numBuckets). Only what bucket pruning needs.

const (
	murmurC1   = 0xcc9e2d51
	murmurC2   = 0x1b873593
	murmurSeed = 42
)

func mixK1(k1 uint32) uint32 {
	k1 *= murmurC1
	k1 = bits.RotateLeft32(k1, 15)
	return k1 * murmurC2
}

func mixH1(h1, k1 uint32) uint32 {
	h1 ^= k1
	h1 = bits.RotateLeft32(h1, 13)
	return h1*5 + 0xe6546b64
}

func fmix(h1, length uint32) uint32 {
	h1 ^= length
	h1 ^= h1 >> 16
	h1 *= 0x85ebca6b
	h1 ^= h1 >> 13
	h1 *= 0xc2b2ae35
	h1 ^= h1 >> 16
	return h1
}

func hashInt(v int32, seed uint32) int32 {
	return int32(fmix(mixH1(seed, mixK1(uint32(v))), 4))
}

func hashLong(v int64, seed uint32) int32 {
	h1 := mixH1(seed, mixK1(uint32(v)))
	h1 = mixH1(h1, mixK1(uint32(uint64(v)>>32)))
	return int32(fmix(h1, 8))
}

// hashBytes is Murmur3_x86_32.hashUnsafeBytes: whole ints little-endian, then each tail byte
// (sign-extended) mixed on its own.
func hashBytes(b []byte, seed uint32) int32 {
	h1 := seed
	aligned := len(b) - len(b)%4
	for i := 0; i < aligned; i += 4 {
		k := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
		h1 = mixH1(h1, mixK1(k))
	}
	for i := aligned; i < len(b); i++ {
		h1 = mixH1(h1, mixK1(uint32(int32(int8(b[i])))))
	}
	return int32(fmix(h1, uint32(len(b))))
}

func pmod(h int32, n int) int {
	m := int(h) % n
	if m < 0 {
		m += n
	}
	return m
}

// bucketIDs returns the buckets the literal values fall into for a bucket column of type
// typ, and false when the type is not modelled. NULL hashes to the seed (bucket pmod(42, n)).
func bucketIDs(typ string, values []string, n int) (map[int]bool, bool) {
	out := map[int]bool{}
	for _, raw := range values {
		v := strings.TrimSpace(raw)
		if strings.EqualFold(v, "null") {
			out[pmod(murmurSeed, n)] = true
			continue
		}
		unq := strings.Trim(v, "'\"")
		var h int32
		switch typ {
		case "int", "integer", "smallint", "tinyint", "short", "byte":
			x, err := strconv.ParseInt(unq, 10, 32)
			if err != nil {
				return nil, false
			}
			h = hashInt(int32(x), murmurSeed)
		case "bigint", "long":
			x, err := strconv.ParseInt(strings.TrimSuffix(unq, "L"), 10, 64)
			if err != nil {
				return nil, false
			}
			h = hashLong(x, murmurSeed)
		case "string", "varchar", "char":
			if unq == v && !strings.HasPrefix(v, "'") {
				return nil, false
			}
			h = hashBytes([]byte(unq), murmurSeed)
		default:
			return nil, false
		}
		out[pmod(h, n)] = true
	}
	return out, true
}
