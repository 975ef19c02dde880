package advise

import (
	"fmt"
	"strings"
)

// layoutClauses are the USING, PARTITIONED BY and CLUSTERED BY clauses of the new table.
func (r rewrite) layoutClauses() string {
	t, spec := r.t, r.spec
	var b strings.Builder
	fmt.Fprintf(&b, "USING %s", r.format)
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(&b, "\nPARTITIONED BY (%s)", strings.Join(t.PartitionColumns, ", "))
	}
	fmt.Fprintf(&b, "\nCLUSTERED BY (%s)", strings.Join(spec.Columns, ", "))
	if len(spec.SortColumns) > 0 {
		fmt.Fprintf(&b, " SORTED BY (%s)", strings.Join(spec.SortColumns, ", "))
	}
	fmt.Fprintf(&b, " INTO %d BUCKETS", spec.NumBuckets)
	return b.String()
}

// sqlString quotes s as a Spark SQL string literal.
func sqlString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// createInsert is the new table's DDL, its columns with the advised types and their
// comments, then an INSERT of the current rows (the table renamed to <table>_old first),
// repartitioned by the bucket columns so that each bucket is one file. A table whose columns
// are not known (written by code, or by CREATE TABLE … AS SELECT) cannot be declared column
// by column: it is rewritten by CREATE TABLE … AS SELECT, never as CREATE TABLE t ().
func (r rewrite) createInsert() string {
	t, spec := r.t, r.spec
	if len(t.Columns) == 0 {
		return r.createAsSelect()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "-- first: ALTER TABLE %s RENAME TO %s_old;\n", t.Name, t.Name)
	fmt.Fprintf(&b, "CREATE TABLE %s (", t.Name)
	commented := false
	for _, c := range t.Columns {
		commented = commented || c.Comment != ""
	}
	for i, c := range t.Columns {
		switch {
		case commented && i == 0:
			b.WriteString("\n  ")
		case commented:
			b.WriteString(",\n  ")
		case i > 0:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", c.Name, strings.ToUpper(c.Type))
		if c.Comment != "" {
			b.WriteString(" COMMENT " + sqlString(c.Comment))
		}
	}
	if commented {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, ")\n%s;\n", r.layoutClauses())
	fmt.Fprintf(&b, "INSERT INTO %s SELECT /*+ REPARTITION(%d, %s) */ * FROM %s_old;\n", t.Name, spec.NumBuckets, strings.Join(spec.Columns, ", "), t.Name)
	return b.String()
}

// createAsSelect is the same rewrite in one statement: CREATE TABLE … AS SELECT, the advised
// types as casts in the select list. A CTAS cannot declare columns, so their comments are set
// after it.
func (r rewrite) createAsSelect() string {
	t, spec := r.t, r.spec
	var b strings.Builder
	fmt.Fprintf(&b, "-- first: ALTER TABLE %s RENAME TO %s_old;\n", t.Name, t.Name)
	fmt.Fprintf(&b, "CREATE TABLE %s\n%s\nAS SELECT /*+ REPARTITION(%d, %s) */ ", t.Name, r.layoutClauses(), spec.NumBuckets, strings.Join(spec.Columns, ", "))
	if len(t.Columns) == 0 {
		b.WriteString("*")
	}
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		if typ, ok := r.casts[strings.ToLower(c.Name)]; ok {
			fmt.Fprintf(&b, "CAST(%s AS %s) AS %s", c.Name, strings.ToUpper(typ), c.Name)
			continue
		}
		b.WriteString(c.Name)
	}
	fmt.Fprintf(&b, " FROM %s_old;\n", t.Name)
	for _, c := range t.Columns {
		if c.Comment != "" {
			fmt.Fprintf(&b, "ALTER TABLE %s ALTER COLUMN %s COMMENT %s;\n", t.Name, c.Name, sqlString(c.Comment))
		}
	}
	return b.String()
}
