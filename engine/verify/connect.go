//go:build engine

package verify

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/bucketlint/bucketlint/engine/exec"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// ConnectOptions configure RunConnect.
type ConnectOptions struct {
	// Remote is the Spark Connect URL, "sc://host:15002".
	Remote string
	// Sim are the Spark version and confs simulated; the confs are also set on the session.
	Sim simulate.Options
	// SamplePercent, when in (0, 100), verifies on a TABLESAMPLE of each table the query
	// reads instead of all of it: the sample is copied once and both sides read the copy.
	SamplePercent float64
	// Progress, when set, is told what is being done; Done and Total count scenarios.
	Progress func(Progress)
	// ParseExplain reads Spark's EXPLAIN output into its physical plan, whose shuffle
	// Exchanges are counted. The engine parses no text: the caller passes parser/explain.
	ParseExplain func(text string) (plan.Node, error)
	// session, when set, is used instead of dialling Remote (tests).
	session sqlSession
}

// scratchPrefix starts the name of the database RunConnect creates and drops.
const scratchPrefix = "bucketlint_scratch_"

// RunConnect verifies each scenario on the tables of a Spark reached over Spark Connect,
// with SQL only and without writing to them: it copies the tables whose layout the advice
// changes into a scratch database (CREATE TABLE … USING parquet CLUSTERED BY … INTO n
// BUCKETS AS SELECT …), explains the query on the original tables and on the copies
// (counting the shuffle Exchanges), compares the order-independent checksums of both
// results (checksumSQL) and drops everything it created, also when it fails. Results have
// Engine "spark-connect". A scenario that cannot be run gets Error set; RunConnect fails
// when the session or the scratch database cannot be had, or ctx ends.
func RunConnect(ctx context.Context, scenarios []Scenario, opt ConnectOptions) (results []Result, err error) {
	defer func() {
		// The URL may carry a token (sc://host/;token=…): no message or error shows it.
		err = redactErr(err, opt.Remote)
		for i := range results {
			r := &results[i]
			r.Error, r.Diff = redactText(r.Error, opt.Remote), redactText(r.Diff, opt.Remote)
			for j := range r.Notes {
				r.Notes[j] = redactText(r.Notes[j], opt.Remote)
			}
		}
	}()
	s := opt.session
	if s == nil {
		if s, err = dialConnect(ctx, opt.Remote); err != nil {
			return nil, err
		}
	}
	defer func() {
		if cerr := s.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("spark connect: closing the session: %w", cerr)
		}
	}()
	c := &connectRun{s: s, opt: opt, scratch: scratchPrefix + randomSuffix(), total: len(scenarios)}
	if err := c.setup(ctx); err != nil {
		return nil, err
	}
	defer func() {
		if derr := c.dropAll(ctx); derr != nil {
			err = errors.Join(err, derr)
		}
	}()
	for i := range scenarios {
		sc := &scenarios[i]
		c.done = i
		r, err := c.run(ctx, sc)
		if err != nil {
			if ctx.Err() != nil {
				return results, fmt.Errorf("verify %s: %w", sc.Name, err)
			}
			er := errorResult(sc, err, "spark-connect")
			r = &er
		}
		results = append(results, *r)
	}
	return results, nil
}

// connectRun is one RunConnect: the session, the scratch database and what was created in
// it, so that all of it is dropped.
type connectRun struct {
	s       sqlSession
	opt     ConnectOptions
	scratch string
	created []string
	// notes are the workload confs the session refused (static ones), told in every result.
	notes []string
	// done and total count the scenarios, for Progress.
	done, total int
}

func randomSuffix() string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

func (c *connectRun) progress(scenario, format string, args ...any) {
	if c.opt.Progress != nil {
		c.opt.Progress(Progress{Done: c.done, Total: c.total, Scenario: scenario, Msg: fmt.Sprintf(format, args...)})
	}
}

// setup sets the session confs (broadcast joins off, so the joins under test shuffle or
// not by layout alone; the workload's Spark SQL planner confs where the session takes them,
// PlannerConfs) and creates the scratch database.
func (c *connectRun) setup(ctx context.Context) error {
	const broadcast = simulate.ConfBroadcastThreshold
	if _, err := c.s.SQL(ctx, "SET "+broadcast+"=-1"); err != nil {
		return fmt.Errorf("spark connect %s: SET %s: %w", RedactRemote(c.opt.Remote), broadcast, err)
	}
	confs, notes := sessionConfs(c.opt.Sim.Confs)
	c.notes = append(c.notes, notes...)
	for _, k := range slices.Sorted(maps.Keys(confs)) {
		if _, err := c.s.SQL(ctx, fmt.Sprintf("SET %s=%s", k, confs[k])); err != nil {
			if ctx.Err() != nil {
				return err
			}
			c.notes = append(c.notes, fmt.Sprintf("%s=%s is not set on the session (a static conf?): %s", k, confs[k], firstLineOf(err.Error())))
		}
	}
	if _, err := c.s.SQL(ctx, createScratchSQL(c.scratch)); err != nil {
		return fmt.Errorf("spark connect %s: %w", RedactRemote(c.opt.Remote), err)
	}
	return nil
}

func createScratchSQL(db string) string { return "CREATE DATABASE IF NOT EXISTS " + quoteIdent(db) }

func dropScratchSQL(db string) string {
	return "DROP DATABASE IF EXISTS " + quoteIdent(db) + " CASCADE"
}

func dropTableSQL(name string) string { return "DROP TABLE IF EXISTS " + name }

// dropAll drops the tables created so far and the scratch database, with a context that
// outlives a cancelled ctx by up to a minute.
func (c *connectRun) dropAll(ctx context.Context) error {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	errs := []error{c.dropTables(dctx)}
	if _, err := c.s.SQL(dctx, dropScratchSQL(c.scratch)); err != nil {
		errs = append(errs, fmt.Errorf("dropping %s: %w", c.scratch, err))
	}
	return errors.Join(errs...)
}

// dropCreated drops the tables one scenario created, with a context that outlives a
// cancelled ctx by up to a minute.
func (c *connectRun) dropCreated(ctx context.Context) error {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	return c.dropTables(dctx)
}

// dropTables drops the tables created so far and forgets them.
func (c *connectRun) dropTables(ctx context.Context) error {
	var errs []error
	for _, t := range c.created {
		if _, err := c.s.SQL(ctx, dropTableSQL(t)); err != nil {
			errs = append(errs, fmt.Errorf("dropping %s: %w", t, err))
		}
	}
	c.created = nil
	return errors.Join(errs...)
}

// A copyPlan is the scratch SQL of one scenario: the copies to create, in order, and the
// query of each side.
type copyPlan struct {
	creates       []string // CREATE TABLE … AS SELECT statements
	names         []string // the tables they create
	before, after string
	layout        map[string]Layout
	// inputs are the tables the before side reads (the user's tables, or their samples),
	// by the user's table name.
	inputs map[string]string
}

// planCopies writes the scratch SQL of a scenario whose query reads tables (the names its
// scans print). Tables whose spec the advice changes are copied with the advised layout
// into the scratch database; with a sample, every table is first copied (as it is) from
// a TABLESAMPLE into a second scratch database, which both sides then read.
func planCopies(scratch string, sc *Scenario, tables []string, percent float64) (*copyPlan, error) {
	p := &copyPlan{layout: map[string]Layout{}, inputs: map[string]string{}}
	sampled := percent > 0 && percent < 100
	beforeTo, afterTo := map[string]string{}, map[string]string{}
	short := map[string]string{}
	for _, name := range tables {
		before, after := lookupTable(sc.Before, name), lookupTable(sc.After, name)
		if before == nil || after == nil {
			return nil, fmt.Errorf("the plan reads %s, which no DDL declares", name)
		}
		last := before.Name[strings.LastIndex(before.Name, ".")+1:]
		if other, dup := short[last]; dup && other != before.Name {
			return nil, fmt.Errorf("tables %s and %s would have the same scratch name %s", other, before.Name, last)
		}
		short[last] = before.Name
		source := quoteTable(before.Name)
		if sampled {
			sample := quoteIdent(scratch+"_sample") + "." + quoteIdent(last)
			p.creates = append(p.creates, ctasSQL(sample, sampleSource(source, percent), nil, before))
			p.names = append(p.names, sample)
			beforeTo[before.Name], afterTo[before.Name] = sample, sample
			source = sample
		}
		p.inputs[before.Name] = source
		if sameSpec(before, after) {
			continue
		}
		copyName := quoteIdent(scratch) + "." + quoteIdent(last)
		p.creates = append(p.creates, ctasSQL(copyName, source, before, after))
		p.names = append(p.names, copyName)
		afterTo[before.Name] = copyName
		p.layout[after.Name] = layoutOf(before, after)
	}
	if len(p.layout) == 0 {
		return nil, errors.New("the advice changes no table the query reads")
	}
	var err error
	if p.before, err = selectSQL(sc.Query, beforeTo); err != nil {
		return nil, err
	}
	if p.after, err = selectSQL(sc.Query, afterTo); err != nil {
		return nil, err
	}
	return p, nil
}

// run verifies one scenario and drops its copies.
func (c *connectRun) run(ctx context.Context, sc *Scenario) (r *Result, err error) {
	if sc.Query == nil {
		return nil, errors.New("no query")
	}
	var predicted [2]int
	var tables []string
	for side, cat := range []map[string]*plan.Table{sc.Before, sc.After} {
		sim, err := simulate.Simulate(cat, sc.Query, sc.simOptions(c.opt.Sim, side))
		if err != nil {
			return nil, fmt.Errorf("simulating %s: %w", sideName(side), err)
		}
		predicted[side] = sim.Exchanges
		if side == 1 {
			tables = scannedTables(sim.Plan)
		}
	}
	p, err := planCopies(c.scratch, sc, tables, c.opt.SamplePercent)
	if err != nil {
		return nil, err
	}
	if c.opt.SamplePercent > 0 && c.opt.SamplePercent < 100 {
		if _, err := c.s.SQL(ctx, createScratchSQL(c.scratch+"_sample")); err != nil {
			return nil, err
		}
		defer func() {
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			defer cancel()
			if _, derr := c.s.SQL(dctx, dropScratchSQL(c.scratch+"_sample")); derr != nil {
				err = errors.Join(err, derr)
			}
		}()
	}
	defer func() { // runs before the sample database is dropped
		if derr := c.dropCreated(ctx); derr != nil {
			err = errors.Join(err, derr)
		}
	}()
	for i, q := range p.creates {
		c.progress(sc.Name, "copying into %s", p.names[i])
		c.created = append(c.created, p.names[i])
		if _, err := c.s.SQL(ctx, q); err != nil {
			return nil, fmt.Errorf("creating %s: %w", p.names[i], err)
		}
	}
	r = &Result{Name: sc.Name, Query: strings.TrimSpace(sc.Query.Text), Layout: p.layout, InputRows: map[string]int64{}, Engine: "spark-connect"}
	for _, name := range slices.Sorted(maps.Keys(p.inputs)) {
		rows, err := c.s.SQL(ctx, "SELECT count(*) FROM "+p.inputs[name])
		if err != nil {
			return nil, fmt.Errorf("counting %s: %w", name, err)
		}
		if n, ok := firstInt(rows); ok {
			r.InputRows[name] = n
		}
	}
	for side, q := range []string{p.before, p.after} {
		c.progress(sc.Name, "running the query (%s)", sideName(side))
		s, shuffles, err := c.side(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("the %s query: %w", sideName(side), err)
		}
		s.Predicted = predicted[side]
		if side == 0 {
			r.Before = s
		} else {
			r.After = s
			for _, l := range shuffles {
				r.Notes = append(r.Notes, "Spark still shuffles after the change: "+l)
			}
		}
	}
	r.Rows = r.After.Checksum.Rows
	r.Identical = r.Before.Checksum == r.After.Checksum
	if !r.Identical {
		r.Diff = fmt.Sprintf("checksums differ: %s before, %s after", r.Before.Checksum, r.After.Checksum)
	}
	if c.opt.SamplePercent > 0 && c.opt.SamplePercent < 100 {
		r.Notes = append(r.Notes, fmt.Sprintf("verified on a %g%% TABLESAMPLE of each table", c.opt.SamplePercent))
	}
	r.Notes = append(r.Notes, c.notes...)
	if len(sc.Data) > 0 || len(sc.Written) > 0 {
		r.Notes = append(r.Notes, "the scenario's fixture data and written specs are not used: Spark Connect verifies on the server's tables")
	}
	return r, nil
}

// side explains a query and runs its checksum; it returns Spark's shuffle Exchanges too.
func (c *connectRun) side(ctx context.Context, q string) (Side, []string, error) {
	explain, err := c.s.Explain(ctx, q)
	if err != nil {
		return Side{}, nil, fmt.Errorf("explain: %w", err)
	}
	if c.opt.ParseExplain == nil {
		return Side{}, nil, errors.New("internal error: ConnectOptions.ParseExplain is not set")
	}
	root, err := c.opt.ParseExplain(explain)
	if err != nil {
		return Side{}, nil, fmt.Errorf("reading Spark's EXPLAIN: %w", err)
	}
	shuffles := shuffleExchanges(root)
	start := time.Now()
	rows, err := c.s.SQL(ctx, checksumSQL(q))
	if err != nil {
		return Side{}, nil, fmt.Errorf("checksum: %w", err)
	}
	sum, err := parseChecksum(rows)
	if err != nil {
		return Side{}, nil, err
	}
	return Side{Exchanges: len(shuffles), Duration: time.Since(start), Checksum: sum}, shuffles, nil
}

// parseChecksum reads checksumSQL's one row (count, sum) into an exec.Checksum (the sum's
// two's complement bits).
func parseChecksum(rows [][]any) (exec.Checksum, error) {
	if len(rows) != 1 || len(rows[0]) != 2 {
		return exec.Checksum{}, fmt.Errorf("checksum: want one row of two values, got %v", rows)
	}
	n, ok1 := asInt64(rows[0][0])
	h, ok2 := asInt64(rows[0][1])
	if !ok1 || !ok2 {
		return exec.Checksum{}, fmt.Errorf("checksum: want two integers, got %T %T", rows[0][0], rows[0][1])
	}
	return exec.Checksum{Rows: n, Sum: uint64(h)}, nil
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func firstInt(rows [][]any) (int64, bool) {
	if len(rows) != 1 || len(rows[0]) != 1 {
		return 0, false
	}
	return asInt64(rows[0][0])
}

func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int:
		return int64(x), true
	}
	return 0, false
}
