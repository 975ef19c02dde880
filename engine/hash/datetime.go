package hash

import (
	"errors"
	"strings"
	"time"
)

// Timestamp layouts accepted by ParseValue, without and with a zone offset. When parsing, Go
// accepts a fractional second after the seconds even if the layout has none.
const (
	layoutDate    = "2006-1-2"
	layoutSeconds = "2006-1-2 15:04:05"
	layoutMinutes = "2006-1-2 15:04"
)

// parseDate parses yyyy-[m]m-[d]d (proleptic Gregorian, as Spark 3 and later) to days since
// 1970-01-01.
func parseDate(s string) (int32, error) {
	d, err := time.Parse(layoutDate, s)
	if err != nil {
		return 0, errors.New("not a date (want yyyy-mm-dd)")
	}
	return int32(d.Unix() / secondsPerDay), nil
}

// parseTimestamp parses a timestamp to microseconds since the epoch. A value without an
// offset is read in loc; allowZone says whether an offset may be given.
func parseTimestamp(s string, loc *time.Location, allowZone bool) (int64, error) {
	if len(s) > 10 && (s[10] == 'T' || s[10] == 't') {
		s = s[:10] + " " + s[11:]
	}
	var t time.Time
	var err error
	for _, layout := range []string{layoutSeconds, layoutMinutes, layoutDate} {
		if t, err = time.ParseInLocation(layout, s, loc); err == nil {
			return micros(t), nil
		}
	}
	zoned := s
	if strings.HasSuffix(s, "z") {
		zoned = s[:len(s)-1] + "Z"
	}
	for _, layout := range []string{layoutSeconds, layoutMinutes} {
		for _, zone := range []string{"Z07:00", "Z0700", " Z07:00", " Z0700"} {
			if t, err = time.Parse(layout+zone, zoned); err == nil {
				if !allowZone {
					return 0, errors.New("timestamp_ntz takes no time zone offset")
				}
				return micros(t), nil
			}
		}
	}
	return 0, errors.New("not a timestamp (want yyyy-mm-dd hh:mm:ss[.ffffff][+hh:mm])")
}

// micros returns t as microseconds since the epoch, dropping any nanoseconds as Spark does.
func micros(t time.Time) int64 {
	return t.Unix()*1_000_000 + int64(t.Nanosecond()/1000)
}
