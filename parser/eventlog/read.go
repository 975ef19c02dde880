package eventlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Limits bound what one log may make the reader hold.
type Limits struct {
	// MaxLine is the longest line (one event) read, in bytes.
	MaxLine int
	// MaxDepth is the deepest plan tree accepted.
	MaxDepth int
	// MaxNodes is the most operators one plan tree may have.
	MaxNodes int
	// MaxLive is the most SQL executions running at once.
	MaxLive int
}

// DefaultLimits are the limits Read uses when Options.Limits is zero.
func DefaultLimits() Limits {
	return Limits{MaxLine: 256 << 20, MaxDepth: 2000, MaxNodes: 200000, MaxLive: 10000}
}

// Options say what Read keeps.
type Options struct {
	// Limits bound the reader; zero fields take DefaultLimits' values.
	Limits Limits
	// Stages asks for every stage attempt's task metric sums in App.Stages.
	Stages bool
}

// An Error is a problem in a log, at a line.
type Error struct {
	Pos Pos
	Msg string
	// syntax marks a line that is not JSON (a cut final line is one).
	syntax bool
}

// Error formats the error as file:line: message, or file: message before the first line.
func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Pos.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.Pos.File, e.Pos.Line, e.Msg)
}

type acc struct {
	exec      int64
	sum       int64
	driver    int64
	set, drv  bool
	typeIsSum bool
}

type live struct {
	e      *Execution
	accums []int64
}

// reader is the state of one read: the executions running and their accumulators.
type reader struct {
	opt       Options
	fn        func(*Execution) error
	app       *App
	execs     map[int64]*live
	accums    map[int64]*acc
	stageExec map[int]int64
	pos       Pos
	ended     bool
}

func newReader(opt Options, fn func(*Execution) error) *reader {
	d := DefaultLimits()
	l := &opt.Limits
	for _, p := range []struct{ v, d *int }{{&l.MaxLine, &d.MaxLine}, {&l.MaxDepth, &d.MaxDepth}, {&l.MaxNodes, &d.MaxNodes}, {&l.MaxLive, &d.MaxLive}} {
		if *p.v <= 0 {
			*p.v = *p.d
		}
	}
	app := &App{}
	if opt.Stages {
		app.Stages = map[StageKey]*Stage{}
	}
	return &reader{opt: opt, fn: fn, app: app, execs: map[int64]*live{}, accums: map[int64]*acc{}, stageExec: map[int]int64{}}
}

func (r *reader) errorf(format string, args ...any) *Error {
	return &Error{Pos: r.pos, Msg: fmt.Sprintf(format, args...)}
}

// stream reads the lines of one (decompressed) file. cut says whether it is the last file of
// a log Spark is still writing, where a cut final line or block is no error.
func (r *reader) stream(src io.Reader, file string, cut bool) error {
	r.pos = Pos{File: file}
	br := bufio.NewReaderSize(src, 256<<10)
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long)+len(chunk) > r.opt.Limits.MaxLine {
				r.pos.Line++
				return r.errorf("line longer than %d bytes", r.opt.Limits.MaxLine)
			}
			long = append(long, chunk...)
			continue
		}
		line := chunk
		if long != nil {
			long = append(long, chunk...)
			line, long = long, nil
		}
		if len(line) > r.opt.Limits.MaxLine {
			r.pos.Line++
			return r.errorf("line longer than %d bytes", r.opt.Limits.MaxLine)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			if cut && errors.Is(err, io.ErrUnexpectedEOF) {
				r.app.Incomplete = true
				return nil
			}
			if r.pos.Line > 0 {
				return r.errorf("after this line: %v", err)
			}
			return r.errorf("%v", err)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			r.pos.Line++
			r.app.Lines++
			if perr := r.event(line); perr != nil {
				var pe *Error
				if cut && err != nil && errors.As(perr, &pe) && pe.syntax {
					r.app.Incomplete = true // a cut final line: Spark was still writing
					return nil
				}
				return perr
			}
		} else if len(line) > 0 {
			r.pos.Line++
		}
		if err != nil {
			return nil
		}
	}
}

// event dispatches one line by its event name; events that carry no SQL figure are skipped
// without being decoded.
func (r *reader) event(line []byte) error {
	var err error
	switch eventName(line) {
	case "SparkListenerLogStart":
		var e logStart
		if err = json.Unmarshal(line, &e); err == nil {
			r.app.SparkVersion = e.Version
		}
	case "SparkListenerApplicationStart":
		var e appStart
		if err = json.Unmarshal(line, &e); err == nil {
			r.app.ID, r.app.Name = e.ID, e.Name
		}
	case "SparkListenerApplicationEnd":
		r.ended = true
	case "SparkListenerSQLExecutionStart":
		var e sqlStart
		if err = decodeSQLStart(line, &e); err == nil {
			err = r.start(&e)
		}
	case "SparkListenerSQLAdaptiveExecutionUpdate":
		var e sqlStart
		if err = decodeSQLStart(line, &e); err == nil {
			err = r.update(&e)
		}
	case "SparkListenerSQLExecutionEnd":
		var e sqlEnd
		if err = json.Unmarshal(line, &e); err == nil {
			err = r.end(&e)
		}
	case "SparkListenerDriverAccumUpdates":
		var e driverAccums
		if err = json.Unmarshal(line, &e); err == nil {
			r.driver(&e)
		}
	case "SparkListenerJobStart":
		var e jobStart
		if err = decodeJobStart(line, &e); err == nil {
			r.job(&e)
		}
	case "SparkListenerTaskEnd":
		err = r.taskEnd(line)
	}
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			pe := r.errorf("not JSON: %v (at byte %d of the line)", se, se.Offset)
			pe.syntax = true
			return pe
		}
		var ue *json.UnmarshalTypeError
		if errors.As(err, &ue) {
			return r.errorf("%s: field %q: %s where %s was expected", eventName(line), ue.Field, ue.Value, ue.Type)
		}
		var pe *Error
		if errors.As(err, &pe) {
			return err
		}
		return r.errorf("%v", err)
	}
	return nil
}

func (r *reader) start(e *sqlStart) error {
	if _, dup := r.execs[e.ID]; dup {
		return r.errorf("SQL execution %d starts twice", e.ID)
	}
	if len(r.execs) >= r.opt.Limits.MaxLive {
		return r.errorf("more than %d SQL executions running at once", r.opt.Limits.MaxLive)
	}
	ex := &Execution{ID: e.ID, RootID: e.ID, Description: e.Description, Start: e.Time, PlanDescription: e.Plan, Pos: r.pos}
	if e.RootID != nil {
		ex.RootID = *e.RootID
	}
	lv := &live{e: ex}
	r.execs[e.ID] = lv
	r.app.Executions++
	return r.plan(lv, e.Info)
}

func (r *reader) update(e *sqlStart) error {
	lv, ok := r.execs[e.ID]
	if !ok {
		return nil // an update of an execution whose start is not in the log
	}
	lv.e.Updates++
	if e.Plan != "" {
		lv.e.PlanDescription = e.Plan
	}
	return r.plan(lv, e.Info)
}

// plan takes a plan tree as the execution's latest and registers its accumulators.
func (r *reader) plan(lv *live, info *planInfo) error {
	if info == nil {
		return nil
	}
	nodes := 0
	n, err := r.node(lv, info, 1, &nodes)
	if err != nil {
		return err
	}
	lv.e.Plan = n
	return nil
}

func (r *reader) node(lv *live, p *planInfo, depth int, count *int) (*Node, error) {
	if depth > r.opt.Limits.MaxDepth {
		return nil, r.errorf("plan of SQL execution %d nests deeper than %d operators", lv.e.ID, r.opt.Limits.MaxDepth)
	}
	if *count++; *count > r.opt.Limits.MaxNodes {
		return nil, r.errorf("plan of SQL execution %d has more than %d operators", lv.e.ID, r.opt.Limits.MaxNodes)
	}
	n := &Node{Name: p.NodeName, Simple: p.Simple, Metadata: p.Metadata}
	for _, m := range p.Metrics {
		n.Metrics = append(n.Metrics, Metric{Name: m.Name, Accumulator: m.ID, Type: m.Type})
		if _, ok := r.accums[m.ID]; !ok {
			r.accums[m.ID] = &acc{exec: lv.e.ID, typeIsSum: m.Type == "sum"}
			lv.accums = append(lv.accums, m.ID)
		}
	}
	for _, c := range p.Children {
		if c == nil {
			continue
		}
		cn, err := r.node(lv, c, depth+1, count)
		if err != nil {
			return nil, err
		}
		n.Children = append(n.Children, cn)
	}
	return n, nil
}

func (r *reader) driver(e *driverAccums) {
	for _, u := range e.Updates {
		if a, ok := r.accums[u[0]]; ok {
			a.driver, a.drv = u[1], true
		}
	}
}

func (r *reader) job(e *jobStart) {
	s, ok := e.Properties["spark.sql.execution.id"]
	if !ok {
		return
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return
	}
	lv := r.execs[id]
	for _, st := range e.Stages {
		if r.app.Stages != nil {
			r.stageExec[st] = id // kept for the log's whole read: only when stages are asked for
		}
		if lv != nil {
			lv.e.Stages = append(lv.e.Stages, st)
		}
	}
}

func (r *reader) taskEnd(line []byte) error {
	var e taskEnd
	if err := decodeTaskEnd(line, &e); err != nil {
		return err
	}
	ok := e.Reason.Reason == "Success"
	for _, u := range e.Info.Accumulables {
		a, known := r.accums[u.ID]
		if !known || !u.Update.OK || (!ok && !u.CountFailed) {
			continue
		}
		a.set = true
		if u.Update.V >= 0 {
			a.sum += u.Update.V
		}
	}
	if r.app.Stages != nil {
		r.stage(&e, ok)
	}
	return nil
}

func (r *reader) stage(e *taskEnd, ok bool) {
	k := StageKey{Stage: e.Stage, Attempt: e.Attempt}
	s := r.app.Stages[k]
	if s == nil {
		s = &Stage{Execution: -1}
		if id, found := r.stageExec[e.Stage]; found {
			s.Execution = id
		}
		r.app.Stages[k] = s
	}
	s.Tasks++
	if !ok {
		s.Failed++
	}
	m := e.Metrics
	if m == nil {
		return
	}
	s.ExecutorRunTime += m.RunTime
	s.InputBytes += m.Input.Bytes
	s.InputRecords += m.Input.Records
	s.OutputBytes += m.Output.Bytes
	s.OutputRecords += m.Output.Records
	s.ShuffleReadBytes += m.ShuffleRead.Remote + m.ShuffleRead.Local
	s.ShuffleReadRecords += m.ShuffleRead.Records
	s.ShuffleWriteBytes += m.ShuffleWrite.Bytes
	s.ShuffleWriteRecords += m.ShuffleWrite.Records
	s.ShuffleWriteTime += m.ShuffleWrite.Time
	s.MemoryBytesSpilled += m.MemSpill
	s.DiskBytesSpilled += m.DiskSpill
}

func (r *reader) end(e *sqlEnd) error {
	lv, ok := r.execs[e.ID]
	if !ok {
		return nil
	}
	lv.e.End, lv.e.Ended = e.Time, true
	if e.Error != nil {
		lv.e.Error = *e.Error
	}
	return r.finish(lv)
}

// finish fills in the execution's metric totals, hands it on and forgets it.
func (r *reader) finish(lv *live) error {
	lv.e.Plan.Walk(func(n *Node) {
		for i := range n.Metrics {
			m := &n.Metrics[i]
			if a, ok := r.accums[m.Accumulator]; ok {
				m.Set = a.set || a.drv
				m.Value = a.sum
				if a.drv && a.driver >= 0 {
					m.Value += a.driver
				}
			}
		}
	})
	for _, id := range lv.accums {
		delete(r.accums, id)
	}
	delete(r.execs, lv.e.ID)
	if r.fn == nil {
		return nil
	}
	return r.fn(lv.e)
}
