package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/bucketlint/bucketlint/plan"
)

// tablesJSON is `tables --format json` (DESIGN.md §4). Unknown values (format, location,
// statistics) are null.
type tablesJSON struct {
	Tables []tableJSON `json:"tables"`
}

type tableJSON struct {
	Name             string       `json:"name"`
	Format           *string      `json:"format"`
	Columns          []columnJSON `json:"columns"`
	PartitionColumns []string     `json:"partitionColumns"`
	Bucket           *bucketJSON  `json:"bucket"`
	Location         *string      `json:"location"`
	SizeInBytes      *int64       `json:"sizeInBytes"`
	RowCount         *int64       `json:"rowCount"`
	Hive             bool         `json:"hive"`
	Sources          []sourceJSON `json:"sources"`
}

type columnJSON struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

type bucketJSON struct {
	NumBuckets  int      `json:"numBuckets"`
	Columns     []string `json:"columns"`
	SortColumns []string `json:"sortColumns"`
}

type sourceJSON struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

func writeTablesJSON(w io.Writer, tables []*plan.Table) error {
	out := tablesJSON{Tables: make([]tableJSON, 0, len(tables))}
	for _, t := range tables {
		tj := tableJSON{
			Name: t.Name, Format: nonEmpty(t.Format), Location: nonEmpty(t.Location), Hive: t.Hive,
			Columns: make([]columnJSON, 0, len(t.Columns)), PartitionColumns: orEmpty(t.PartitionColumns),
			Sources: make([]sourceJSON, 0, len(t.Sources)),
		}
		for _, c := range t.Columns {
			tj.Columns = append(tj.Columns, columnJSON{Name: c.Name, Type: c.Type})
		}
		if b := t.Bucket; b != nil {
			tj.Bucket = &bucketJSON{NumBuckets: b.NumBuckets, Columns: orEmpty(b.Columns), SortColumns: orEmpty(b.SortColumns)}
		}
		if t.SizeInBytes >= 0 {
			tj.SizeInBytes = &t.SizeInBytes
		}
		if t.RowCount >= 0 {
			tj.RowCount = &t.RowCount
		}
		for _, p := range t.Sources {
			tj.Sources = append(tj.Sources, sourceJSON{File: p.File, Line: p.Line})
		}
		out.Tables = append(out.Tables, tj)
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding tables: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func orEmpty(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}
