//go:build engine

package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/bucketlint/bucketlint/engine/verify"
)

// layoutJSON is `verify --layout --format json`.
type layoutJSON struct {
	Table   string   `json:"table"`
	Dir     string   `json:"dir"`
	Buckets int      `json:"buckets"`
	Columns []string `json:"columns"`
	// Bucketing is "spark" (Murmur3, datasource tables) or "hive" (HiveHash, Hive-format).
	Bucketing  string          `json:"bucketing"`
	Files      int64           `json:"files"`
	Rows       int64           `json:"rows"`
	Misplaced  int64           `json:"misplaced"`
	First      []misplacedJSON `json:"first"`
	OutOfRange []string        `json:"outOfRange"`
	OK         bool            `json:"ok"`
}

type misplacedJSON struct {
	File       string `json:"file"`
	Row        int64  `json:"row"`
	FileBucket int    `json:"fileBucket"`
	Bucket     int    `json:"bucket"`
	Key        string `json:"key"`
}

func toLayoutJSON(c *verify.LayoutCheck) *layoutJSON {
	j := &layoutJSON{
		Table: c.Table, Dir: c.Dir, Buckets: c.Layout.Buckets, Columns: c.Layout.BucketColumns, Bucketing: c.Layout.Bucketing.String(),
		Files: c.Files, Rows: c.Rows, Misplaced: c.Misplaced, First: []misplacedJSON{}, OutOfRange: append([]string{}, c.OutOfRange...), OK: c.OK(),
	}
	for _, m := range c.First {
		file := m.File
		if rel, err := filepath.Rel(c.Dir, file); err == nil {
			file = filepath.ToSlash(rel)
		}
		j.First = append(j.First, misplacedJSON{File: file, Row: m.Row, FileBucket: m.FileBucket, Bucket: m.Bucket, Key: m.Key})
	}
	return j
}

// WriteLayoutJSON writes a table directory's check as `verify --layout --format json`; files
// are named relative to the directory.
func WriteLayoutJSON(w io.Writer, c *verify.LayoutCheck) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(toLayoutJSON(c))
}

// WriteLayoutText writes a table directory's check for people: the spec with a mark, the
// counts, the first misplaced rows, files Spark never reads, and a hint when the files look
// like those of a Hive-format table checked as a data-source one.
func WriteLayoutText(w io.Writer, c *verify.LayoutCheck) error {
	j := toLayoutJSON(c)
	var b strings.Builder
	mark := "✓"
	if !j.OK {
		mark = "✗"
	}
	fmt.Fprintf(&b, "%s %s: CLUSTERED BY (%s) INTO %d BUCKETS", mark, j.Table, strings.Join(j.Columns, ", "), j.Buckets)
	if c.Hive() {
		b.WriteString(" (Hive-format: HiveHash buckets)")
	}
	b.WriteByte('\n')
	fmt.Fprintf(&b, "  %s files, %s rows, %s misplaced\n", thousands(j.Files), thousands(j.Rows), thousands(j.Misplaced))
	for _, m := range j.First {
		fmt.Fprintf(&b, "  %s row %d: bucket %d by its key (%s), but the file name says %d\n", m.File, m.Row, m.Bucket, m.Key, m.FileBucket)
	}
	if c.HiveNamed {
		b.WriteString("  the files are named as Spark names those of Hive-format tables (00003_0_…): if the table is\n" +
			"  STORED AS …, validate it with --hive or STORED AS in --table-spec\n")
	}
	for _, f := range j.OutOfRange {
		if c.Hive() {
			fmt.Fprintf(&b, "  %s: bucket id not below %d; Hive-aware readers such as Trino reject the table\n", f, j.Buckets)
			continue
		}
		fmt.Fprintf(&b, "  %s: bucket id not below %d; Spark never reads it\n", f, j.Buckets)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
