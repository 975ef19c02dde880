package exec

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
)

// A Checksum is an order-independent digest of a multiset of rows: the row count and the
// sum (mod 2^64) of each row's FNV-1a hash of its canonical text (see AppendCanonical).
// Equal multisets give equal checksums whatever the row order; a missing, extra or changed
// row changes it.
type Checksum struct {
	Rows int64  `json:"rows"`
	Sum  uint64 `json:"sum"`
}

// String prints the checksum as rows:hex.
func (c Checksum) String() string { return fmt.Sprintf("%d:%016x", c.Rows, c.Sum) }

// AppendCanonical appends row r of the columns as canonical text: values separated by the
// byte 0x1f, NULL as \N, integers in decimal, booleans true/false, dates 2024-01-31,
// timestamps as microseconds since the epoch, decimals with their scale's digits, floats
// and doubles as C's %.17g, strings and binary as their bytes. The same text is easy to
// produce from another engine's output (oracle/engine_compat.py does it for Spark).
func AppendCanonical(dst []byte, cols []*store.Vec, r int) []byte {
	for i, c := range cols {
		if i > 0 {
			dst = append(dst, 0x1f)
		}
		switch {
		case c.IsNull(r):
			dst = append(dst, hash.NullText...)
		case c.Type.Kind == hash.KindTimestamp || c.Type.Kind == hash.KindTimestampNTZ:
			dst = strconv.AppendInt(dst, c.Ints[r], 10)
		case c.Kind == store.KindFloat64:
			dst = strconv.AppendFloat(dst, c.Floats[r], 'g', 17, 64)
		default:
			dst = store.AppendText(dst, c, r)
		}
	}
	return dst
}

// Checksum digests the result's rows.
func (r *Result) Checksum() Checksum {
	var c Checksum
	var buf []byte
	h := fnv.New64a()
	for _, b := range r.Rows {
		for i := range b.Len {
			buf = AppendCanonical(buf[:0], b.Cols, i)
			h.Reset()
			_, _ = h.Write(buf)
			c.Sum += h.Sum64()
			c.Rows++
		}
	}
	return c
}

// NumRows returns the number of result rows.
func (r *Result) NumRows() int64 {
	var n int64
	for _, b := range r.Rows {
		n += int64(b.Len)
	}
	return n
}

// CanonicalRows returns every row as canonical text, sorted.
func (r *Result) CanonicalRows() []string {
	var out []string
	var buf []byte
	for _, b := range r.Rows {
		for i := range b.Len {
			buf = AppendCanonical(buf[:0], b.Cols, i)
			out = append(out, string(buf))
		}
	}
	slices.Sort(out)
	return out
}

// EqualRows compares two results as multisets of rows and returns nil when they are equal,
// or an error naming the row counts and the first row one has and the other lacks.
func EqualRows(a, b *Result) error {
	ra, rb := a.CanonicalRows(), b.CanonicalRows()
	i, j := 0, 0
	for i < len(ra) && j < len(rb) {
		switch {
		case ra[i] == rb[j]:
			i++
			j++
		case ra[i] < rb[j]:
			return fmt.Errorf("results differ (%d and %d rows): row %q only in the first", len(ra), len(rb), printable(ra[i]))
		default:
			return fmt.Errorf("results differ (%d and %d rows): row %q only in the second", len(ra), len(rb), printable(rb[j]))
		}
	}
	switch {
	case i < len(ra):
		return fmt.Errorf("results differ (%d and %d rows): row %q only in the first", len(ra), len(rb), printable(ra[i]))
	case j < len(rb):
		return fmt.Errorf("results differ (%d and %d rows): row %q only in the second", len(ra), len(rb), printable(rb[j]))
	}
	return nil
}

func printable(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == 0x1f {
			b[i] = '|'
		}
	}
	return string(b)
}
