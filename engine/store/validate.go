//go:build engine

package store

import (
	"fmt"
)

// A Misplaced row sits in a file whose bucket id differs from the row's own.
type Misplaced struct {
	File string
	// Row is the row's position in the file, from 0.
	Row int64
	// FileBucket is the id in the file name; Bucket the row's bucket id.
	FileBucket, Bucket int
	// Key is the row's bucket column values as text.
	Key string
}

// String describes the row.
func (m Misplaced) String() string {
	return fmt.Sprintf("%s: row %d (%s) belongs in bucket %d, not %d", m.File, m.Row, m.Key, m.Bucket, m.FileBucket)
}

// A Validation is the result of Validate.
type Validation struct {
	Files, Rows int64
	// Misplaced counts every misplaced row; First keeps the first ones (up to the limit).
	Misplaced int64
	First     []Misplaced
	// OutOfRange lists files whose bucket id is not below the bucket count: Spark never
	// reads them, so their rows silently disappear from queries. (A Hive-format table is
	// read without buckets, so Spark reads them, but Hive-aware readers such as Trino reject
	// the table.)
	OutOfRange []string
	// Bucketing is the scheme the table was checked against.
	Bucketing Bucketing
}

// OK reports whether every row is in its bucket and every file is read by Spark.
func (v *Validation) OK() bool { return v.Misplaced == 0 && len(v.OutOfRange) == 0 }

// Err returns nil when the layout is valid and otherwise an error naming the first problem.
func (v *Validation) Err() error {
	switch {
	case v.Misplaced > 0:
		return fmt.Errorf("%d of %d rows are in the wrong bucket file; first: %s", v.Misplaced, v.Rows, v.First[0])
	case len(v.OutOfRange) > 0 && v.Bucketing == HiveBucketing:
		return fmt.Errorf("file %s has a bucket id not below the bucket count", v.OutOfRange[0])
	case len(v.OutOfRange) > 0:
		return fmt.Errorf("file %s has a bucket id Spark never reads", v.OutOfRange[0])
	}
	return nil
}

// Validate checks a bucketed table: every row's bucket id, pmod(Murmur3Hash(bucket
// columns), n) computed with engine/hash (pmod(HiveHash(bucket columns) & Int.MaxValue, n)
// under HiveBucketing), must equal the id in its file's name. It reports the first limit
// misplaced rows with file and row number.
func Validate(t *Table, limit int) (*Validation, error) {
	if !t.Layout.Bucketed() {
		return nil, fmt.Errorf("validate %s: the layout is not bucketed", t.Dir)
	}
	cols, err := t.Schema.Indexes(t.Layout.BucketColumns)
	if err != nil {
		return nil, fmt.Errorf("validate %s: %w", t.Dir, err)
	}
	v := &Validation{Bucketing: t.Layout.Bucketing}
	var h Hasher
	var ids []int32
	var text []byte
	r := t.NewReader()
	for _, f := range t.Files {
		v.Files++
		if f.Bucket >= t.Layout.Buckets {
			v.OutOfRange = append(v.OutOfRange, f.Path)
		}
		var row int64
		err := r.ReadFile(f, cols, func(b *Batch) error {
			ids = grow(ids, b.Len)
			h.BucketsOf(t.Layout.Bucketing, ids, b.Cols, b.Len, t.Layout.Buckets)
			for i, id := range ids {
				if int(id) != f.Bucket {
					v.Misplaced++
					if len(v.First) < limit {
						text = text[:0]
						for j, c := range b.Cols {
							if j > 0 {
								text = append(text, ", "...)
							}
							text = AppendText(text, c, i)
						}
						v.First = append(v.First, Misplaced{File: f.Path, Row: row + int64(i), FileBucket: f.Bucket, Bucket: int(id), Key: string(text)})
					}
				}
			}
			row += int64(b.Len)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("validate %s: %w", t.Dir, err)
		}
		v.Rows += row
	}
	return v, nil
}
