//go:build engine

package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// Open lists the data files of a table directory written by Write or by Spark, for the given
// schema (partition columns included) and layout. Hidden files (leading _ or .) are skipped,
// as Spark's file index skips them; partition directories are col=value. A bucketed layout
// needs a bucket id in every file name (Spark's INVALID_BUCKET_FILE otherwise): after the
// last underscore for Spark's scheme, before the first one for Hive's (00003_0_part-…,
// 000003_0).
func Open(dir string, schema Schema, layout Layout) (*Table, error) {
	if err := layout.check(schema); err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	t := &Table{Dir: dir, Schema: schema, Layout: layout}
	parser := layout.Bucketing.parser()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if path != dir && (strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		f := File{Path: path, Bucket: -1, Rows: -1}
		if f.Partition, err = partitionOf(filepath.Dir(rel), layout.PartitionColumns); err != nil {
			return err
		}
		if layout.Bucketed() {
			id, ok := parser.Bucket(name)
			if !ok {
				return fmt.Errorf("invalid bucket file %s: no bucket id in its name", path)
			}
			f.Bucket = id
		}
		t.Files = append(t.Files, f)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	sort.SliceStable(t.Files, func(i, j int) bool { return t.Files[i].Path < t.Files[j].Path })
	return t, nil
}

// partitionOf reads the partition values from a relative directory path.
func partitionOf(rel string, cols []string) ([]string, error) {
	if len(cols) == 0 {
		return nil, nil
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) != len(cols) {
		return nil, fmt.Errorf("directory %s does not have the partition columns %v", rel, cols)
	}
	vals := make([]string, len(cols))
	for i, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		if !ok || !strings.EqualFold(k, cols[i]) {
			return nil, fmt.Errorf("directory %s: want %s=value, got %s", rel, cols[i], p)
		}
		vals[i] = unescapePartition(v)
	}
	return vals, nil
}

// BucketFiles returns the files of bucket b, in path order. Files whose bucket id is not below
// the bucket count are never returned, as Spark never reads them.
func (t *Table) BucketFiles(b int) []File {
	var out []File
	for _, f := range t.Files {
		if f.Bucket == b {
			out = append(out, f)
		}
	}
	return out
}

// ReadBucket reads the columns cols of every file of bucket b (see ReadFile).
func (t *Table) ReadBucket(b int, cols []int, fn func(*Batch) error) error {
	r := t.NewReader()
	for _, f := range t.BucketFiles(b) {
		if err := r.ReadFile(f, cols, fn); err != nil {
			return err
		}
	}
	return nil
}

// A Pruning selects the files a scan reads.
type Pruning struct {
	// Buckets lists the buckets to read; nil reads all.
	Buckets []int
	// Partition, when not nil, keeps a partition (its values in PartitionColumns order).
	Partition func(values []string) bool
}

// Keep reports whether f survives the pruning.
func (p Pruning) Keep(f File) bool {
	if p.Buckets != nil && !slices.Contains(p.Buckets, f.Bucket) {
		return false
	}
	return p.Partition == nil || p.Partition(f.Partition)
}

// ReadFile reads the columns cols (schema positions; partition columns are filled from the
// file's directory) of one file and calls fn with one batch per row group. Each batch is
// new: fn may keep it. Columns are found by name, case-insensitively as Spark resolves them;
// a column missing from the file is an error. A corrupt file is an error naming it. A Reader
// reads several files with less garbage.
func (t *Table) ReadFile(f File, cols []int, fn func(*Batch) error) error {
	return t.NewReader().ReadFile(f, cols, fn)
}

// A Reader reads files of one table one after another, keeping its decoding buffers from
// file to file. It is not safe for concurrent use: each goroutine reads with its own.
type Reader struct {
	t    *Table
	dec  chunkDecoder
	free chan *Batch
}

// NewReader returns a reader of t's files.
func (t *Table) NewReader() *Reader { return &Reader{t: t, free: make(chan *Batch, 2)} }

// Recycle hands back a batch the reader returned, once the caller holds no reference to it or
// its vectors any more: the reader fills it again instead of allocating (and clearing) fresh
// vectors. It may be called from another goroutine than the one reading; a batch beyond the
// few the reader keeps is dropped.
func (r *Reader) Recycle(b *Batch) {
	select {
	case r.free <- b:
	default:
	}
}

// newBatch returns an empty batch of the columns' types: a recycled one when it has them.
func (r *Reader) newBatch(cols []Column) *Batch {
	select {
	case b := <-r.free:
		if len(b.Cols) == len(cols) {
			ok := true
			for i, c := range cols {
				ok = ok && b.Cols[i].Type == c.Type
			}
			if ok {
				for _, v := range b.Cols {
					v.recycle()
				}
				b.Len, b.Sel = 0, nil
				return b
			}
		}
	default:
	}
	return NewBatch(Schema(cols).Types(), 0)
}

// ReadFile is Table.ReadFile with the reader's buffers.
func (r *Reader) ReadFile(f File, cols []int, fn func(*Batch) error) (err error) {
	t := r.t
	// The boundary where a user's file is decoded: parquet-go trusts parts of a file that a
	// corrupt or hostile one gets wrong, and may panic. Its panics become an error naming
	// the file; one raised by fn is not the file's and goes on.
	inFn := false
	defer func() {
		if r := recover(); r != nil {
			if inFn {
				panic(r)
			}
			err = fmt.Errorf("read %s: corrupt parquet file: %v", f.Path, r)
		}
	}()
	osf, err := os.Open(f.Path)
	if err != nil {
		return fmt.Errorf("open %s: %w", f.Path, err)
	}
	defer func() {
		if cerr := osf.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close %s: %w", f.Path, cerr)
		}
	}()
	pf, err := openParquet(osf, f.Path)
	if err != nil {
		return err
	}
	types := make([]Column, len(cols))
	for i, c := range cols {
		types[i] = t.Schema[c]
		if err := checkReadable(types[i].Type); err != nil {
			return fmt.Errorf("read %s: %w", f.Path, err)
		}
	}
	leaves, err := t.leaves(pf, cols)
	if err != nil {
		return fmt.Errorf("read %s: %w", f.Path, err)
	}
	for g := range pf.RowGroups() {
		b, err := t.readRowGroup(pf, osf, g, f, types, leaves, r)
		if err != nil {
			return err
		}
		inFn = true
		if err := fn(b); err != nil {
			return err
		}
		inFn = false
	}
	return nil
}

// leaves returns the file's leaf column of each of cols, and a zero LeafColumn (nil Node)
// for partition columns.
func (t *Table) leaves(pf *parquet.File, cols []int) ([]parquet.LeafColumn, error) {
	out := make([]parquet.LeafColumn, len(cols))
	for i, c := range cols {
		name := t.Schema[c].Name
		if slices.Contains(t.Layout.PartitionColumns, name) {
			continue
		}
		leaf, err := lookupLeaf(pf.Schema(), name)
		if err != nil {
			return nil, err
		}
		out[i] = leaf
	}
	return out, nil
}

// lookupLeaf finds the top-level column name, exactly or else case-insensitively, and
// requires it to be a flat (not nested or repeated) column.
func lookupLeaf(s *parquet.Schema, name string) (parquet.LeafColumn, error) {
	var names []string
	for _, f := range s.Fields() {
		names = append(names, f.Name())
	}
	i := slices.Index(names, name)
	if i < 0 {
		i = slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, name) })
	}
	if i < 0 {
		return parquet.LeafColumn{}, fmt.Errorf("no column %s in the file (its columns: %s)", name, strings.Join(names, ", "))
	}
	leaf, ok := s.Lookup(names[i])
	if !ok || leaf.MaxRepetitionLevel > 0 {
		return parquet.LeafColumn{}, fmt.Errorf("column %s is nested or repeated, which the engine does not read", names[i])
	}
	if a := nestedAnnotation(leaf.Node); a != "" {
		return parquet.LeafColumn{}, fmt.Errorf("column %s is a plain column annotated %s, which the engine does not read", names[i], a)
	}
	return leaf, nil
}

// nestedAnnotation names the logical type of n when it is one of a nested value (MAP, LIST,
// VARIANT), whose parquet-go type has no physical kind (asking for it panics): a malformed
// file can put one on a plain column. "" otherwise.
func nestedAnnotation(n parquet.Node) string {
	lt := n.Type().LogicalType()
	if lt == nil {
		return ""
	}
	switch lt.Value.(type) {
	case *format.MapType:
		return "MAP"
	case *format.ListType:
		return "LIST"
	case *format.VariantType:
		return "VARIANT"
	}
	return ""
}

// readRowGroup reads row group g of an open file into a new batch of the given columns. It
// checks every column chunk it reads before parquet-go allocates what its page headers claim.
func (t *Table) readRowGroup(pf *parquet.File, r io.ReaderAt, g int, f File, cols []Column, leaves []parquet.LeafColumn, rd *Reader) (*Batch, error) {
	dec := &rd.dec
	rg := pf.RowGroups()[g]
	meta := pf.Metadata().RowGroups[g]
	nrows := rg.NumRows()
	n := int(nrows)
	if nrows < 0 {
		return nil, fmt.Errorf("read %s row group %d: row group of %d rows", f.Path, g, nrows)
	}
	// Vectors grow as each chunk's pages are checked: the footer's row count alone is not
	// trusted for an allocation.
	b := rd.newBatch(cols)
	chunks := rg.ColumnChunks()
	read := false
	for i, c := range cols {
		leaf := leaves[i]
		if leaf.Node == nil {
			continue
		}
		read = true
		if !t.viaParquetGo && leaf.ColumnIndex < len(meta.Columns) && covers(leaf, &meta.Columns[leaf.ColumnIndex].MetaData, b.Cols[i]) {
			err := dec.readChunkDirect(r, pf.Size(), &meta.Columns[leaf.ColumnIndex].MetaData, leaf, b.Cols[i], nrows)
			if err == nil {
				continue
			}
			if !errors.Is(err, errNotCovered) {
				return nil, fmt.Errorf("read %s row group %d column %s: %w", f.Path, g, c.Name, err)
			}
		}
		scan := &leaf
		if t.Trusted {
			scan = nil
		}
		if err := checkChunk(r, pf.Size(), meta, leaf.ColumnIndex, nrows, scan); err != nil {
			return nil, fmt.Errorf("read %s row group %d column %s: %w", f.Path, g, c.Name, err)
		}
		b.Cols[i].grow(n) // checkChunk found n values in the chunk's pages
		if err := readChunk(chunks[leaf.ColumnIndex], leaf, b.Cols[i]); err != nil {
			return nil, fmt.Errorf("read %s column %s: %w", f.Path, c.Name, err)
		}
	}
	if !read { // only partition columns: still bound the row count by a chunk's values
		if err := checkChunk(r, pf.Size(), meta, 0, nrows, nil); err != nil && (nrows != 0 || len(meta.Columns) > 0) {
			return nil, fmt.Errorf("read %s row group %d: %w", f.Path, g, err)
		}
	}
	for i, c := range cols {
		if leaves[i].Node == nil {
			pi := slices.Index(t.Layout.PartitionColumns, c.Name)
			for range n {
				if err := AppendParsed(b.Cols[i], f.Partition[pi]); err != nil {
					return nil, fmt.Errorf("read %s: partition %s: %w", f.Path, c.Name, err)
				}
			}
			continue
		}
		if got := b.Cols[i].Len(); got != n {
			return nil, fmt.Errorf("read %s column %s: %d values for %d rows", f.Path, c.Name, got, n)
		}
	}
	b.Len = n
	return b, nil
}

// checkChunk checks column chunk col of a row group: its bytes lie in the file, before the
// footer, and its pages hold rows values within the limits of checkPages (and, when the leaf
// column is given, the runs of its pages within those of checkRuns).
func checkChunk(r io.ReaderAt, size int64, rg format.RowGroup, col int, rows int64, leaf *parquet.LeafColumn) error {
	if col >= len(rg.Columns) {
		return fmt.Errorf("no column chunk %d in a row group of %d", col, len(rg.Columns))
	}
	md := rg.Columns[col].MetaData
	start := md.DataPageOffset
	if md.DictionaryPageOffset != 0 {
		start = md.DictionaryPageOffset
	}
	if start < 4 || md.TotalCompressedSize < 0 || md.TotalCompressedSize > size-8-start {
		return fmt.Errorf("column chunk of %d bytes at offset %d lies outside the file of %d bytes", md.TotalCompressedSize, start, size)
	}
	if rows < 0 {
		return fmt.Errorf("row group of %d rows", rows)
	}
	c := chunkRange{start: start, end: start + md.TotalCompressedSize, rows: rows, codec: md.Codec}
	if leaf != nil {
		c.leaf, c.maxRep, c.maxDef = true, leaf.MaxRepetitionLevel, leaf.MaxDefinitionLevel
	}
	return checkPages(r, c)
}

// ReadAll reads the columns cols of every file kept by p into one batch.
func (t *Table) ReadAll(cols []int, p Pruning) (*Batch, error) {
	types := make([]Column, len(cols))
	for i, c := range cols {
		types[i] = t.Schema[c]
	}
	out := NewBatch(Schema(types).Types(), 0)
	r := t.NewReader()
	for _, f := range t.Files {
		if !p.Keep(f) {
			continue
		}
		if err := r.ReadFile(f, cols, func(b *Batch) error { out.Append(b); return nil }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// AllColumns returns 0..len(schema)-1.
func (s Schema) AllColumns() []int {
	out := make([]int, len(s))
	for i := range out {
		out[i] = i
	}
	return out
}
