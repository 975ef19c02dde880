//go:build engine

package exec

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"

	"github.com/bucketlint/bucketlint/internal/crash"
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
	_, _, c := r.canonical(false)
	return c
}

// canonical renders every row as canonical text with its FNV-1a hash and the checksum they
// add up to. With order, the texts and hashes come back sorted by (hash, text): a total
// order reached by a radix sort of the hashes, so texts are compared only on the rare
// equal hash.
func (r *Result) canonical(order bool) ([]string, []int64, Checksum) {
	var c Checksum
	var texts []string
	var keys []int64
	var buf []byte
	for _, b := range r.Rows {
		for i := range b.Len {
			buf = AppendCanonical(buf[:0], b.Cols, i)
			h := fnv1a(buf)
			c.Sum += h
			c.Rows++
			if order {
				texts = append(texts, string(buf))
				keys = append(keys, int64(h))
			}
		}
	}
	if !order {
		return nil, nil, c
	}
	perm := make([]int32, len(keys))
	for i := range perm {
		perm[i] = int32(i)
	}
	store.SortInt64Pairs(keys, perm)
	sorted := make([]string, len(texts))
	for i, p := range perm {
		sorted[i] = texts[p]
	}
	for lo := 0; lo < len(keys); {
		hi := lo + 1
		for hi < len(keys) && keys[hi] == keys[lo] {
			hi++
		}
		if hi-lo > 1 {
			slices.Sort(sorted[lo:hi])
		}
		lo = hi
	}
	return sorted, keys, c
}

// fnv1a is the 64-bit FNV-1a hash of b (hash/fnv's, without its allocation and interface).
func fnv1a(b []byte) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for _, x := range b {
		h ^= uint64(x)
		h *= prime
	}
	return h
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
// or an error naming the row counts and the first row one has and the other lacks. Rows
// compare by their canonical text (AppendCanonical), in which a NULL and the string \N
// coincide.
func EqualRows(a, b *Result) error {
	_, _, err := CompareRows(a, b)
	return err
}

// CompareRows compares two results as multisets of rows, like EqualRows, and returns their
// checksums as well, computed in the same pass. The two results are rendered at once.
func CompareRows(a, b *Result) (Checksum, Checksum, error) {
	var ra, rb []string
	var ka, kb []int64
	var ca, cb Checksum
	done := make(chan struct{})
	var crashed error
	go func() {
		defer close(done)
		defer crash.Catch(func(err error) { crashed = err })
		crash.Point("exec.CompareRows")
		rb, kb, cb = b.canonical(true)
	}()
	ra, ka, ca = a.canonical(true)
	<-done
	if crashed != nil {
		return ca, cb, crashed
	}
	// Both lists are in (hash, text) order; a merge walk finds the first row in only one.
	less := func(i, j int) bool {
		if ka[i] != kb[j] {
			return ka[i] < kb[j]
		}
		return ra[i] < rb[j]
	}
	i, j := 0, 0
	for i < len(ra) && j < len(rb) {
		switch {
		case ka[i] == kb[j] && ra[i] == rb[j]:
			i++
			j++
		case less(i, j):
			return ca, cb, fmt.Errorf("results differ (%d and %d rows): row %q only in the first", len(ra), len(rb), printable(ra[i]))
		default:
			return ca, cb, fmt.Errorf("results differ (%d and %d rows): row %q only in the second", len(ra), len(rb), printable(rb[j]))
		}
	}
	switch {
	case i < len(ra):
		return ca, cb, fmt.Errorf("results differ (%d and %d rows): row %q only in the first", len(ra), len(rb), printable(ra[i]))
	case j < len(rb):
		return ca, cb, fmt.Errorf("results differ (%d and %d rows): row %q only in the second", len(ra), len(rb), printable(rb[j]))
	}
	return ca, cb, nil
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
