//go:build engine

package verify

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// defaultRows is the generated row count when neither TableData nor Options say.
const defaultRows = 100_000

// partitionCardinality is the default number of distinct values of a generated partition
// column: a few directories, not one per row.
const partitionCardinality = 3

// schemaOf returns the store schema of a table: its columns whose types the store holds, in
// DDL order. Other columns (maps, structs, wide decimals) are left out unless they are key
// columns; a query that reads one fails to run, naming it.
func schemaOf(t *plan.Table) (store.Schema, error) {
	var s store.Schema
	for _, c := range t.Columns {
		typ, err := hash.ParseType(c.Type)
		if err == nil {
			_, err = store.KindOf(typ)
		}
		if err != nil {
			if isKeyColumn(t, c.Name) {
				return nil, fmt.Errorf("table %s: column %s %s: %w", t.Name, c.Name, c.Type, err)
			}
			continue
		}
		s = append(s, store.Column{Name: c.Name, Type: typ})
	}
	for _, p := range t.PartitionColumns {
		if s.Index(p) < 0 {
			return nil, fmt.Errorf("table %s: partition column %s has no declared type", t.Name, p)
		}
	}
	if len(s) == 0 {
		return nil, fmt.Errorf("table %s: no column the engine can store", t.Name)
	}
	return s, nil
}

// isKeyColumn reports whether name is a bucket, sort or partition column of t.
func isKeyColumn(t *plan.Table, name string) bool {
	in := func(list []string) bool {
		for _, c := range list {
			if strings.EqualFold(c, name) {
				return true
			}
		}
		return false
	}
	if in(t.PartitionColumns) {
		return true
	}
	return t.Buckets() != nil && (in(t.Buckets().Columns) || in(t.Buckets().SortColumns))
}

// loadData returns the rows of table t in schema s: read from d.Path or generated. Generated
// columns without a Start begin at the literal the query compares them with (auto), so that
// a filter such as day = DATE'2024-06-30' keeps rows.
func loadData(ctx context.Context, t *plan.Table, s store.Schema, d TableData, w *warehouse, auto map[string]string) (*store.Batch, error) {
	opt := w.opt
	if d.Path != "" {
		return readFixture(d.Path, s)
	}
	rows := d.Rows
	if rows <= 0 {
		rows = opt.Rows
	}
	if rows <= 0 {
		rows = defaultRows
	}
	h := fnv.New64a()
	h.Write([]byte(t.Name))
	g := store.GenSpec{Rows: rows, Seed: opt.Seed ^ h.Sum64()}
	starts := make([]string, len(s))
	for i, c := range s {
		cg := lookupGen(d.Columns, c.Name)
		card := cg.Cardinality
		if card == 0 && containsFold(t.PartitionColumns, c.Name) {
			card = partitionCardinality
		}
		g.Columns = append(g.Columns, store.GenColumn{Name: c.Name, Type: c.Type, Cardinality: card, Zipf: cg.Zipf, NullFraction: cg.NullFraction})
		starts[i] = cg.Start
		if lit, ok := auto[strings.ToLower(c.Name)]; ok && cg.Start == "" && fitsStart(c.Type, lit) {
			starts[i] = lit
		}
	}
	est, err := g.EstimateBytes()
	if err != nil {
		return nil, fmt.Errorf("generating %s: %w", t.Name, err)
	}
	if err := w.charge(t.Name, est, fmt.Sprintf("%d generated rows", rows)); err != nil {
		return nil, err
	}
	b, err := store.GenerateContext(ctx, g)
	if err != nil {
		return nil, fmt.Errorf("generating %s: %w", t.Name, err)
	}
	for i, st := range starts {
		if st == "" {
			continue
		}
		if err := shift(b.Cols[i], st); err != nil {
			return nil, fmt.Errorf("generating %s.%s: %w", t.Name, s[i].Name, err)
		}
	}
	return b, nil
}

func lookupGen(m map[string]ColumnGen, name string) ColumnGen {
	for k, v := range m {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ColumnGen{}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// shift moves generated values so that they start at start.
func shift(v *store.Vec, start string) error {
	var delta int64
	switch v.Type.Kind {
	case hash.KindDate, hash.KindTimestamp, hash.KindTimestampNTZ:
		d, err := time.Parse(time.DateOnly, start)
		if err != nil {
			return fmt.Errorf("start %q: want a date such as 2024-06-28", start)
		}
		days := int64(d.Sub(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)) / (24 * time.Hour))
		delta = days
		if v.Type.Kind != hash.KindDate {
			delta = days * 86_400_000_000
		}
	case hash.KindTinyInt, hash.KindSmallInt, hash.KindInt, hash.KindBigInt:
		n, err := strconv.ParseInt(start, 10, 64)
		if err != nil {
			return fmt.Errorf("start %q: want an integer", start)
		}
		delta = n
	default:
		return fmt.Errorf("start applies to dates, timestamps and integers, not %s", v.Type)
	}
	for i := range v.Ints {
		if !v.IsNull(i) {
			v.Ints[i] += delta
		}
	}
	return nil
}

// queryStarts returns, for table, the literal each of its columns is compared with in the
// query's WHERE clause (col = lit or col IN (lit, …), first literal), its value without a
// DATE or TIMESTAMP keyword or quotes.
func queryStarts(q *plan.Query, table string) map[string]string {
	out := map[string]string{}
	if q == nil || q.Root == nil || q.Root.Select == nil {
		return out
	}
	for _, f := range q.Root.Select.Filters {
		if !strings.EqualFold(f.Column.Table, table) || f.Column.Column == "" || f.Column.Cast != "" || len(f.ValuesX) == 0 {
			continue
		}
		v := f.ValuesX[0]
		if v == nil || v.Op != plan.OpLiteral {
			continue
		}
		if _, ok := out[strings.ToLower(f.Column.Column)]; !ok {
			out[strings.ToLower(f.Column.Column)] = v.Value
		}
	}
	return out
}

// fitsStart reports whether lit can start the generated values of a column of type t.
func fitsStart(t hash.Type, lit string) bool {
	switch t.Kind {
	case hash.KindDate, hash.KindTimestamp, hash.KindTimestampNTZ:
		_, err := time.Parse(time.DateOnly, lit)
		return err == nil
	case hash.KindTinyInt, hash.KindSmallInt, hash.KindInt, hash.KindBigInt:
		_, err := strconv.ParseInt(lit, 10, 64)
		return err == nil
	}
	return false
}

// readFixture reads a fixture file of the table's columns.
func readFixture(path string, s store.Schema) (*store.Batch, error) {
	if strings.EqualFold(filepath.Ext(path), ".parquet") {
		b, err := store.ReadParquetFile(path, s)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		return b, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading fixture: %w", err)
	}
	defer f.Close()
	var b *store.Batch
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		b, err = store.ReadCSV(f, s)
	case ".json", ".jsonl", ".ndjson":
		b, err = store.ReadJSONLines(f, s)
	default:
		return nil, fmt.Errorf("fixture %s: want .csv, .json, .jsonl, .ndjson or .parquet", path)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return b, nil
}

// retype returns data (in schema from) as schema to: the same vectors, with key columns
// widened where the advice casts them. Only changes within one physical kind are allowed
// (int → bigint, date → date); anything else would need a conversion the advice did not ask
// for.
func retype(data *store.Batch, from, to store.Schema) (*store.Batch, error) {
	out := &store.Batch{Len: data.Len}
	for _, c := range to {
		i := from.Index(c.Name)
		if i < 0 {
			return nil, fmt.Errorf("column %s is not in the data", c.Name)
		}
		v := data.Cols[i]
		if v.Type != c.Type {
			k, err := store.KindOf(c.Type)
			if err != nil || k != v.Kind || !integral(v.Type) || !integral(c.Type) {
				return nil, fmt.Errorf("column %s: cannot rewrite %s as %s", c.Name, v.Type, c.Type)
			}
			cp := *v
			cp.Type = c.Type
			v = &cp
		}
		out.Cols = append(out.Cols, v)
	}
	return out, nil
}

func integral(t hash.Type) bool {
	switch t.Kind {
	case hash.KindTinyInt, hash.KindSmallInt, hash.KindInt, hash.KindBigInt:
		return true
	}
	return false
}
