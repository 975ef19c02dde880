package eventlog

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

const sampleLog = `{"Event":"SparkListenerLogStart","Spark Version":"3.5.9"}
{"Event":"SparkListenerApplicationStart","App Name":"a","App ID":"local-1","Timestamp":1,"User":"u"}
{"Event":"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart","executionId":3,"description":"d","physicalPlanDescription":"== Physical Plan ==","sparkPlanInfo":{"nodeName":"Exchange","simpleString":"Exchange hashpartitioning(k#1, 4)","children":[{"nodeName":"Scan parquet t","simpleString":"FileScan","children":[],"metadata":{"Format":"Parquet"},"metrics":[{"name":"size of files read","accumulatorId":11,"metricType":"size"}]}],"metadata":{},"metrics":[{"name":"shuffle bytes written","accumulatorId":10,"metricType":"size"},{"name":"number of partitions","accumulatorId":12,"metricType":"sum"}]},"time":5}
{"Event":"SparkListenerJobStart","Job ID":0,"Stage IDs":[0],"Properties":{"spark.sql.execution.id":"3"}}
{"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task End Reason":{"Reason":"Success"},"Task Info":{"Accumulables":[{"ID":10,"Update":"100","Count Failed Values":false},{"ID":99,"Update":7}]},"Task Metrics":{"Shuffle Write Metrics":{"Shuffle Bytes Written":100}}}
{"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task End Reason":{"Reason":"ExceptionFailure"},"Task Info":{"Accumulables":[{"ID":10,"Update":"50","Count Failed Values":false}]}}
{"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task End Reason":{"Reason":"Success"},"Task Info":{"Accumulables":[{"ID":10,"Update":"23","Count Failed Values":false}]},"Task Metrics":{"Shuffle Write Metrics":{"Shuffle Bytes Written":23}}}
{"Event":"org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates","executionId":3,"accumUpdates":[[11,4000],[12,3],[12,4]]}
{"Event":"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd","executionId":3,"time":9}
{"Event":"SparkListenerApplicationEnd","Timestamp":10}
`

func TestReadSample(t *testing.T) {
	var got []*Execution
	app, err := ReadStream(strings.NewReader(sampleLog), "app", Options{Stages: true}, func(e *Execution) error {
		got = append(got, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if app.SparkVersion != "3.5.9" || app.ID != "local-1" || app.Incomplete || app.Lines != 10 || len(got) != 1 {
		t.Fatalf("app %+v, %d executions", app, len(got))
	}
	e := got[0]
	for _, c := range []struct {
		node   *Node
		metric string
		want   int64
	}{
		{e.Plan, "shuffle bytes written", 123}, // the failed task's update does not count
		{e.Plan, "number of partitions", 4},    // the driver's last update
		{e.Plan.Children[0], "size of files read", 4000},
	} {
		if m, ok := c.node.Metric(c.metric); !ok || m.Value != c.want {
			t.Errorf("%s %s = %+v, want %d", c.node.Name, c.metric, m, c.want)
		}
	}
	if s := app.Stages[StageKey{}]; s == nil || s.Tasks != 3 || s.Failed != 1 || s.ShuffleWriteBytes != 123 || s.Execution != 3 {
		t.Errorf("stage %+v", s)
	}
	if !e.Ended || e.Start != 5 || e.End != 9 || len(e.Stages) != 1 || e.Pos.Line != 3 {
		t.Errorf("execution %+v", e)
	}
}

func TestReadErrors(t *testing.T) {
	deep := `{"Event":"SparkListenerSQLExecutionStart","executionId":1,"sparkPlanInfo":` +
		strings.Repeat(`{"nodeName":"x","children":[`, 30) + strings.Repeat(`]}`, 30) + "}\n"
	for _, c := range []struct {
		name, log, want string
		limits          Limits
	}{
		{"not JSON", "{\"Event\":\"SparkListenerLogStart\"}\n{\"Event\":\"SparkListenerJobStart\",\n{}\n", "log:2: not JSON", Limits{}},
		{"wrong type", `{"Event":"SparkListenerJobStart","Stage IDs":"x"}` + "\n", `log:1: SparkListenerJobStart: field "Stage IDs"`, Limits{}},
		{"long line", `{"Event":"SparkListenerLogStart","Spark Version":"` + strings.Repeat("x", 100) + "\"}\n", "log:1: line longer than 64 bytes", Limits{MaxLine: 64}},
		{"deep plan", deep, "log:1: plan of SQL execution 1 nests deeper than 10 operators", Limits{MaxDepth: 10}},
		{"many nodes", deep, "log:1: plan of SQL execution 1 has more than 5 operators", Limits{MaxNodes: 5}},
		{"twice", `{"Event":"SparkListenerSQLExecutionStart","executionId":1}` + "\n" + `{"Event":"SparkListenerSQLExecutionStart","executionId":1}` + "\n", "log:2: SQL execution 1 starts twice", Limits{}},
		{"codec", "x", "log.lzf: event logs compressed with lzf are not read", Limits{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := "log"
			if c.name == "codec" {
				name = "log.lzf"
			}
			_, err := ReadStream(strings.NewReader(c.log), name, Options{Limits: c.limits}, nil)
			var pe *Error
			if err == nil || !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %v, want %q…", err, c.want)
			}
		})
	}
}

func TestCutFinalLineIsInProgress(t *testing.T) {
	log := sampleLog[:strings.Index(sampleLog, `{"Event":"org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates"`)+40]
	var n int
	app, err := ReadStream(strings.NewReader(log), "app.inprogress", Options{}, func(e *Execution) error {
		n++
		if e.Ended {
			t.Error("an execution without its end is ended")
		}
		return nil
	})
	if err != nil || !app.Incomplete || n != 1 {
		t.Errorf("err %v, incomplete %v, %d executions", err, app.Incomplete, n)
	}
}

func TestXXH32(t *testing.T) {
	for _, c := range []struct {
		in   string
		seed uint32
		want uint32
	}{
		{"", 0, 0x02cc5d05},
		{"abc", 0, 0x32d153ff},
		{"Nobody inspects the spammish repetition", 0, 0xe2293b2f},
	} {
		if got := xxh32([]byte(c.in), c.seed); got != c.want {
			t.Errorf("xxh32(%q) = %#x, want %#x", c.in, got, c.want)
		}
	}
}

func TestCorruptBlocks(t *testing.T) {
	for _, c := range []struct{ name, codec, data, want string }{
		{"lz4 magic", "lz4", "LZ4Bluck" + strings.Repeat("\x00", 13), "lz4: not an LZ4Block stream"},
		{"lz4 cut", "lz4", "LZ4Block\x20", "unexpected EOF"},
		{"lz4 size", "lz4", "LZ4Block\x20\xff\xff\xff\x7f\xff\xff\xff\x7f\x00\x00\x00\x00", "bad header"},
		{"lz4 check", "lz4", "LZ4Block\x10\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00x", "checksum mismatch"},
		{"snappy magic", "snappy", "\x82SNAPPX\x00\x00\x00\x00\x01\x00\x00\x00\x01", "bad header"},
		{"snappy cut", "snappy", "\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x09ab", "unexpected EOF"},
		{"snappy data", "snappy", "\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x02\xff\xff", "corrupt data"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadStream(bytes.NewReader([]byte(c.data)), "x."+c.codec, Options{}, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want …%q…", err, c.want)
			}
		})
	}
}
