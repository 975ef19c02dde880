package eventlog

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The events read most, decoded by the scanner into the same structs encoding/json fills
// (events.go); each returns false when the line is for encoding/json to decode.

// decodeTaskEnd decodes a SparkListenerTaskEnd line.
func decodeTaskEnd(line []byte, e *taskEnd) error {
	if scanTaskEnd(line, e) {
		return nil
	}
	*e = taskEnd{}
	return json.Unmarshal(line, e)
}

// decodeJobStart decodes a SparkListenerJobStart line.
func decodeJobStart(line []byte, e *jobStart) error {
	if scanJobStart(line, e) {
		return nil
	}
	*e = jobStart{}
	return json.Unmarshal(line, e)
}

// decodeSQLStart decodes a SparkListenerSQLExecutionStart or
// SparkListenerSQLAdaptiveExecutionUpdate line.
func decodeSQLStart(line []byte, e *sqlStart) error {
	if scanSQLStart(line, e) {
		return nil
	}
	*e = sqlStart{}
	return json.Unmarshal(line, e)
}

// int64s reads an object of integer fields into the pointers of to, by key index.
func (s *scanner) int64s(keys []string, to ...*int64) bool {
	return s.object(keys, func(k int) bool {
		v, ok := s.intVal()
		*to[k] = v
		return ok
	})
}

func scanTaskEnd(line []byte, e *taskEnd) bool {
	s := &scanner{b: line}
	s.ws()
	return s.object([]string{"Stage ID", "Stage Attempt ID", "Task End Reason", "Task Info", "Task Metrics"}, func(k int) bool {
		switch k {
		case 0, 1:
			v, ok := s.goInt()
			if k == 0 {
				e.Stage = v
			} else {
				e.Attempt = v
			}
			return ok
		case 2:
			return s.object([]string{"Reason"}, func(int) bool {
				v, ok := s.strVal()
				e.Reason.Reason = v
				return ok
			})
		case 3:
			return s.object([]string{"Accumulables"}, func(int) bool {
				e.Info.Accumulables = []accumulable{}
				return s.array(func() bool {
					var a accumulable
					ok := s.accumulable(&a)
					e.Info.Accumulables = append(e.Info.Accumulables, a)
					return ok
				})
			})
		default:
			e.Metrics = &taskMetrics{}
			return s.taskMetrics(e.Metrics)
		}
	}) && s.end()
}

func (s *scanner) accumulable(a *accumulable) bool {
	return s.object([]string{"ID", "Update", "Count Failed Values"}, func(k int) bool {
		switch k {
		case 0:
			v, ok := s.intVal()
			a.ID = v
			return ok
		case 1:
			raw, ok := s.skip()
			v, err := strconv.ParseInt(string(bytes.Trim(raw, `"`)), 10, 64)
			a.Update = lenient{V: v, OK: err == nil}
			return ok
		default:
			v, ok := s.boolVal()
			a.CountFailed = v
			return ok
		}
	})
}

func (s *scanner) taskMetrics(m *taskMetrics) bool {
	return s.object([]string{"Executor Run Time", "Memory Bytes Spilled", "Disk Bytes Spilled", "Shuffle Read Metrics", "Shuffle Write Metrics", "Input Metrics", "Output Metrics"}, func(k int) bool {
		switch k {
		case 0, 1, 2:
			v, ok := s.intVal()
			*[]*int64{&m.RunTime, &m.MemSpill, &m.DiskSpill}[k] = v
			return ok
		case 3:
			r := &m.ShuffleRead
			return s.int64s([]string{"Remote Bytes Read", "Local Bytes Read", "Total Records Read"}, &r.Remote, &r.Local, &r.Records)
		case 4:
			w := &m.ShuffleWrite
			return s.int64s([]string{"Shuffle Bytes Written", "Shuffle Write Time", "Shuffle Records Written"}, &w.Bytes, &w.Time, &w.Records)
		case 5:
			return s.int64s([]string{"Bytes Read", "Records Read"}, &m.Input.Bytes, &m.Input.Records)
		default:
			return s.int64s([]string{"Bytes Written", "Records Written"}, &m.Output.Bytes, &m.Output.Records)
		}
	})
}

func scanJobStart(line []byte, e *jobStart) bool {
	s := &scanner{b: line}
	s.ws()
	return s.object([]string{"Stage IDs", "Properties"}, func(k int) bool {
		if k == 0 {
			e.Stages = []int{}
			return s.array(func() bool {
				v, ok := s.goInt()
				e.Stages = append(e.Stages, v)
				return ok
			})
		}
		m, ok := s.strMap()
		e.Properties = m
		return ok
	}) && s.end()
}

func scanSQLStart(line []byte, e *sqlStart) bool {
	s := &scanner{b: line}
	s.ws()
	return s.object([]string{"executionId", "rootExecutionId", "description", "physicalPlanDescription", "sparkPlanInfo", "time"}, func(k int) bool {
		var ok bool
		switch k {
		case 0:
			e.ID, ok = s.intVal()
		case 1:
			var v int64
			v, ok = s.intVal()
			e.RootID = &v
		case 2:
			e.Description, ok = s.strVal()
		case 3:
			e.Plan, ok = s.strVal()
		case 4:
			e.Info = &planInfo{}
			ok = s.planInfo(e.Info)
		default:
			e.Time, ok = s.intVal()
		}
		return ok
	}) && s.end()
}

func (s *scanner) planInfo(p *planInfo) bool {
	return s.object([]string{"nodeName", "simpleString", "children", "metadata", "metrics"}, func(k int) bool {
		var ok bool
		switch k {
		case 0:
			p.NodeName, ok = s.strVal()
		case 1:
			p.Simple, ok = s.strVal()
		case 2:
			p.Children = []*planInfo{}
			ok = s.array(func() bool {
				c := &planInfo{}
				p.Children = append(p.Children, c)
				return s.planInfo(c)
			})
		case 3:
			p.Metadata, ok = s.strMap()
		default:
			p.Metrics = []metricInfo{}
			ok = s.array(func() bool {
				var m metricInfo
				ok := s.object([]string{"name", "accumulatorId", "metricType"}, func(k int) bool {
					var ok bool
					switch k {
					case 0:
						m.Name, ok = s.strVal()
					case 1:
						m.ID, ok = s.intVal()
					default:
						m.Type, ok = s.strVal()
					}
					return ok
				})
				p.Metrics = append(p.Metrics, m)
				return ok
			})
		}
		return ok
	})
}
