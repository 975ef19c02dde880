//go:build engine

package store

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/plan"
)

// A Kind is the physical representation of a column in memory.
type Kind uint8

// Physical kinds: every integer-like SQL type (boolean, tinyint, smallint, int, bigint, date,
// timestamp, timestamp_ntz, decimal up to 18 digits as its unscaled value) is held as int64,
// float and double as float64, string and binary as offsets into one byte slice, decimals
// of 19 to 38 digits as their unscaled value in a 128-bit integer.
const (
	KindInt64 Kind = iota + 1
	KindFloat64
	KindBytes
	KindInt128
)

// KindOf returns the physical kind of a SQL type, and an error for types the store does not
// hold (arrays).
func KindOf(t hash.Type) (Kind, error) {
	switch t.Kind {
	case hash.KindBoolean, hash.KindTinyInt, hash.KindSmallInt, hash.KindInt, hash.KindBigInt,
		hash.KindDate, hash.KindTimestamp, hash.KindTimestampNTZ:
		return KindInt64, nil
	case hash.KindDecimal:
		if t.Precision > hash.MaxLongDigits {
			return KindInt128, nil
		}
		return KindInt64, nil
	case hash.KindFloat, hash.KindDouble:
		return KindFloat64, nil
	case hash.KindString, hash.KindBinary:
		return KindBytes, nil
	}
	return 0, fmt.Errorf("type %s is not supported by the engine", t)
}

// A Column is one column of a table schema.
type Column struct {
	Name string
	Type hash.Type
}

// A Schema is the ordered list of a table's columns.
type Schema []Column

// ParseSchema parses "name type, name type, …" as a DDL column list writes it:
// "id bigint, name string, amount decimal(10,2)".
func ParseSchema(s string) (Schema, error) {
	var out Schema
	for _, part := range plan.SplitTypeList(s) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, typ, ok := strings.Cut(part, " ")
		if !ok {
			return nil, fmt.Errorf("schema column %q: want \"name type\"", part)
		}
		t, err := hash.ParseType(strings.TrimSpace(typ))
		if err != nil {
			return nil, fmt.Errorf("schema column %s: %w", name, err)
		}
		if _, err := KindOf(t); err != nil {
			return nil, fmt.Errorf("schema column %s: %w", name, err)
		}
		out = append(out, Column{Name: name, Type: t})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty schema %q", s)
	}
	return out, nil
}

// Index returns the position of the column named name (case-insensitive, as Spark resolves
// names), or -1.
func (s Schema) Index(name string) int {
	for i, c := range s {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

// Indexes returns the positions of the named columns, or an error naming the first missing one.
func (s Schema) Indexes(names []string) ([]int, error) {
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = s.Index(n)
		if out[i] < 0 {
			return nil, fmt.Errorf("no column %q in schema %s", n, s)
		}
	}
	return out, nil
}

// String prints the schema as ParseSchema reads it.
func (s Schema) String() string {
	parts := make([]string, len(s))
	for i, c := range s {
		parts[i] = c.Name + " " + c.Type.String()
	}
	return strings.Join(parts, ", ")
}
