//go:build engine

package store

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// ReadCSV reads CSV rows with a header line into a batch of schema's columns. Columns are
// matched to the header by name; \N or an empty field is NULL (except for strings, where only
// \N is).
func ReadCSV(r io.Reader, schema Schema) (*Batch, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("csv header: %w", err)
	}
	pos := make([]int, len(schema))
	for i, c := range schema {
		pos[i] = -1
		for j, h := range header {
			if h == c.Name {
				pos[i] = j
			}
		}
		if pos[i] < 0 {
			return nil, fmt.Errorf("csv: no column %q in header", c.Name)
		}
	}
	b := NewBatch(schema.Types(), 0)
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return nil, fmt.Errorf("csv: %w", err)
		}
		for i, p := range pos {
			if err := AppendParsed(b.Cols[i], rec[p]); err != nil {
				return nil, fmt.Errorf("csv line %d: column %s: %w", line, schema[i].Name, err)
			}
		}
		b.Len++
	}
}

// ReadJSONLines reads one JSON object per line into a batch of schema's columns. Missing keys
// and null are NULL; numbers, strings and booleans are converted to the column's type.
func ReadJSONLines(r io.Reader, schema Schema) (*Batch, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	b := NewBatch(schema.Types(), 0)
	for line := 1; ; line++ {
		var obj map[string]any
		if err := dec.Decode(&obj); errors.Is(err, io.EOF) {
			return b, nil
		} else if err != nil {
			return nil, fmt.Errorf("json line %d: %w", line, err)
		}
		for i, c := range schema {
			v := b.Cols[i]
			var err error
			switch x := obj[c.Name].(type) {
			case nil:
				v.AppendNull()
			case json.Number:
				err = appendNumber(v, x)
			case string:
				err = AppendParsed(v, x)
				if x == "" && v.Kind == KindBytes {
					err = nil
				}
			case bool:
				err = AppendParsed(v, strconv.FormatBool(x))
			default:
				err = fmt.Errorf("unsupported JSON value %v", x)
			}
			if err != nil {
				return nil, fmt.Errorf("json line %d: column %s: %w", line, c.Name, err)
			}
		}
		b.Len++
	}
}

func appendNumber(v *Vec, x json.Number) error {
	if v.Kind == KindFloat64 {
		f, err := x.Float64()
		if err != nil {
			return fmt.Errorf("number %s: %w", x, err)
		}
		v.AppendFloat(f)
		return nil
	}
	switch v.Type.Kind {
	case hash.KindTinyInt, hash.KindSmallInt, hash.KindInt, hash.KindBigInt:
		n, err := strconv.ParseInt(x.String(), 10, 64)
		if err != nil {
			return fmt.Errorf("number %s: %w", x, err)
		}
		v.AppendInt(n)
		return nil
	case hash.KindTimestamp, hash.KindTimestampNTZ:
		n, err := strconv.ParseInt(x.String(), 10, 64)
		if err != nil {
			return fmt.Errorf("number %s: %w", x, err)
		}
		v.AppendInt(n) // microseconds since the epoch
		return nil
	}
	return AppendParsed(v, x.String())
}

// ReadParquetFile reads the columns of schema from one Parquet file (any writer) by name.
func ReadParquetFile(path string, schema Schema) (*Batch, error) {
	t := &Table{Dir: path, Schema: schema}
	out := NewBatch(schema.Types(), 0)
	err := t.ReadFile(File{Path: path, Bucket: -1}, schema.AllColumns(), func(b *Batch) error {
		out.Append(b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
