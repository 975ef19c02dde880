package hash

import (
	"encoding/binary"
	"math/big"
	"math/bits"
)

// hiveLong is HiveHasher.hashLong: the two halves of v xor-folded, (int)(v ^ (v >>> 32)).
func hiveLong(v int64) int32 {
	u := uint64(v)
	return int32(uint32(u ^ u>>32))
}

// hiveTimestamp is HiveHashFunction.hashTimestamp (after Hive's TimestampWritable.hashCode):
// seconds << 30 | nanoseconds, xor-folded. Go's / and % truncate toward zero as Java's do,
// so negative timestamps match too.
func hiveTimestamp(micros int64) int32 {
	secs := micros / 1_000_000
	nanos := (micros % 1_000_000) * 1000
	return hiveLong(secs<<30 | nanos)
}

// hiveString is HiveHasher.hashUnsafeBytes: r = 31*r + b over the bytes, each sign-extended.
// Four bytes are folded per step (31^4 = 923521, ...), which shortens the chain of
// dependent multiplications without changing the result modulo 2^32.
func hiveString(s string) int32 {
	var h int32
	i := 0
	for ; i+4 <= len(s); i += 4 {
		h = h*923521 + int32(int8(s[i]))*29791 + int32(int8(s[i+1]))*961 +
			int32(int8(s[i+2]))*31 + int32(int8(s[i+3]))
	}
	for ; i < len(s); i++ {
		h = 31*h + int32(int8(s[i]))
	}
	return h
}

// hiveBytes is hiveString over a []byte.
func hiveBytes(b []byte) int32 {
	var h int32
	i := 0
	for ; i+4 <= len(b); i += 4 {
		c := b[i : i+4 : i+4]
		h = h*923521 + int32(int8(c[0]))*29791 + int32(int8(c[1]))*961 +
			int32(int8(c[2]))*31 + int32(int8(c[3]))
	}
	for ; i < len(b); i++ {
		h = 31*h + int32(int8(b[i]))
	}
	return h
}

// hiveDecimal64 is the HiveHash of a decimal with an int64 unscaled value: Spark's
// HiveHashFunction.normalizeDecimal (Hive's HiveDecimalV1.normalize: trailing zeros of the
// fraction stripped, no negative scale) followed by java.math.BigDecimal.hashCode, which is
// 31*BigInteger.hashCode(unscaled) + scale. BigInteger.hashCode folds the 32-bit words of
// |unscaled| big-endian as h = 31*h + word and multiplies by the sign. The precision cap
// of normalizeDecimal (38 digits) never rounds a value Spark's DecimalType can hold.
func hiveDecimal64(unscaled int64, scale int) int32 {
	if unscaled == 0 {
		return 0 // BigDecimal.ZERO
	}
	for scale > 0 && unscaled%10 == 0 {
		unscaled /= 10
		scale--
	}
	mag := uint64(unscaled)
	if unscaled < 0 {
		mag = -mag
	}
	h := int32(31*uint32(mag>>32) + uint32(mag))
	if unscaled < 0 {
		h = -h
	}
	return 31*h + int32(scale)
}

// hiveDecimal is hiveDecimal64 for an unscaled value of any size.
func hiveDecimal(unscaled *big.Int, scale int) int32 {
	if unscaled.IsInt64() {
		return hiveDecimal64(unscaled.Int64(), scale)
	}
	u := new(big.Int).Set(unscaled)
	ten, q, r := big.NewInt(10), new(big.Int), new(big.Int)
	for scale > 0 {
		q.QuoRem(u, ten, r)
		if r.Sign() != 0 {
			break
		}
		u.Set(q)
		scale--
	}
	mag := new(big.Int).Abs(u).Bytes()
	if pad := len(mag) % 4; pad != 0 {
		mag = append(make([]byte, 4-pad), mag...)
	}
	var w uint32
	for i := 0; i < len(mag); i += 4 {
		w = 31*w + binary.BigEndian.Uint32(mag[i:i+4])
	}
	h := int32(w)
	if u.Sign() < 0 {
		h = -h
	}
	return 31*h + int32(scale)
}

// hiveDecimalBytes is hiveDecimal for an unscaled value held as big-endian two's
// complement in at most 16 bytes, without allocating: the magnitude is kept as two
// 64-bit halves and trailing zeros are divided out with bits.Div64.
func hiveDecimalBytes(b []byte, scale int) int32 {
	var hi, lo uint64
	neg := len(b) > 0 && b[0]&0x80 != 0
	if neg {
		hi, lo = ^uint64(0), ^uint64(0)
	}
	for _, c := range b {
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(c)
	}
	if neg { // magnitude = two's complement negation
		lo = ^lo + 1
		hi = ^hi
		if lo == 0 {
			hi++
		}
	}
	if hi == 0 && lo == 0 {
		return 0
	}
	for scale > 0 {
		qhi, rhi := hi/10, hi%10
		qlo, r := bits.Div64(rhi, lo, 10)
		if r != 0 {
			break
		}
		hi, lo = qhi, qlo
		scale--
	}
	w := 31*(31*(31*uint32(hi>>32)+uint32(hi))+uint32(lo>>32)) + uint32(lo)
	h := int32(w)
	if neg {
		h = -h
	}
	return 31*h + int32(scale)
}
