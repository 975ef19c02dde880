package eventlog

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// scanned decodes line as an event of kind (0 task end, 1 job start, 2 SQL start) with the
// scanner and with encoding/json: whether the scanner took it, what each gave, and
// encoding/json's error.
func scanned(kind int, line []byte) (took bool, fast, slow any, err error) {
	switch kind {
	case 0:
		var a, b taskEnd
		took, err = scanTaskEnd(line, &a), json.Unmarshal(line, &b)
		return took, a, b, err
	case 1:
		var a, b jobStart
		took, err = scanJobStart(line, &a), json.Unmarshal(line, &b)
		return took, a, b, err
	default:
		var a, b sqlStart
		took, err = scanSQLStart(line, &a), json.Unmarshal(line, &b)
		return took, a, b, err
	}
}

// kindOf is the scanner's decoder for an event name, -1 when it has none.
func kindOf(name string) int {
	switch name {
	case "SparkListenerTaskEnd":
		return 0
	case "SparkListenerJobStart":
		return 1
	case "SparkListenerSQLExecutionStart", "SparkListenerSQLAdaptiveExecutionUpdate":
		return 2
	}
	return -1
}

// recordedLines calls fn with every line of every recorded log, decompressed.
func recordedLines(tb testing.TB, fn func(line []byte)) {
	tb.Helper()
	t := tb
	var dirs []string
	if tt, ok := tb.(*testing.T); ok {
		dirs = recorded(tt)
	} else {
		dirs = []string{"../../fixtures/eventlog/3.5/plain"}
	}
	for _, dir := range dirs {
		logs, err := Logs(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range logs {
			if strings.HasSuffix(l, "reported.json") {
				continue
			}
			files, _, err := logFiles(l)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				fh, err := os.Open(f)
				if err != nil {
					t.Fatal(err)
				}
				d, closeFn, err := decompress(Codec(strings.TrimSuffix(f, ".compact")), fh)
				if err != nil {
					t.Fatal(err)
				}
				sc := bufio.NewScanner(d)
				sc.Buffer(nil, 64<<20)
				for sc.Scan() {
					fn(sc.Bytes())
				}
				closeFn()
				fh.Close()
				if sc.Err() != nil {
					t.Fatalf("%s: %v", f, sc.Err())
				}
			}
		}
	}
}

// TestScanReadsRecordedLogs decodes every task end, job start, SQL execution start and plan
// update of the recorded logs (Spark 3.5.9 and 4.3.0) with the scanner: it takes every one
// (none is left to encoding/json) and gives what encoding/json gives.
func TestScanReadsRecordedLogs(t *testing.T) {
	counts := map[int]int{}
	recordedLines(t, func(line []byte) {
		kind := kindOf(eventName(line))
		if kind < 0 {
			return
		}
		counts[kind]++
		took, fast, slow, err := scanned(kind, line)
		if err != nil || !took {
			t.Fatalf("scanner took %v, encoding/json: %v, on %.200s", took, err, line)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("scanner gave %+v\nencoding/json %+v\non %.300s", fast, slow, line)
		}
	})
	if counts[0] < 100 || counts[1] < 50 || counts[2] < 100 {
		t.Errorf("lines compared per kind: %v", counts)
	}
}

// FuzzScanAgreesWithJSON: whatever line the scanner takes, encoding/json decodes too, to the
// same value; lines it does not take go to encoding/json, so the reader's result never depends
// on which decoded a line.
func FuzzScanAgreesWithJSON(f *testing.F) {
	seen := map[int]int{}
	recordedLines(f, func(line []byte) {
		if k := kindOf(eventName(line)); k >= 0 && seen[k] < 3 && len(line) < 1<<14 {
			seen[k]++
			f.Add(append([]byte(nil), line...), uint8(k))
		}
	})
	for _, s := range []string{
		`{"Stage ID":1,"stage id":2}`, `{"Stage ID":1,"Stage ID":2}`, `{"Stage ID":1.0}`, `{"Stage ID":null}`,
		`{"Task Info":{"Accumulables":[{"ID":1,"Update":"\u0031"},{"ID":2,"Update":[1]}]}}`,
		`{"Properties":{"a\u00e9":"\ud800","b":"x"},"Stage IDs":[1,2]}`, `{"Stage IDs":[1,]}`,
		`{"sparkPlanInfo":{"nodeName":"x","children":[{"metadata":{}}],"metrics":[]}}`, "{\"a\":\"\x01\"}",
		`{"description":"\ud83d\ude00 \ud800x \udc00\ud800\u0041 \u00e9\"\\\/\b\f\n\r\t","nodeName":"\ud800"}`, "{\"description\":\"\xff\xc3\xa9\xe2\x82\"}",
		`{"rootExecutionId":null}`, `{"executionId":-0}`, `{"executionId":9223372036854775808}`, ` {} `, `{}x`,
	} {
		for k := range 3 {
			f.Add([]byte(s), uint8(k))
		}
	}
	f.Fuzz(func(t *testing.T, line []byte, kind uint8) {
		took, fast, slow, err := scanned(int(kind%3), line)
		if !took {
			return
		}
		if err != nil {
			t.Fatalf("scanner took a line encoding/json rejects (%v): %q", err, line)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("scanner gave %+v, encoding/json %+v, on %q", fast, slow, line)
		}
	})
}
