package hash

// The vector kernels below update a running-hash vector h in place, one row per element of
// h: h[i] = hash(src[i], seed h[i]), so hashing the bucket columns one after another, each
// with its kernel, chains them as Spark does. Start h at [Seed] (see [FillSeed]). A set bit
// in nulls (bit i%64 of word i/64) marks row i as NULL and leaves h[i] unchanged; nil nulls
// means no NULLs. src (and nulls, when not nil) must cover len(h) rows: a shorter slice is a
// programming error and panics like an out-of-range index, as crypto/subtle.XORBytes does.
// The kernels allocate nothing and make no call through an interface.

// FillSeed sets every element of h to [Seed], the start of a Murmur3 row hash.
func FillSeed(h []int32) {
	for i := range h {
		h[i] = Seed
	}
}

// IsNull reports whether row i is NULL in the bitmap nulls (nil: no NULLs).
func IsNull(nulls []uint64, i int) bool {
	return nulls != nil && nulls[i>>6]>>(uint(i)&63)&1 != 0
}

// SetNull marks row i as NULL in nulls, which must have at least i/64+1 words.
func SetNull(nulls []uint64, i int) { nulls[i>>6] |= 1 << (uint(i) & 63) }

// NullWords returns the number of bitmap words that cover n rows.
func NullWords(n int) int { return (n + 63) >> 6 }

// intLike is the set of Go types Spark hashes as an int: tinyint, smallint, int, date.
type intLike interface{ ~int8 | ~int16 | ~int32 }

func murmur3Ints[T intLike](h []int32, src []T, nulls []uint64) {
	src = src[:len(h)]
	if nulls == nil {
		for i, v := range src {
			h[i] = Murmur3Int(int32(v), h[i])
		}
		return
	}
	for i, v := range src {
		if !IsNull(nulls, i) {
			h[i] = Murmur3Int(int32(v), h[i])
		}
	}
}

// Murmur3Int32s hashes an int or date column (dates as days since the epoch) into h.
func Murmur3Int32s(h, src []int32, nulls []uint64) { murmur3Ints(h, src, nulls) }

// Murmur3Int16s hashes a smallint column into h (sign-extended to int, as Spark does).
func Murmur3Int16s(h []int32, src []int16, nulls []uint64) { murmur3Ints(h, src, nulls) }

// Murmur3Int8s hashes a tinyint column into h (sign-extended to int, as Spark does).
func Murmur3Int8s(h []int32, src []int8, nulls []uint64) { murmur3Ints(h, src, nulls) }

// Murmur3Bools hashes a boolean column into h (true as int 1, false as int 0).
func Murmur3Bools(h []int32, src []bool, nulls []uint64) {
	src = src[:len(h)]
	for i, v := range src {
		if !IsNull(nulls, i) {
			var n int32
			if v {
				n = 1
			}
			h[i] = Murmur3Int(n, h[i])
		}
	}
}

// Murmur3Int64s hashes a bigint, timestamp or timestamp_ntz column (microseconds) or a
// decimal column of precision <= 18 (unscaled values) into h.
func Murmur3Int64s(h []int32, src []int64, nulls []uint64) {
	src = src[:len(h)]
	if nulls == nil {
		for i, v := range src {
			h[i] = Murmur3Long(v, h[i])
		}
		return
	}
	for i, v := range src {
		if !IsNull(nulls, i) {
			h[i] = Murmur3Long(v, h[i])
		}
	}
}

// Murmur3Float32s hashes a float column into h (Spark 3.2 and later; see
// [Options.Murmur3Float32s]).
func Murmur3Float32s(h []int32, src []float32, nulls []uint64) {
	Options{}.Murmur3Float32s(h, src, nulls)
}

// Murmur3Float32s hashes a float column into h: canonical NaN, and -0.0 as 0.0 unless
// o.RawNegativeZero.
func (o Options) Murmur3Float32s(h []int32, src []float32, nulls []uint64) {
	src = src[:len(h)]
	for i, v := range src {
		if !IsNull(nulls, i) {
			h[i] = Murmur3Int(int32(floatBits(v, o.RawNegativeZero)), h[i])
		}
	}
}

// Murmur3Float64s hashes a double column into h (Spark 3.2 and later; see
// [Options.Murmur3Float64s]).
func Murmur3Float64s(h []int32, src []float64, nulls []uint64) {
	Options{}.Murmur3Float64s(h, src, nulls)
}

// Murmur3Float64s hashes a double column into h: canonical NaN, and -0.0 as 0.0 unless
// o.RawNegativeZero.
func (o Options) Murmur3Float64s(h []int32, src []float64, nulls []uint64) {
	src = src[:len(h)]
	for i, v := range src {
		if !IsNull(nulls, i) {
			h[i] = Murmur3Long(int64(doubleBits(v, o.RawNegativeZero)), h[i])
		}
	}
}

// Murmur3Strings hashes a string or binary column into h. Row i is data[offsets[i]:
// offsets[i+1]], so offsets has len(h)+1 elements.
func Murmur3Strings(h, offsets []int32, data []byte, nulls []uint64) {
	offsets = offsets[:len(h)+1]
	for i := range h {
		if !IsNull(nulls, i) {
			h[i] = Murmur3Bytes(data[offsets[i]:offsets[i+1]], h[i])
		}
	}
}

// Murmur3Decimals hashes a decimal column of precision > 18 into h. Each row is width
// bytes of data holding the unscaled value in big-endian two's complement (Parquet's
// FIXED_LEN_BYTE_ARRAY decimal); Spark hashes BigInteger.toByteArray, the same number
// without redundant sign bytes, so those are skipped first.
func Murmur3Decimals(h []int32, data []byte, width int, nulls []uint64) {
	data = data[:len(h)*width]
	for i := range h {
		if !IsNull(nulls, i) {
			h[i] = Murmur3Bytes(minimalTwosComplement(data[i*width:(i+1)*width]), h[i])
		}
	}
}

// Buckets stores Spark's bucket id pmod(h[i], n) of every row in dst (see [Bucket]).
// dst must be at least as long as h; when n < 1 every id is -1.
func Buckets(dst, h []int32, n int) {
	dst = dst[:len(h)]
	if n < 1 {
		for i := range dst {
			dst[i] = -1
		}
		return
	}
	if n&(n-1) == 0 { // a power of two: pmod is the low bits of the two's complement
		mask := int32(n - 1)
		for i, v := range h {
			dst[i] = v & mask
		}
		return
	}
	m := int32(n)
	for i, v := range h {
		r := v % m
		if r < 0 {
			r += m
		}
		dst[i] = r
	}
}
