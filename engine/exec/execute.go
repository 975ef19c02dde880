//go:build engine

package exec

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// Options configure Execute.
type Options struct {
	// Parallelism is the number of partitions run at once; 0 means GOMAXPROCS.
	Parallelism int
	// MemoryBudget caps the bytes of materialised data (shuffle buffers, hash tables, sort
	// buffers, the result); 0 means 4 GiB. Exceeding it fails with ErrMemoryBudget.
	MemoryBudget int64
}

// DefaultMemoryBudget is the budget when Options.MemoryBudget is 0.
const DefaultMemoryBudget = 4 << 30

// A Catalog maps table names to tables on disk.
type Catalog struct {
	tables map[string]*store.Table
}

// NewCatalog returns an empty catalog.
func NewCatalog() *Catalog { return &Catalog{tables: map[string]*store.Table{}} }

// Add registers a table under name (case-insensitive).
func (c *Catalog) Add(name string, t *store.Table) { c.tables[strings.ToLower(name)] = t }

// Lookup finds a table by the name a scan prints: "spark_catalog.default.t" finds a table
// added as "default.t" or "t".
func (c *Catalog) Lookup(name string) (*store.Table, bool) {
	name = strings.ToLower(name)
	for {
		if t, ok := c.tables[name]; ok {
			return t, true
		}
		_, rest, ok := strings.Cut(name, ".")
		if !ok {
			return nil, false
		}
		name = rest
	}
}

// A Column is one result column.
type Column = store.Column

// A Result is a query's rows and what running it cost.
type Result struct {
	Schema store.Schema
	// Rows are the result batches, one or more per partition, without selection vectors.
	Rows  []*store.Batch
	Stats Stats
}

// Stats describe a query run.
type Stats struct {
	// Exchanges counts the shuffle Exchanges run (not broadcasts, not reused exchanges).
	Exchanges int
	// ShuffledRows and ShuffledBytes are the rows and value bytes the Exchanges moved:
	// 8 bytes per fixed-width value plus string lengths.
	ShuffledRows, ShuffledBytes int64
	// BroadcastRows are the rows collected by BroadcastExchanges.
	BroadcastRows int64
	// PeakMemory is the largest number of budgeted bytes held at once.
	PeakMemory int64
	// Duration is the wall time of the run.
	Duration time.Duration
	// Operators has one entry per plan operator, in plan order (parents first).
	Operators []OpStats
}

// OpStats are one operator's statistics.
type OpStats struct {
	Name       string
	Partitions int
	RowsOut    int64
	// Time is the time spent in the operator and its children producing rows, summed over
	// partitions (which run in parallel, so it may exceed the wall time). Exchanges and
	// broadcasts run their children before the query starts; that time is not included.
	Time time.Duration
}

// A stage is a compiled operator: its output columns, its partition count and a way to
// open one partition's operator.
type stage struct {
	cols  schema
	parts int
	open  func(ctx context.Context, p int) (Operator, error)
	// broadcast holds a BroadcastExchange's rows, nil otherwise.
	broadcast *store.Batch
}

type opStat struct {
	name  string
	parts int
	rows  atomic.Int64
	nanos atomic.Int64
}

// executor holds what one Execute call shares.
type executor struct {
	cat   *Catalog
	par   int
	mem   *budget
	mu    sync.Mutex
	stats Stats
	ops   []*opStat
}

// Execute runs the physical plan root on the catalog's tables and returns its rows.
func Execute(ctx context.Context, root plan.Node, cat *Catalog, opt Options) (*Result, error) {
	start := time.Now()
	e := &executor{cat: cat, par: opt.Parallelism, mem: &budget{limit: opt.MemoryBudget}}
	if e.par <= 0 {
		e.par = runtime.GOMAXPROCS(0)
	}
	if e.mem.limit == 0 {
		e.mem.limit = DefaultMemoryBudget
	}
	st, err := e.compile(ctx, root)
	if err != nil {
		return nil, err
	}
	parts := make([]*store.Batch, st.parts)
	err = runParts(ctx, st.parts, e.par, func(ctx context.Context, _, p int) error {
		op, err := st.open(ctx, p)
		if err != nil {
			return err
		}
		out := store.NewBatch(st.cols.types(), 0)
		var held int64
		err = drain(ctx, op, func(b *store.Batch) error {
			out.Append(b)
			if err := e.mem.grow(&held, out.MemBytes(), "the query result"); err != nil {
				return err
			}
			return nil
		})
		parts[p] = out
		return err
	})
	if err != nil {
		return nil, err
	}
	res := &Result{Stats: e.stats}
	for _, c := range st.cols {
		res.Schema = append(res.Schema, store.Column{Name: c.Name, Type: c.Type})
	}
	for _, b := range parts {
		if b.Len > 0 {
			res.Rows = append(res.Rows, b)
		}
	}
	for _, o := range e.ops {
		res.Stats.Operators = append(res.Stats.Operators, OpStats{Name: o.name, Partitions: o.parts, RowsOut: o.rows.Load(), Time: time.Duration(o.nanos.Load())})
	}
	res.Stats.PeakMemory = e.mem.peak.Load()
	res.Stats.Duration = time.Since(start)
	return res, nil
}

// compile turns a plan node into a stage, materialising Exchanges and broadcasts on the way.
func (e *executor) compile(ctx context.Context, n plan.Node) (*stage, error) {
	stat := &opStat{name: n.Info().Name}
	e.ops = append(e.ops, stat)
	st, err := e.compileNode(ctx, n)
	if err != nil {
		return nil, err
	}
	stat.parts = st.parts
	open := st.open
	st.open = func(ctx context.Context, p int) (Operator, error) {
		op, err := open(ctx, p)
		if err != nil {
			return nil, err
		}
		return &countOp{child: op, rows: &stat.rows, nanos: &stat.nanos}, nil
	}
	return st, nil
}

// passThrough names the operators that neither change rows nor partitioning.
func passThrough(name string) bool {
	switch name {
	case "WholeStageCodegen", "InputAdapter", "ColumnarToRow", "RowToColumnar", "ShuffleQueryStage",
		"BroadcastQueryStage", "AQEShuffleRead", "CustomShuffleReader", "ResultQueryStage",
		"TableCacheQueryStage", "Coalesce", "CollectLimit":
		return true
	}
	return false
}

func (e *executor) compileNode(ctx context.Context, n plan.Node) (*stage, error) {
	switch x := n.(type) {
	case *plan.AdaptiveSparkPlan:
		if c := x.Effective(); c != nil {
			return e.compile(ctx, c)
		}
	case *plan.FileScan:
		return e.scan(x)
	case *plan.Filter:
		return e.filter(ctx, x)
	case *plan.ProjectExec:
		return e.project(ctx, x)
	case *plan.Exchange:
		return e.exchange(ctx, x, true)
	case *plan.ReusedExchange:
		if x.Reused != nil {
			if ex, ok := x.Reused.(*plan.Exchange); ok {
				return e.exchange(ctx, ex, false)
			}
			return e.compile(ctx, x.Reused)
		}
		return nil, fmt.Errorf("%s: the reused exchange is not printed in this plan", x.Pos)
	case *plan.BroadcastExchange:
		return e.broadcastExchange(ctx, x)
	case *plan.Sort:
		return e.sort(ctx, x)
	case *plan.SortMergeJoin:
		return e.join(ctx, &x.Join, x.Kids)
	case *plan.ShuffledHashJoin:
		return e.join(ctx, &x.Join, x.Kids)
	case *plan.BroadcastHashJoin:
		return e.join(ctx, &x.Join, x.Kids)
	case *plan.HashAggregate:
		return e.aggregate(ctx, &x.Aggregate, x.Kids)
	case *plan.SortAggregate:
		return e.aggregate(ctx, &x.Aggregate, x.Kids)
	case *plan.ObjectHashAggregate:
		return e.aggregate(ctx, &x.Aggregate, x.Kids)
	case *plan.Union:
		return e.union(ctx, x)
	case *plan.Window:
		return e.window(ctx, x)
	case *plan.QueryStage, *plan.ShuffleRead:
		if len(n.Children()) == 1 {
			return e.compile(ctx, n.Children()[0])
		}
	case *plan.Generic:
		if passThrough(x.Name) && len(x.Kids) == 1 {
			return e.compile(ctx, x.Kids[0])
		}
	}
	return nil, fmt.Errorf("%s: operator %s is not supported by the engine", n.Info().Pos, n.Info().Name)
}
