package eventlog

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The events decoded, with only the fields read. Spark's JsonProtocol writes the listener
// events with the keys below; the SQL events are written by Jackson from their case classes.

type logStart struct {
	Version string `json:"Spark Version"`
}

type appStart struct {
	Name string `json:"App Name"`
	ID   string `json:"App ID"`
}

type planInfo struct {
	NodeName string            `json:"nodeName"`
	Simple   string            `json:"simpleString"`
	Children []*planInfo       `json:"children"`
	Metadata map[string]string `json:"metadata"`
	Metrics  []metricInfo      `json:"metrics"`
}

type metricInfo struct {
	Name string `json:"name"`
	ID   int64  `json:"accumulatorId"`
	Type string `json:"metricType"`
}

type sqlStart struct {
	ID          int64     `json:"executionId"`
	RootID      *int64    `json:"rootExecutionId"`
	Description string    `json:"description"`
	Plan        string    `json:"physicalPlanDescription"`
	Info        *planInfo `json:"sparkPlanInfo"`
	Time        int64     `json:"time"`
}

type sqlEnd struct {
	ID    int64   `json:"executionId"`
	Time  int64   `json:"time"`
	Error *string `json:"errorMessage"`
}

type driverAccums struct {
	ID      int64      `json:"executionId"`
	Updates [][2]int64 `json:"accumUpdates"`
}

type jobStart struct {
	Stages     []int             `json:"Stage IDs"`
	Properties map[string]string `json:"Properties"`
}

type taskEnd struct {
	Stage   int `json:"Stage ID"`
	Attempt int `json:"Stage Attempt ID"`
	Reason  struct {
		Reason string `json:"Reason"`
	} `json:"Task End Reason"`
	Info struct {
		Accumulables []accumulable `json:"Accumulables"`
	} `json:"Task Info"`
	Metrics *taskMetrics `json:"Task Metrics"`
}

type accumulable struct {
	ID          int64   `json:"ID"`
	Update      lenient `json:"Update"`
	CountFailed bool    `json:"Count Failed Values"`
}

type taskMetrics struct {
	RunTime     int64 `json:"Executor Run Time"`
	MemSpill    int64 `json:"Memory Bytes Spilled"`
	DiskSpill   int64 `json:"Disk Bytes Spilled"`
	ShuffleRead struct {
		Remote  int64 `json:"Remote Bytes Read"`
		Local   int64 `json:"Local Bytes Read"`
		Records int64 `json:"Total Records Read"`
	} `json:"Shuffle Read Metrics"`
	ShuffleWrite struct {
		Bytes   int64 `json:"Shuffle Bytes Written"`
		Time    int64 `json:"Shuffle Write Time"`
		Records int64 `json:"Shuffle Records Written"`
	} `json:"Shuffle Write Metrics"`
	Input struct {
		Bytes   int64 `json:"Bytes Read"`
		Records int64 `json:"Records Read"`
	} `json:"Input Metrics"`
	Output struct {
		Bytes   int64 `json:"Bytes Written"`
		Records int64 `json:"Records Written"`
	} `json:"Output Metrics"`
}

// lenient is an accumulator update: Spark writes internal task metrics as JSON numbers and
// every other accumulator's value as a string; a value that is neither (a list of block
// statuses) is kept as not a number.
type lenient struct {
	V  int64
	OK bool
}

// UnmarshalJSON implements json.Unmarshaler; it never fails.
func (l *lenient) UnmarshalJSON(b []byte) error {
	b = bytes.Trim(b, `"`)
	v, err := strconv.ParseInt(string(b), 10, 64)
	l.V, l.OK = v, err == nil
	return nil
}

// eventName returns the event's name without its package ("SparkListenerTaskEnd",
// "SparkListenerSQLExecutionStart"). Spark writes "Event" first; a line that does not start
// so is decoded to find it.
func eventName(line []byte) string {
	const p = `{"Event":"`
	var name []byte
	if bytes.HasPrefix(line, []byte(p)) {
		rest := line[len(p):]
		if i := bytes.IndexByte(rest, '"'); i >= 0 && bytes.IndexByte(rest[:i], '\\') < 0 {
			name = rest[:i]
		}
	}
	if name == nil {
		var e struct {
			Event string `json:"Event"`
		}
		if json.Unmarshal(line, &e) != nil {
			return ""
		}
		name = []byte(e.Event)
	}
	if i := bytes.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return string(name)
}
