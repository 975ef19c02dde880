//go:build engine

package store

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

const (
	// rowGroupRows caps a row group (Spark's own writer cuts them at 128 MiB).
	rowGroupRows = 1 << 20
	// pageSize caps the PLAIN values of a data page: Spark's writer's parquet.page.size,
	// 1 MiB (pages of 256 KiB made the bucket-local join benchmark about 5% slower to read,
	// 64 KiB pages 10%).
	pageSize = 1 << 20
)

// fileWriter writes rows of a batch into Parquet files, column chunk by column chunk, with no
// per-value step between the vectors and the page bytes: v1 data pages, PLAIN values, RLE
// definition levels, Snappy, chunk statistics. The schema part of the footer (schema
// elements, column orders, created_by) is parquet-go's own, taken once from an empty file it
// writes for the schema, so the files describe their columns exactly as before.
type fileWriter struct {
	meta  format.FileMetaData // schema, version, created_by, column orders; no rows
	cols  []int               // batch column of each leaf column, in the file's leaf order
	types []format.Type
	fixed []int // FIXED_LEN_BYTE_ARRAY lengths
	paths [][]string
	codec snappyCodec
	// uncompressed leaves pages uncompressed instead of using codec.
	uncompressed bool
	enc          pageEncoder
	hdr          []byte
}

func newFileWriter(s Schema, cols []int, codec snappyCodec) (*fileWriter, error) {
	ps, leaf, err := parquetSchema(s, cols)
	if err != nil {
		return nil, err
	}
	var empty bytes.Buffer
	pw := parquet.NewGenericWriter[any](&empty, ps, parquet.CreatedBy("bucketlint", "0", ""))
	if err := pw.Close(); err != nil {
		return nil, fmt.Errorf("internal error: parquet schema: %w", err)
	}
	pf, err := parquet.OpenFile(bytes.NewReader(empty.Bytes()), int64(empty.Len()))
	if err != nil {
		return nil, fmt.Errorf("internal error: parquet schema: %w", err)
	}
	m := pf.Metadata()
	w := &fileWriter{codec: codec, meta: format.FileMetaData{
		Version: m.Version, Schema: m.Schema, KeyValueMetadata: m.KeyValueMetadata,
		CreatedBy: m.CreatedBy, ColumnOrders: m.ColumnOrders,
	}}
	w.cols = make([]int, len(cols))
	w.types = make([]format.Type, len(cols))
	w.fixed = make([]int, len(cols))
	w.paths = make([][]string, len(cols))
	for i, c := range cols {
		j := leaf[i]
		lc, _ := ps.Lookup(s[c].Name)
		w.cols[j] = c
		w.types[j] = format.Type(lc.Node.Type().Kind())
		w.fixed[j] = lc.Node.Type().Length()
		w.paths[j] = lc.Path
	}
	return w, nil
}

// countWriter counts the bytes written through it: the file offset.
type countWriter struct {
	w   *bufio.Writer
	off int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.off += int64(n)
	return n, err
}

// write creates path (which must not exist) and writes rows of b in the given order, in
// row groups of at most rowGroupRows rows.
func (w *fileWriter) write(path string, b *Batch, rows []int32) (err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	defer func() {
		if cerr := f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close %s: %w", path, cerr)
		}
	}()
	out := &countWriter{w: bufio.NewWriterSize(f, 1<<20)}
	if _, err := io.WriteString(out, "PAR1"); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	meta := w.meta
	meta.NumRows = int64(len(rows))
	for start := 0; start < len(rows); start += rowGroupRows {
		group := rows[start:min(start+rowGroupRows, len(rows))]
		rg := format.RowGroup{NumRows: int64(len(group)), FileOffset: out.off, Ordinal: int16(len(meta.RowGroups))}
		for j, c := range w.cols {
			cc, err := w.writeChunk(out, b.Cols[c], group, j)
			if err != nil {
				return fmt.Errorf("write %s: %w", path, err)
			}
			rg.Columns = append(rg.Columns, cc)
			rg.TotalByteSize += cc.MetaData.TotalUncompressedSize
			rg.TotalCompressedSize += cc.MetaData.TotalCompressedSize
		}
		meta.RowGroups = append(meta.RowGroups, rg)
	}
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &meta)
	if err != nil {
		return fmt.Errorf("write %s: footer: %w", path, err)
	}
	footer = binary.LittleEndian.AppendUint32(footer, uint32(len(footer)))
	footer = append(footer, "PAR1"...)
	if _, err := out.Write(footer); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := out.w.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeChunk writes rows of v as the column chunk of leaf j and returns its metadata.
func (w *fileWriter) writeChunk(out *countWriter, v *Vec, rows []int32, j int) (format.ColumnChunk, error) {
	t, fixed := w.types[j], w.fixed[j]
	md := format.ColumnMetaData{
		Type: t, Encoding: []format.Encoding{format.Plain, format.RLE}, PathInSchema: w.paths[j],
		Codec: format.Snappy, NumValues: int64(len(rows)), DataPageOffset: out.off,
	}
	if w.uncompressed {
		md.Codec = format.Uncompressed
	}
	var stats chunkStats
	width := plainWidth(t, fixed)
	for len(rows) > 0 {
		n := pageRows(v, rows, width)
		page := rows[:n]
		rows = rows[n:]
		body, nulls := w.enc.encode(v, page, t, fixed)
		stats.add(v, page, t)
		comp := body
		if !w.uncompressed {
			var err error
			if comp, err = w.codec.Encode(w.enc.comp, body); err != nil {
				return format.ColumnChunk{}, err
			}
			w.enc.comp = comp
		}
		h := format.PageHeader{
			Type: format.DataPage, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(comp)),
			DataPageHeader: thrift.New(format.DataPageHeader{
				NumValues: int32(n), Encoding: format.Plain,
				DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
				Statistics: format.Statistics{NullCount: int64(nulls)},
			}),
		}
		var err error
		w.hdr, err = thrift.Marshal(new(thrift.CompactProtocol), &h)
		if err != nil {
			return format.ColumnChunk{}, err
		}
		if _, err := out.Write(w.hdr); err != nil {
			return format.ColumnChunk{}, err
		}
		if _, err := out.Write(comp); err != nil {
			return format.ColumnChunk{}, err
		}
		md.TotalUncompressedSize += int64(len(w.hdr) + len(body))
		md.TotalCompressedSize += int64(len(w.hdr) + len(comp))
	}
	md.Statistics = stats.statistics(t, fixed)
	return format.ColumnChunk{FileOffset: md.DataPageOffset, MetaData: md}, nil
}
