package hash

import (
	"encoding/binary"
	"math/big"
	"math/bits"
)

// An Int128 is a signed 128-bit two's complement integer: the unscaled value of a decimal
// wider than 18 digits (Spark's DecimalType holds at most 38 digits, below 2^127). It is a
// plain value, so vectors of them stay pointer-free.
type Int128 struct {
	Hi int64  // the high 64 bits, with the sign
	Lo uint64 // the low 64 bits
}

// Int128Of returns x as an Int128.
func Int128Of(x int64) Int128 { return Int128{Hi: x >> 63, Lo: uint64(x)} }

// Int128FromBig returns v as an Int128 and whether it fits in 128 bits.
func Int128FromBig(v *big.Int) (Int128, bool) {
	if v.BitLen() > 127 {
		return Int128{}, false
	}
	var b [16]byte
	m := new(big.Int).Abs(v)
	m.FillBytes(b[:])
	x := Int128{Hi: int64(binary.BigEndian.Uint64(b[:8])), Lo: binary.BigEndian.Uint64(b[8:])}
	if v.Sign() < 0 {
		x = x.Neg()
	}
	return x, true
}

// Big returns x as a big.Int.
func (x Int128) Big() *big.Int {
	var b [16]byte
	x.PutBytes(b[:])
	v := new(big.Int).SetBytes(b[:])
	if x.Hi < 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	return v
}

// IsInt64 reports whether x fits in an int64.
func (x Int128) IsInt64() bool { return x.Hi == int64(x.Lo)>>63 }

// Sign returns -1, 0 or 1.
func (x Int128) Sign() int {
	switch {
	case x.Hi < 0:
		return -1
	case x.Hi == 0 && x.Lo == 0:
		return 0
	}
	return 1
}

// Neg returns -x (wrapping for the smallest value).
func (x Int128) Neg() Int128 {
	lo, borrow := bits.Sub64(0, x.Lo, 0)
	hi, _ := bits.Sub64(0, uint64(x.Hi), borrow)
	return Int128{Hi: int64(hi), Lo: lo}
}

// Add returns x+y and whether the sum overflowed 128 bits.
func (x Int128) Add(y Int128) (Int128, bool) {
	lo, carry := bits.Add64(x.Lo, y.Lo, 0)
	hi, _ := bits.Add64(uint64(x.Hi), uint64(y.Hi), carry)
	s := Int128{Hi: int64(hi), Lo: lo}
	// Overflow when both operands have the same sign and the sum's sign differs.
	return s, (x.Hi < 0) == (y.Hi < 0) && (s.Hi < 0) != (x.Hi < 0)
}

// Shl returns x shifted left by n bits, 0 <= n < 128.
func (x Int128) Shl(n int) Int128 {
	switch {
	case n == 0:
		return x
	case n >= 64:
		return Int128{Hi: int64(x.Lo << (n - 64))}
	}
	return Int128{Hi: x.Hi<<n | int64(x.Lo>>(64-n)), Lo: x.Lo << n}
}

// Cmp returns -1, 0 or 1 as x is below, equal to or above y.
func (x Int128) Cmp(y Int128) int {
	switch {
	case x.Hi < y.Hi:
		return -1
	case x.Hi > y.Hi:
		return 1
	case x.Lo < y.Lo:
		return -1
	case x.Lo > y.Lo:
		return 1
	}
	return 0
}

// MulSmall returns x*m for 0 <= m <= 10^18 and whether the product overflowed 128 bits.
func (x Int128) MulSmall(m uint64) (Int128, bool) {
	neg := x.Hi < 0
	if neg {
		x = x.Neg()
	}
	hi1, lo := bits.Mul64(x.Lo, m)
	hi2, hiLo := bits.Mul64(uint64(x.Hi), m)
	hi, carry := bits.Add64(hiLo, hi1, 0)
	over := hi2 != 0 || carry != 0 || hi>>63 != 0
	p := Int128{Hi: int64(hi), Lo: lo}
	if neg {
		p = p.Neg()
	}
	return p, over
}

// Pow10Int128 returns 10^n for 0 <= n <= 38.
func Pow10Int128(n int) Int128 {
	x := Int128Of(1)
	for ; n >= 18; n -= 18 {
		x, _ = x.MulSmall(1e18)
	}
	m := uint64(1)
	for range n {
		m *= 10
	}
	x, _ = x.MulSmall(m)
	return x
}

// FitsDigits reports whether |x| < limit, where limit is Pow10Int128(p): whether x is a
// valid unscaled value of a decimal of precision p.
func (x Int128) FitsDigits(limit Int128) bool {
	return x.Cmp(limit) < 0 && x.Cmp(limit.Neg()) > 0
}

// PutBytes writes x into b big-endian, sign-extended or truncated to len(b) bytes (the
// layout of a Parquet FIXED_LEN_BYTE_ARRAY decimal).
func (x Int128) PutBytes(b []byte) {
	n := len(b)
	if n < 8 {
		for i := range n {
			b[n-1-i] = byte(x.Lo >> (8 * i))
		}
		return
	}
	binary.BigEndian.PutUint64(b[n-8:], x.Lo)
	ext := byte(0) // the sign, repeated above the 16 bytes
	if x.Hi < 0 {
		ext = 0xff
	}
	for j, i := 0, n-9; i >= 0; j, i = j+1, i-1 {
		if j < 8 {
			b[i] = byte(uint64(x.Hi) >> (8 * j))
		} else {
			b[i] = ext
		}
	}
}

// Int128FromBytes reads a big-endian two's complement number of at most 16 bytes (longer
// inputs must only repeat the sign in their extra leading bytes; they are ignored). An
// empty slice is 0.
func Int128FromBytes(b []byte) Int128 {
	n := len(b)
	switch {
	case n == 0:
		return Int128{}
	case n > 16:
		b, n = b[n-16:], 16
	}
	if n <= 8 {
		shift := uint(64 - 8*n)
		return Int128Of(int64(beUint(b)<<shift) >> shift)
	}
	k := n - 8
	shift := uint(64 - 8*k)
	return Int128{Hi: int64(beUint(b[:k])<<shift) >> shift, Lo: binary.BigEndian.Uint64(b[k:])}
}

// beUint reads up to 8 big-endian bytes.
func beUint(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// AppendDecimal appends x * 10^-scale in plain notation with exactly scale fractional
// digits, as Spark casts a decimal to a string. It allocates nothing beyond dst's growth.
func (x Int128) AppendDecimal(dst []byte, scale int) []byte {
	if x.Hi < 0 {
		dst = append(dst, '-')
		x = x.Neg() // the smallest Int128 is never a decimal
	}
	var buf [40]byte
	i := len(buf)
	hi, lo := uint64(x.Hi), x.Lo
	const chunk = 1e19
	for {
		// Divide the 128-bit hi:lo by 10^19; the remainder is the next 19 digits.
		var r uint64
		qh := hi / chunk
		lo, r = bits.Div64(hi%chunk, lo, chunk)
		hi = qh
		if hi == 0 && lo == 0 {
			for {
				i--
				buf[i] = byte('0' + r%10)
				r /= 10
				if r == 0 {
					break
				}
			}
			break
		}
		for range 19 {
			i--
			buf[i] = byte('0' + r%10)
			r /= 10
		}
	}
	for len(buf)-i <= scale {
		i--
		buf[i] = '0'
	}
	digits := buf[i:]
	if scale == 0 {
		return append(dst, digits...)
	}
	dst = append(dst, digits[:len(digits)-scale]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-scale:]...)
}

// Murmur3Int128s hashes a decimal column of precision > 18 held as unscaled Int128 values
// into h, as Spark hashes java.math.BigInteger.toByteArray of the unscaled value.
func Murmur3Int128s(h []int32, src []Int128, nulls []uint64) {
	src = src[:len(h)]
	var b [16]byte
	for i, x := range src {
		if !IsNull(nulls, i) {
			binary.BigEndian.PutUint64(b[:8], uint64(x.Hi))
			binary.BigEndian.PutUint64(b[8:], x.Lo)
			h[i] = Murmur3Bytes(b[16-x.javaLen():], h[i])
		}
	}
}

// javaLen is the length of java.math.BigInteger.toByteArray of x: its bits without the
// repeated sign, plus a sign bit, in whole bytes.
func (x Int128) javaLen() int {
	hi, lo := uint64(x.Hi), x.Lo
	if x.Hi < 0 {
		hi, lo = ^hi, ^lo
	}
	n := bits.Len64(lo)
	if hi != 0 {
		n = 64 + bits.Len64(hi)
	}
	return n/8 + 1
}

// HiveInt128s hashes a decimal column of precision > 18 held as unscaled Int128 values at
// scale into h, as [HiveDecimals] does for bytes.
func HiveInt128s(h []int32, src []Int128, scale int, nulls []uint64) {
	src = src[:len(h)]
	var b [16]byte
	for i, x := range src {
		var c int32
		if !IsNull(nulls, i) {
			x.PutBytes(b[:])
			c = hiveDecimalBytes(b[:], scale)
		}
		h[i] = 31*h[i] + c
	}
}
