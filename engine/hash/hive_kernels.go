package hash

// Hive kernels update a running HiveHash vector h in place: h[i] = 31*h[i] + hash(src[i]),
// with hash(NULL) = 0, so hashing the bucket columns one after another chains them as
// Spark's HiveHash does. Start h at zero. Lengths and nulls are as for the Murmur3 kernels.

func hiveInts[T intLike](h []int32, src []T, nulls []uint64) {
	src = src[:len(h)]
	for i, v := range src {
		var c int32
		if !IsNull(nulls, i) {
			c = int32(v)
		}
		h[i] = 31*h[i] + c
	}
}

// HiveInt32s hashes an int or date column into h.
func HiveInt32s(h, src []int32, nulls []uint64) { hiveInts(h, src, nulls) }

// HiveInt16s hashes a smallint column into h.
func HiveInt16s(h []int32, src []int16, nulls []uint64) { hiveInts(h, src, nulls) }

// HiveInt8s hashes a tinyint column into h.
func HiveInt8s(h []int32, src []int8, nulls []uint64) { hiveInts(h, src, nulls) }

// HiveBools hashes a boolean column into h (1 or 0).
func HiveBools(h []int32, src []bool, nulls []uint64) {
	src = src[:len(h)]
	for i, v := range src {
		var c int32
		if v && !IsNull(nulls, i) {
			c = 1
		}
		h[i] = 31*h[i] + c
	}
}

// HiveInt64s hashes a bigint column into h.
func HiveInt64s(h []int32, src []int64, nulls []uint64) {
	src = src[:len(h)]
	for i, v := range src {
		var c int32
		if !IsNull(nulls, i) {
			c = hiveLong(v)
		}
		h[i] = 31*h[i] + c
	}
}

// HiveTimestamps hashes a timestamp column (microseconds) into h.
func HiveTimestamps(h []int32, src []int64, nulls []uint64) {
	src = src[:len(h)]
	for i, v := range src {
		var c int32
		if !IsNull(nulls, i) {
			c = hiveTimestamp(v)
		}
		h[i] = 31*h[i] + c
	}
}

// HiveDecimal64s hashes a decimal column of precision <= 18 (unscaled values at scale)
// into h.
func HiveDecimal64s(h []int32, src []int64, scale int, nulls []uint64) {
	src = src[:len(h)]
	for i, v := range src {
		var c int32
		if !IsNull(nulls, i) {
			c = hiveDecimal64(v, scale)
		}
		h[i] = 31*h[i] + c
	}
}

// HiveDecimals hashes a decimal column of precision > 18 into h. Each row is width bytes
// of data (at most 16, enough for precision 38) holding the unscaled value at scale in
// big-endian two's complement, as for [Murmur3Decimals].
func HiveDecimals(h []int32, data []byte, width, scale int, nulls []uint64) {
	data = data[:len(h)*width]
	for i := range h {
		var c int32
		if !IsNull(nulls, i) {
			c = hiveDecimalBytes(data[i*width:(i+1)*width], scale)
		}
		h[i] = 31*h[i] + c
	}
}

// HiveFloat32s hashes a float column into h (Spark 3.2 and later: -0.0 as 0.0).
func HiveFloat32s(h []int32, src []float32, nulls []uint64) {
	Options{}.HiveFloat32s(h, src, nulls)
}

// HiveFloat32s hashes a float column into h with o's -0.0 rule.
func (o Options) HiveFloat32s(h []int32, src []float32, nulls []uint64) {
	src = src[:len(h)]
	for i, v := range src {
		var c int32
		if !IsNull(nulls, i) {
			c = int32(floatBits(v, o.RawNegativeZero))
		}
		h[i] = 31*h[i] + c
	}
}

// HiveFloat64s hashes a double column into h (Spark 3.2 and later: -0.0 as 0.0).
func HiveFloat64s(h []int32, src []float64, nulls []uint64) {
	Options{}.HiveFloat64s(h, src, nulls)
}

// HiveFloat64s hashes a double column into h with o's -0.0 rule.
func (o Options) HiveFloat64s(h []int32, src []float64, nulls []uint64) {
	src = src[:len(h)]
	for i, v := range src {
		var c int32
		if !IsNull(nulls, i) {
			c = hiveLong(int64(doubleBits(v, o.RawNegativeZero)))
		}
		h[i] = 31*h[i] + c
	}
}

// HiveStrings hashes a string or binary column into h; rows are laid out as for
// [Murmur3Strings].
func HiveStrings(h, offsets []int32, data []byte, nulls []uint64) {
	offsets = offsets[:len(h)+1]
	for i := range h {
		var c int32
		if !IsNull(nulls, i) {
			c = hiveBytes(data[offsets[i]:offsets[i+1]])
		}
		h[i] = 31*h[i] + c
	}
}

// HiveBuckets stores the Hive bucket id pmod(h[i] & Integer.MAX_VALUE, n) of every row in
// dst (see [HiveBucket]). dst must be at least as long as h; when n < 1 every id is -1.
func HiveBuckets(dst, h []int32, n int) {
	dst = dst[:len(h)]
	if n < 1 {
		for i := range dst {
			dst[i] = -1
		}
		return
	}
	m := int32(n)
	for i, v := range h {
		dst[i] = (v & 0x7fffffff) % m
	}
}
