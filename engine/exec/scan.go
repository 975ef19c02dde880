//go:build engine

package exec

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"

	"github.com/bucketlint/bucketlint/internal/crash"
)

// opErr formats an error about operator n, prefixed with its position when it has one.
func opErr(n plan.Node, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if p := n.Info().Pos; p.IsValid() {
		return fmt.Errorf("%s: %s: %s", p, n.Info().Name, msg)
	}
	return fmt.Errorf("%s: %s", n.Info().Name, msg)
}

// scan compiles a FileScan. A bucketed scan (Bucketed: true, or a printed bucket count on
// Spark versions that do not print Bucketed) has one partition per bucket, reading every file
// of that bucket, as FileSourceScanExec.createBucketedReadRDD does; with "Coalesced to m",
// partition i reads buckets i, i+m, …. Any other scan has one partition per file. Equality
// and IN data filters on the bucket column prune buckets, partition filters prune
// partition directories.
func (e *executor) scan(x *plan.FileScan) (*stage, error) {
	t, ok := e.cat.Lookup(x.Table)
	if !ok {
		return nil, opErr(x, "table %q is not in the catalog", x.Table)
	}
	cols := make([]int, len(x.Output))
	st := &stage{cols: make(schema, len(x.Output))}
	for i, o := range x.Output {
		name, id := attrOf(o)
		c := t.Schema.Index(name)
		if c < 0 {
			return nil, opErr(x, "table %s has no column %s", x.Table, name)
		}
		cols[i] = c
		st.cols[i] = column{Name: name, ID: id, Type: t.Schema[c].Type}
	}
	bucketed := x.TotalBuckets > 0
	if x.Bucketed != nil {
		bucketed = *x.Bucketed
	}
	if bucketed && !t.Layout.Bucketed() {
		return nil, opErr(x, "the plan reads %s as bucketed but its layout has no buckets", x.Table)
	}
	if bucketed && t.Layout.Bucketing == store.HiveBucketing {
		// Its files hold HiveHash buckets: pruning or co-partitioning them as Spark's
		// Murmur3 buckets would drop or mismatch rows.
		return nil, opErr(x, "the plan reads %s as bucketed but its files use Hive's bucketing (HiveHash), which Spark never reads with a bucketed scan", x.Table)
	}
	parts, err := e.newPartitionPruner(x, t)
	if err != nil {
		return nil, err
	}
	var groups [][]store.File
	switch {
	case bucketed:
		n := t.Layout.Buckets
		if x.CoalescedTo > 0 {
			n = x.CoalescedTo
		}
		keep, err := e.prunedBuckets(x, t)
		if err != nil {
			return nil, err
		}
		groups = make([][]store.File, n)
		for _, f := range t.Files {
			// Spark never reads ids >= numBuckets; pruned buckets stay as empty partitions.
			if f.Bucket >= t.Layout.Buckets || (keep != nil && !slices.Contains(keep, f.Bucket)) {
				continue
			}
			if ok, err := parts.keep(f); err != nil {
				return nil, opErr(x, "%v", err)
			} else if ok {
				groups[f.Bucket%n] = append(groups[f.Bucket%n], f)
			}
		}
	default:
		if _, err := e.prunedBuckets(x, t); err != nil {
			return nil, err
		}
		for _, f := range t.Files {
			if ok, err := parts.keep(f); err != nil {
				return nil, opErr(x, "%v", err)
			} else if ok {
				groups = append(groups, []store.File{f})
			}
		}
		if len(groups) == 0 {
			groups = [][]store.File{nil}
		}
	}
	st.parts = len(groups)
	// Partitions read one after another (or one per worker) take their reader from a pool:
	// a bucket is often one file of one row group, and a fresh reader per partition would
	// allocate and clear new vectors and decoding buffers for every one.
	readers := &sync.Pool{New: func() any { return t.NewReader() }}
	st.open = func(_ context.Context, p int) (Operator, error) {
		return &scanOp{table: t, files: groups[p], cols: cols, readers: readers}, nil
	}
	return st, nil
}

// scanOp reads the files of one partition, one row group per batch.
type scanOp struct {
	table *store.Table
	files []store.File
	cols  []int
	// readers holds the stage's idle readers; reader is taken from it and put back by Close.
	readers *sync.Pool
	reader  *store.Reader
	ch      chan *store.Batch
	errc    chan error
	stop    chan struct{}
}

func (s *scanOp) Next(ctx context.Context) (*store.Batch, error) {
	if s.ch == nil {
		s.start()
	}
	select {
	case b, ok := <-s.ch:
		if ok {
			return b, nil
		}
		if err := <-s.errc; err != nil {
			return nil, err
		}
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// start reads files in a goroutine one batch ahead, so decoding overlaps the consumer.
// Each batch handed over is fresh (store.ReadFile does not reuse them).
func (s *scanOp) start() {
	s.ch = make(chan *store.Batch, 1)
	s.errc = make(chan error, 1)
	s.stop = make(chan struct{})
	r := s.readers.Get().(*store.Reader)
	s.reader = r
	go func() {
		defer close(s.ch)
		defer crash.Catch(func(err error) { s.errc <- err }) // errc is sent once, at the end
		crash.Point("exec.scan")
		for _, f := range s.files {
			err := r.ReadFile(f, s.cols, func(b *store.Batch) error {
				select {
				case s.ch <- b:
					return nil
				case <-s.stop:
					return errStopped
				}
			})
			if err != nil {
				if err != errStopped { //nolint:errorlint // sentinel created here, never wrapped
					s.errc <- err
				} else {
					s.errc <- nil
				}
				return
			}
		}
		s.errc <- nil
	}()
}

// recycle hands a batch this scan returned back to its reader (see recycler).
func (s *scanOp) recycle(b *store.Batch) {
	if s.reader != nil {
		s.reader.Recycle(b)
	}
}

func (s *scanOp) Close() error {
	if s.stop != nil {
		close(s.stop)
		for range s.ch {
		}
		s.stop = nil
	}
	if s.reader != nil { // its goroutine has ended: s.ch is closed
		s.readers.Put(s.reader)
		s.reader = nil
	}
	return nil
}
