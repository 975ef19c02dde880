package gen

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// The id spaces of an event log that a long-running application keeps counting up: SQL
// executions, accumulators (SQL metrics and task metrics), stages, jobs and tasks.
const (
	idExec = iota
	idAccum
	idStage
	idJob
	idTask
	idKinds
)

// idKeys are the keys of ids as Spark's JsonProtocol and Jackson write them, each followed by
// the number (or, for the SQL execution id property, the number in quotes). A key inside a
// JSON string has its quotes escaped, so these never match plan text.
func idKeys() []struct {
	prefix string
	kind   int
} {
	return []struct {
		prefix string
		kind   int
	}{
		{`"executionId":`, idExec},
		{`"rootExecutionId":`, idExec},
		{`"spark.sql.execution.id":"`, idExec},
		{`"spark.sql.execution.root.id":"`, idExec},
		{`"accumulatorId":`, idAccum},
		{`"ID":`, idAccum},
		{`"Stage ID":`, idStage},
		{`"Job ID":`, idJob},
		{`"Task ID":`, idTask},
	}
}

// digits returns the length of the run of digits at the start of b.
func digits(b []byte) int {
	n := 0
	for n < len(b) && '0' <= b[n] && b[n] <= '9' {
		n++
	}
	return n
}

// piece is a run of a template's bytes followed by an id of one kind (kind -1: none).
type piece struct {
	lit  []byte
	kind int
	id   int64
}

// logTemplate is the body of one recorded application's log (between its application start
// and end) cut at its ids, and how far each kind of id goes.
type logTemplate struct {
	pieces []piece
	span   [idKinds]int64
}

// EventLog writes an event log of one long-running application to w, at least size bytes
// long: the header of the first recorded log (up to and with its SparkListenerApplicationStart),
// then the bodies of the recorded logs, in turn, again and again, each time with every SQL
// execution, accumulator, stage, job and task id moved past those written before (as one
// application counts them), then the application's end. The recorded logs are plain JSON, as
// Spark writes them uncompressed. It returns how many bodies it wrote; an event log read from
// it has reps times the executions and metric totals of each body.
func EventLog(w io.Writer, recorded [][]byte, size int64) (reps int, err error) {
	if len(recorded) == 0 {
		return 0, fmt.Errorf("no recorded log")
	}
	var header, footer []byte
	tmpls := make([]*logTemplate, len(recorded))
	for i, r := range recorded {
		h, body, f, err := splitApp(r)
		if err != nil {
			return 0, fmt.Errorf("recorded log %d: %w", i, err)
		}
		if i == 0 {
			header, footer = h, f
		}
		tmpls[i] = cutTemplate(body)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	n, err := bw.Write(header)
	written := int64(n)
	var off [idKinds]int64
	buf := make([]byte, 0, 20)
	for err == nil && written < size {
		t := tmpls[reps%len(tmpls)]
		for i := range t.pieces {
			p := &t.pieces[i]
			n, err = bw.Write(p.lit)
			written += int64(n)
			if p.kind >= 0 && err == nil {
				buf = strconv.AppendInt(buf[:0], p.id+off[p.kind], 10)
				n, err = bw.Write(buf)
				written += int64(n)
			}
		}
		for k := range off {
			off[k] += t.span[k]
		}
		reps++
	}
	if err == nil {
		_, err = bw.Write(footer)
	}
	if err == nil {
		err = bw.Flush()
	}
	return reps, err
}

// splitApp cuts a log into its header (through SparkListenerApplicationStart), its body and
// its footer (from SparkListenerApplicationEnd).
func splitApp(log []byte) (header, body, footer []byte, err error) {
	start := bytes.Index(log, []byte(`{"Event":"SparkListenerApplicationStart"`))
	end := bytes.LastIndex(log, []byte(`{"Event":"SparkListenerApplicationEnd"`))
	if start < 0 || end < start {
		return nil, nil, nil, fmt.Errorf("no application start and end")
	}
	nl := bytes.IndexByte(log[start:], '\n')
	if nl < 0 {
		return nil, nil, nil, fmt.Errorf("the application start ends the log")
	}
	cut := start + nl + 1
	return log[:cut], log[cut:end], log[end:], nil
}

// cutTemplate finds every id of a body and records how far each kind goes: the numbers after
// the id keys, the numbers of a job's "Stage IDs" list and the first number of each pair of
// the driver's "accumUpdates" ([[id, value], …]).
func cutTemplate(body []byte) *logTemplate {
	type hit struct {
		start, end, kind int
	}
	var hits []hit
	each := func(prefix string, fn func(at int)) {
		for from := 0; ; {
			i := bytes.Index(body[from:], []byte(prefix))
			if i < 0 {
				return
			}
			at := from + i + len(prefix)
			fn(at)
			from = at
		}
	}
	for _, k := range idKeys() {
		each(k.prefix, func(at int) {
			if n := digits(body[at:]); n > 0 {
				hits = append(hits, hit{at, at + n, k.kind})
			}
		})
	}
	each(`"Stage IDs":[`, func(at int) {
		for n := digits(body[at:]); n > 0; n = digits(body[at:]) {
			hits = append(hits, hit{at, at + n, idStage})
			if at += n; at >= len(body) || body[at] != ',' {
				return
			}
			at++
		}
	})
	each(`"accumUpdates":[`, func(at int) {
		for at < len(body) && body[at] == '[' {
			n := digits(body[at+1:])
			if n == 0 {
				return
			}
			hits = append(hits, hit{at + 1, at + 1 + n, idAccum})
			end := bytes.IndexByte(body[at:], ']')
			if end < 0 || at+end+1 >= len(body) || body[at+end+1] != ',' {
				return
			}
			at += end + 2
		}
	})
	sort.Slice(hits, func(i, j int) bool { return hits[i].start < hits[j].start })
	t := &logTemplate{}
	at := 0
	for _, h := range hits {
		if h.start < at {
			continue
		}
		id, _ := strconv.ParseInt(string(body[h.start:h.end]), 10, 64)
		t.pieces = append(t.pieces, piece{lit: body[at:h.start], kind: h.kind, id: id})
		t.span[h.kind] = max(t.span[h.kind], id+1)
		at = h.end
	}
	t.pieces = append(t.pieces, piece{lit: body[at:], kind: -1})
	return t
}
