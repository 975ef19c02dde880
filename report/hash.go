package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// A Hash is one row hashed as Spark hashes it for a bucketed write (the hash command).
type Hash struct {
	// Function is "murmur3" (data-source tables, shuffles), "hive" (Hive-format tables) or
	// "iceberg" (Iceberg's bucket transform).
	Function string
	// Types are the columns' Spark SQL types; Values the values as given; Read the values as
	// read, printed as Spark prints them.
	Types, Values, Read []string
	Hash                int32
	// Bucket is the row's bucket of Buckets.
	Buckets, Bucket int
}

// WriteHashText writes a hashed row: "murmur3(int 42) = -1234\nbucket 3 of 16".
func WriteHashText(w io.Writer, h *Hash) error {
	cols := make([]string, len(h.Types))
	for i, t := range h.Types {
		cols[i] = t + " " + h.Read[i]
	}
	_, err := fmt.Fprintf(w, "%s(%s) = %d\nbucket %d of %d\n", h.Function, strings.Join(cols, ", "), h.Hash, h.Bucket, h.Buckets)
	return err
}

// WriteHashJSON writes a hashed row as one JSON line: types, values as given, function,
// hash, buckets and bucket.
func WriteHashJSON(w io.Writer, h *Hash) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Types    []string `json:"types"`
		Values   []string `json:"values"`
		Function string   `json:"function"`
		Hash     int32    `json:"hash"`
		Buckets  int      `json:"buckets"`
		Bucket   int      `json:"bucket"`
	}{h.Types, h.Values, h.Function, h.Hash, h.Buckets, h.Bucket})
}
