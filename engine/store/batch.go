//go:build engine

package store

import "github.com/bucketlint/bucketlint/engine/hash"

// A Batch is up to BatchSize rows (operators that materialise may hold more) as typed column
// vectors. Sel lists the live row indexes; nil means rows 0..Len-1.
type Batch struct {
	Len  int
	Sel  []int32
	Cols []*Vec
}

// NewBatch returns an empty batch of the schema's types with room for capacity rows.
func NewBatch(types []hash.Type, capacity int) *Batch {
	b := &Batch{Cols: make([]*Vec, len(types))}
	for i, t := range types {
		b.Cols[i] = NewVec(t, capacity)
	}
	return b
}

// Types returns the column types of a schema.
func (s Schema) Types() []hash.Type {
	out := make([]hash.Type, len(s))
	for i, c := range s {
		out[i] = c.Type
	}
	return out
}

// Rows returns the number of live rows.
func (b *Batch) Rows() int {
	if b.Sel != nil {
		return len(b.Sel)
	}
	return b.Len
}

// Append appends the live rows of src, which must have the same column kinds, and returns
// the number appended.
func (b *Batch) Append(src *Batch) int {
	for i, c := range b.Cols {
		c.AppendRows(src.Cols[i], src.Sel)
	}
	n := src.Rows()
	b.Len += n
	return n
}

// AppendRows appends rows of src (ignoring src.Sel).
func (b *Batch) AppendRows(src *Batch, rows []int32) {
	for i, c := range b.Cols {
		c.AppendRows(src.Cols[i], rows)
	}
	b.Len += len(rows)
}

// Reset empties the batch, keeping its memory.
func (b *Batch) Reset() {
	for _, c := range b.Cols {
		c.Reset()
	}
	b.Len = 0
	b.Sel = nil
}

// Compact returns a batch without a selection vector holding b's live rows (b itself when
// it has none).
func (b *Batch) Compact() *Batch {
	if b.Sel == nil {
		return b
	}
	out := &Batch{Cols: make([]*Vec, len(b.Cols))}
	for i, c := range b.Cols {
		out.Cols[i] = NewVec(c.Type, len(b.Sel))
	}
	out.AppendRows(b, b.Sel)
	return out
}

// MemBytes estimates the batch's memory.
func (b *Batch) MemBytes() int64 {
	var n int64
	for _, c := range b.Cols {
		n += c.MemBytes()
	}
	return n + 4*int64(cap(b.Sel))
}
