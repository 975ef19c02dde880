package sql

import (
	"strings"
	"testing"
)

// TestTemplates checks that placeholders of every kind read as opaque names, counts and
// literals, kept as written, and that positions after them are unchanged.
func TestTemplates(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, sql string
		// tables are the created tables' names and bucket counts; from is the first query's
		// FROM relation.
		tables, from string
	}{
		{"hive variable", "CREATE TABLE ${db}.t (k INT) USING parquet CLUSTERED BY (k) INTO ${n} BUCKETS", "${db}.t:${n}", ""},
		{"hiveconf", "CREATE TABLE ${hiveconf:db}.t (k INT) USING parquet CLUSTERED BY (k) INTO 4 BUCKETS", "${hiveconf:db}.t:4", ""},
		{"jinja joined to a name", "SELECT * FROM stage_{{ env }}_orders o WHERE o.k > 1", "", "stage_{{ env }}_orders"},
		{"databricks widget", "SELECT * FROM {{catalog}}.s.Orders WHERE k = {{ k }}", "", "{{catalog}}.s.orders"},
		{"databricks parameter", "SELECT * FROM t WHERE k = :k AND d > :since", "", "t"},
		{"python fields", "SELECT * FROM {schema}.Orders_{0} WHERE k IN ({ids}) AND d = '{day}' LIMIT {n!s}", "", "{schema}.orders_{0}"},
		{"placeholder case kept", "SELECT * FROM ${DB}.T", "", "${DB}.t"},
		{"variable in a literal and an IN list", "SELECT * FROM t WHERE d = '${day}' AND k IN (${ids}) AND j = ${hivevar:j}", "", "t"},
		{"variable then a name", "SELECT * FROM t_${env} x JOIN u ON x.k = u.k", "", "t_${env}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, errs := p.ParseFile("q.sql", []byte(tc.sql))
			if len(errs) > 0 {
				t.Fatalf("%s: %v", tc.sql, errs.Err())
			}
			var tables []string
			for _, tb := range f.Tables {
				n := ""
				if tb.Buckets() != nil {
					n = strings.Fields(tb.Buckets().String())[0]
				}
				tables = append(tables, tb.Name+":"+n)
			}
			if got := strings.Join(tables, ","); got != tc.tables {
				t.Errorf("tables %q, want %q", got, tc.tables)
			}
			from := ""
			if len(f.Queries) > 0 && f.Queries[0].Root.Select != nil {
				rel := f.Queries[0].Root.Select.From
				for rel != nil && rel.Join != nil {
					rel = rel.Join.Left
				}
				if rel != nil {
					from = rel.Table
				}
			}
			if from != tc.from {
				t.Errorf("from %q, want %q", from, tc.from)
			}
		})
	}
}

// TestTemplatePositions checks that an error after placeholders is reported where it is.
func TestTemplatePositions(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "SELECT * FROM ${db}.t_{x} WHERE k = {{ v }} ORDER k"
	_, errs := p.ParseFile("q.sql", []byte(src))
	if len(errs) != 1 {
		t.Fatalf("want one error, got %v", errs.Err())
	}
	if want := strings.Index(src, "ORDER k") + 7; errs[0].Pos.Col != want {
		t.Errorf("error at column %d, want %d: %v", errs[0].Pos.Col, want, errs[0])
	}
}

// TestIsTemplate checks which name parts are placeholders.
func TestIsTemplate(t *testing.T) {
	for s, want := range map[string]bool{
		"${x}": true, "a_${x}": true, "{{ x }}": true, "{x}": true, "{0}": true, "{}": true,
		"x": false, "`{x}`": false, "'{x}'": false, "{x y}": false, "": false,
	} {
		if got := isTemplate(s); got != want {
			t.Errorf("isTemplate(%q) = %v, want %v", s, got, want)
		}
	}
}
