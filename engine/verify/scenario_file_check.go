//go:build engine

package verify

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// maxBuckets is Spark's default spark.sql.sources.bucketing.maxBuckets.
const maxBuckets = 100000

// validate checks what decoding cannot: the SQL files are named, the Spark version parses,
// counts and fractions are in range, layouts are complete and their types parse.
func (sf *ScenarioFile) validate() []error {
	var errs []error
	at := func(path []string, format string, args ...any) {
		errs = append(errs, sf.src.at(path, format, args...))
	}
	if len(sf.SQL) == 0 {
		at([]string{"sql"}, "sql: want the files with the DDL and the queries")
	}
	if sf.Spark.Version != "" {
		if _, err := simulate.ParseVersion(sf.Spark.Version); err != nil {
			at([]string{"spark", "version"}, "%v", err)
		}
	}
	if sf.Rows < 0 {
		at([]string{"rows"}, "rows %d: want a count of 0 or more (0: --rows)", sf.Rows)
	}
	for _, name := range slices.Sorted(maps.Keys(sf.Tables)) {
		t := sf.Tables[name]
		if t.Rows < 0 {
			at([]string{"tables", name, "rows"}, "table %s: rows %d: want a count of 0 or more", name, t.Rows)
		}
		for _, c := range slices.Sorted(maps.Keys(t.Columns)) {
			g, p := t.Columns[c], []string{"tables", name, "columns", c}
			if g.Cardinality < 0 {
				at(append(p, "cardinality"), "column %s.%s: cardinality %d: want 0 (one per row) or more", name, c, g.Cardinality)
			}
			if !(g.Zipf >= 0) || math.IsInf(g.Zipf, 0) {
				at(append(p, "zipf"), "column %s.%s: zipf %v: want 0 (uniform) or a finite skew above 1", name, c, g.Zipf)
			}
			if !(g.Nulls >= 0 && g.Nulls <= 1) {
				at(append(p, "nulls"), "column %s.%s: nulls %v: want a fraction from 0 to 1", name, c, g.Nulls)
			}
		}
	}
	for _, n := range slices.Sorted(maps.Keys(sf.Current)) {
		errs = append(errs, ptr(sf.Current[n]).validate(sf.src, "current", n, false)...)
	}
	for _, n := range slices.Sorted(maps.Keys(sf.Layout)) {
		errs = append(errs, ptr(sf.Layout[n]).validate(sf.src, "layout", n, true)...)
	}
	for _, n := range slices.Sorted(maps.Keys(sf.Written)) {
		errs = append(errs, sf.Written[n].validate(sf.src, "written", n, false)...)
	}
	return errs
}

func ptr[T any](v T) *T { return &v }

// validate checks one bucket spec of section key (current, layout, written); required specs
// (layout) must be bucketed. A nil spec (an empty value) is unbucketed.
func (l *Layout) validate(src *scenarioSource, key, name string, required bool) []error {
	var errs []error
	at := func(path []string, format string, args ...any) {
		errs = append(errs, src.at(append([]string{key, name}, path...), format, args...))
	}
	switch {
	case l == nil:
		if required {
			at(nil, "%s %s: want columns and buckets > 0", key, name)
		}
		return errs
	case l.Buckets < 0 || l.Buckets > maxBuckets:
		at([]string{"buckets"}, "%s %s: buckets %d out of range 1..%d (spark.sql.sources.bucketing.maxBuckets)", key, name, l.Buckets, maxBuckets)
	case required && (l.Buckets == 0 || len(l.Columns) == 0):
		at(nil, "%s %s: want columns and buckets > 0", key, name)
	}
	for _, c := range slices.Sorted(maps.Keys(l.Types)) {
		if _, err := hash.ParseType(l.Types[c]); err != nil {
			at([]string{"types", c}, "%s %s: type of %s: %v", key, name, c, err)
		}
	}
	return errs
}

// checkColumns reports the columns of spec l (of section key, table name) that table t
// does not have.
func (l *Layout) checkColumns(src *scenarioSource, key, name string, t *plan.Table) []error {
	if l == nil {
		return nil
	}
	has := func(c string) bool {
		for _, tc := range t.Columns {
			if strings.EqualFold(tc.Name, c) {
				return true
			}
		}
		return false
	}
	var errs []error
	for _, f := range []struct {
		key  string
		cols []string
	}{{"columns", l.Columns}, {"sortedBy", l.SortedBy}, {"types", slices.Sorted(maps.Keys(l.Types))}} {
		for i, c := range f.cols {
			if has(c) {
				continue
			}
			path := []string{key, name, f.key, strconv.Itoa(i)}
			if f.key == "types" {
				path = []string{key, name, f.key, c}
			}
			errs = append(errs, src.at(path, "%s %s: no column %s in table %s", key, name, c, t.Name))
		}
	}
	return errs
}
