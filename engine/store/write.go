//go:build engine

package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/bucketlint/bucketlint/engine/hash"

	"github.com/bucketlint/bucketlint/internal/crash"
)

// WriteOptions tune Write.
type WriteOptions struct {
	// Parallelism is the number of files written at once; 0 means GOMAXPROCS.
	Parallelism int
	// FastCompression compresses pages with the fast Snappy encoder: about 1.45 times
	// cheaper to write, about 1.7 times dearer to decompress. For tables read once.
	FastCompression bool
	// Uncompressed writes pages without compression: no encoding cost and none to read them,
	// for more bytes on disk. For scratch tables read once or twice.
	Uncompressed bool
}

// fileJob is one file to write: rows of the data batch, in order.
type fileJob struct {
	task, bucket, part int
	rows               []int32
}

// Write writes data (columns in schema order, no selection vector) as a table in layout
// under dir, which must be empty or not exist (see CheckOutDir). It returns the table with
// its files. Rows are assigned to Layout.Tasks tasks in contiguous ranges, as input splits
// would; each task writes its rows grouped by partition and bucket, sorted by the sort
// columns, as Spark's FileFormatWriter does.
func Write(ctx context.Context, dir string, schema Schema, data *Batch, layout Layout, opt WriteOptions) (*Table, error) {
	if err := layout.check(schema); err != nil {
		return nil, fmt.Errorf("write %s: %w", dir, err)
	}
	if len(data.Cols) != len(schema) {
		return nil, fmt.Errorf("write %s: data has %d columns, schema %d", dir, len(data.Cols), len(schema))
	}
	if err := CheckOutDir(dir); err != nil {
		return nil, err
	}
	data = data.Compact()
	job, err := newJobID()
	if err != nil {
		return nil, err
	}
	n := data.Len
	buckets := make([]int32, n)
	if layout.Bucketed() {
		idx, _ := schema.Indexes(layout.BucketColumns)
		cols := make([]*Vec, len(idx))
		for i, c := range idx {
			cols[i] = data.Cols[c]
		}
		var h Hasher
		h.BucketsOf(layout.Bucketing, buckets, cols, n, layout.Buckets)
	}
	partIDs, partValues, err := partitionIDs(schema, data, layout.PartitionColumns)
	if err != nil {
		return nil, err
	}
	jobs := groupRows(n, layout, buckets, partIDs, len(partValues))
	if layout.Bucketed() || len(layout.PartitionColumns) > 0 {
		data = regroup(data, jobs, opt.Parallelism)
	}
	if len(layout.SortColumns) > 0 {
		sortIdx, _ := schema.Indexes(layout.SortColumns)
		parallel(len(jobs), opt.Parallelism, func(i int) { sortRows(jobs[i].rows, data, sortIdx) })
	}
	t := &Table{Dir: dir, Schema: schema, Layout: layout, Trusted: true}
	var fileCols []int
	for i, c := range schema {
		if !slices.Contains(layout.PartitionColumns, c.Name) {
			fileCols = append(fileCols, i)
		}
	}
	t.Files = make([]File, len(jobs))
	for i, j := range jobs {
		rel := BucketFileName(j.task, job, -1)
		if layout.Bucketed() {
			rel = layout.Bucketing.fileName(j.task, job, j.bucket)
		}
		f := File{Bucket: -1, Rows: int64(len(j.rows))}
		if layout.Bucketed() {
			f.Bucket = j.bucket
		}
		if len(layout.PartitionColumns) > 0 {
			f.Partition = partValues[j.part]
			sub := filepath.Join(dir, partitionPath(layout.PartitionColumns, f.Partition))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return nil, fmt.Errorf("write %s: %w", dir, err)
			}
			rel = filepath.Join(partitionPath(layout.PartitionColumns, f.Partition), rel)
		}
		f.Path = filepath.Join(dir, rel)
		t.Files[i] = f
	}
	if err := writeFiles(ctx, t, data, fileCols, jobs, opt); err != nil {
		return nil, err
	}
	return t, nil
}

// groupRows spreads rows over tasks and, within each task, groups them by partition and
// bucket (a counting sort on partition*buckets+bucket), keeping input order inside a group.
func groupRows(n int, layout Layout, buckets, partIDs []int32, parts int) []fileJob {
	tasks := max(layout.Tasks, 1)
	nb := max(layout.Buckets, 1)
	groups := max(parts, 1) * nb
	var jobs []fileJob
	counts := make([]int32, groups+1)
	for task := range tasks {
		lo, hi := task*n/tasks, (task+1)*n/tasks
		clear(counts)
		for r := lo; r < hi; r++ {
			counts[key(r, buckets, partIDs, nb)+1]++
		}
		for g := 1; g <= groups; g++ {
			counts[g] += counts[g-1]
		}
		order := make([]int32, hi-lo)
		pos := slices.Clone(counts)
		for r := lo; r < hi; r++ {
			k := key(r, buckets, partIDs, nb)
			order[pos[k]] = int32(r)
			pos[k]++
		}
		for g := range groups {
			if counts[g+1] > counts[g] {
				jobs = append(jobs, fileJob{task: task, bucket: g % nb, part: g / nb, rows: order[counts[g]:counts[g+1]]})
			}
		}
	}
	return jobs
}

func key(r int, buckets, partIDs []int32, nb int) int {
	k := int(buckets[r])
	if partIDs != nil {
		k += int(partIDs[r]) * nb
	}
	return k
}

// regroup copies data into file order, so that each job's rows are contiguous and files
// are filled by sequential reads: the fixed-width columns are scattered with sequential
// reads (one write stream per file), which is far cheaper than gathering each file's
// rows from all over the columns. It rewrites the jobs' row lists to the new positions.
func regroup(data *Batch, jobs []fileJob, workers int) *Batch {
	n := data.Len
	perm := make([]int32, 0, n)
	for _, j := range jobs {
		perm = append(perm, j.rows...)
	}
	dest := make([]int32, n)
	for i, r := range perm {
		dest[r] = int32(i)
	}
	out := &Batch{Len: n, Cols: make([]*Vec, len(data.Cols))}
	parallel(len(data.Cols), workers, func(c int) {
		src := data.Cols[c]
		v := &Vec{Type: src.Type, Kind: src.Kind}
		switch src.Kind {
		case KindInt64:
			v.Ints = make([]int64, n)
			for r, x := range src.Ints[:n] {
				v.Ints[dest[r]] = x
			}
		case KindFloat64:
			v.Floats = make([]float64, n)
			for r, x := range src.Floats[:n] {
				v.Floats[dest[r]] = x
			}
		case KindInt128:
			v.Wide = make([]hash.Int128, n)
			for r, x := range src.Wide[:n] {
				v.Wide[dest[r]] = x
			}
		case KindBytes:
			v.Offsets = make([]int32, 1, n+1)
			v.AppendRows(src, perm)
		}
		if src.Nulls != nil && src.Kind != KindBytes {
			for r := range n {
				if src.IsNull(r) {
					v.markNull(int(dest[r]))
				}
			}
		}
		out.Cols[c] = v
	})
	seq := make([]int32, n)
	for i := range seq {
		seq[i] = int32(i)
	}
	start := 0
	for i := range jobs {
		end := start + len(jobs[i].rows)
		jobs[i].rows = seq[start:end]
		start = end
	}
	return out
}

// sortRows sorts rows by the columns cols, ascending with NULLs first.
func sortRows(rows []int32, data *Batch, cols []int) {
	if c := data.Cols[cols[0]]; len(cols) == 1 && c.Kind == KindInt64 && c.Nulls == nil {
		keys := make([]int64, len(rows))
		for i, r := range rows {
			keys[i] = c.Ints[r]
		}
		SortInt64Pairs(keys, rows)
		return
	}
	slices.SortStableFunc(rows, func(a, b int32) int {
		for _, c := range cols {
			if d := Compare(data.Cols[c], int(a), data.Cols[c], int(b)); d != 0 {
				return d
			}
		}
		return 0
	})
}

// partitionIDs numbers the distinct partition values of every row in order of appearance.
func partitionIDs(schema Schema, data *Batch, cols []string) ([]int32, [][]string, error) {
	if len(cols) == 0 {
		return nil, nil, nil
	}
	idx, err := schema.Indexes(cols)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]int32, data.Len)
	seen := map[string]int32{}
	var values [][]string
	var buf []byte
	for r := range data.Len {
		buf = buf[:0]
		vals := make([]string, len(idx))
		for i, c := range idx {
			start := len(buf)
			if data.Cols[c].IsNull(r) {
				buf = append(buf, HiveDefaultPartition...)
			} else {
				buf = AppendText(buf, data.Cols[c], r)
			}
			vals[i] = string(buf[start:])
			buf = append(buf, 0)
		}
		id, ok := seen[string(buf)]
		if !ok {
			id = int32(len(values))
			seen[string(buf)] = id
			values = append(values, vals)
		}
		ids[r] = id
	}
	return ids, values, nil
}

// writeFiles writes the jobs' files in parallel.
func writeFiles(ctx context.Context, t *Table, data *Batch, cols []int, jobs []fileJob, opt WriteOptions) error {
	par := opt.Parallelism
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	errs := make(chan error, par)
	var wg sync.WaitGroup
	for range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer crash.Catch(func(err error) { // as a write error: report, then drain
				errs <- err
				for range next {
				}
			})
			crash.Point("store.write")
			w, err := newFileWriter(t.Schema, cols, snappyCodec{fast: opt.FastCompression})
			if err != nil {
				errs <- err
				for range next {
				}
				return
			}
			w.uncompressed = opt.Uncompressed
			for i := range next {
				if err := w.write(t.Files[i].Path, data, jobs[i].rows); err != nil {
					errs <- err
					for range next {
					}
					return
				}
			}
		}()
	}
	var err error
feed:
	for i := range jobs {
		select {
		case next <- i:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	close(errs)
	if err != nil {
		return fmt.Errorf("write %s: %w", t.Dir, err)
	}
	if e, ok := <-errs; ok {
		return fmt.Errorf("write %s: %w", t.Dir, e)
	}
	return nil
}
