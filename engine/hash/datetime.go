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
	s, neg := yearSign(s)
	d, err := time.Parse(layoutDate, s)
	if err != nil {
		return 0, errors.New("not a date (want yyyy-mm-dd)")
	}
	d = negateYear(d, neg)
	return int32(d.Unix() / secondsPerDay), nil
}

// yearSign strips the sign Spark allows before a date's or timestamp's year ("-0001-12-31",
// as a timestamp before year 1 prints) and says whether it was a minus.
func yearSign(s string) (string, bool) {
	if len(s) > 1 && (s[0] == '-' || s[0] == '+') {
		return s[1:], s[0] == '-'
	}
	return s, false
}

// negateYear returns t in year -t.Year() (proleptic Gregorian, year 0 before year 1) when neg.
func negateYear(t time.Time, neg bool) time.Time {
	if !neg {
		return t
	}
	return time.Date(-t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
}

// parseTimestamp parses a timestamp to microseconds since the epoch. A value without an
// offset is read in loc; allowZone says whether an offset may be given.
func parseTimestamp(s string, loc *time.Location, allowZone bool) (int64, error) {
	s, neg := yearSign(s)
	if len(s) > 10 && (s[10] == 'T' || s[10] == 't') {
		s = s[:10] + " " + s[11:]
	}
	var t time.Time
	var err error
	for _, layout := range []string{layoutSeconds, layoutMinutes, layoutDate} {
		if t, err = time.ParseInLocation(layout, s, loc); err == nil {
			return micros(negateYear(t, neg)), nil
		}
	}
	zoned := s
	if strings.HasSuffix(s, "z") {
		zoned = s[:len(s)-1] + "Z"
	}
	// An offset needs the seconds: Spark 3.5.9 and 4.3.0 cast "2024-01-01 00:00+01:00" and
	// "2024-01-01 00:00Z" to NULL, while "2024-01-01 00:00" is midnight.
	for _, layout := range []string{layoutSeconds} {
		for _, zone := range []string{"Z07:00", "Z0700", " Z07:00", " Z0700"} {
			if t, err = time.Parse(layout+zone, zoned); err == nil {
				if !allowZone {
					return 0, errors.New("timestamp_ntz takes no time zone offset")
				}
				return micros(negateYear(t, neg)), nil
			}
		}
	}
	return 0, errors.New("not a timestamp (want yyyy-mm-dd hh:mm:ss[.ffffff][+hh:mm])")
}

// micros returns t as microseconds since the epoch, dropping any nanoseconds as Spark does.
func micros(t time.Time) int64 {
	return t.Unix()*1_000_000 + int64(t.Nanosecond()/1000)
}
