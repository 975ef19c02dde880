package store

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
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
	for _, f := range t.BucketFiles(b) {
		if err := t.ReadFile(f, cols, fn); err != nil {
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
// new: fn may keep it.
func (t *Table) ReadFile(f File, cols []int, fn func(*Batch) error) (err error) {
	pf, osf, err := openParquet(f.Path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := osf.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close %s: %w", f.Path, cerr)
		}
	}()
	types := make([]Column, len(cols))
	for i, c := range cols {
		types[i] = t.Schema[c]
		if err := checkReadable(types[i].Type); err != nil {
			return fmt.Errorf("read %s: %w", f.Path, err)
		}
	}
	for _, rg := range pf.RowGroups() {
		nrows := int(rg.NumRows())
		b := NewBatch(Schema(types).Types(), nrows)
		chunks := rg.ColumnChunks()
		for i, c := range cols {
			name := t.Schema[c].Name
			if pi := slices.Index(t.Layout.PartitionColumns, name); pi >= 0 {
				for range nrows {
					if err := AppendParsed(b.Cols[i], f.Partition[pi]); err != nil {
						return fmt.Errorf("read %s: partition %s: %w", f.Path, name, err)
					}
				}
				continue
			}
			leaf, ok := pf.Schema().Lookup(name)
			if !ok {
				for range nrows {
					b.Cols[i].AppendNull()
				}
				continue
			}
			if err := readChunk(chunks[leaf.ColumnIndex], leaf, b.Cols[i]); err != nil {
				return fmt.Errorf("read %s column %s: %w", f.Path, name, err)
			}
			if got := b.Cols[i].Len(); got != nrows {
				return fmt.Errorf("read %s column %s: %d values for %d rows", f.Path, name, got, nrows)
			}
		}
		b.Len = nrows
		if err := fn(b); err != nil {
			return err
		}
	}
	return nil
}

// ReadAll reads the columns cols of every file kept by p into one batch.
func (t *Table) ReadAll(cols []int, p Pruning) (*Batch, error) {
	types := make([]Column, len(cols))
	for i, c := range cols {
		types[i] = t.Schema[c]
	}
	out := NewBatch(Schema(types).Types(), 0)
	for _, f := range t.Files {
		if !p.Keep(f) {
			continue
		}
		if err := t.ReadFile(f, cols, func(b *Batch) error { out.Append(b); return nil }); err != nil {
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
