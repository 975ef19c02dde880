package dbt

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

const projectYML = `name: shop
models:
  shop:
    +materialized: view
    marts:
      +materialized: table
      +file_format: orc
      fct:
        +clustered_by: ["k"]
        +buckets: 8
`

func testProject(t *testing.T) *Project {
	t.Helper()
	p, errs := ReadProject("dbt_project.yml", []byte(projectYML))
	if len(errs) > 0 {
		t.Fatal(errs.Err())
	}
	p.AddProperties("models/schema.yml", []byte(`
sources:
  - name: raw
    schema: lake
    tables: [{name: o, identifier: orders_v2}]
models:
  - name: dim
    config: {clustered_by: k, buckets: 16, materialized: table}
`))
	return p
}

// TestModelStatement checks the statement each model becomes and where its parts map.
func TestModelStatement(t *testing.T) {
	p := testProject(t)
	for _, tc := range []struct {
		file, src, want string
		opaque          bool
	}{
		{"models/stg.sql", "select * from {{ ref('a') }} x", "CREATE OR REPLACE VIEW stg|AS|select * from a              x", false},
		{"models/marts/fct.sql", "select k from {{ source('raw', 'o') }}", "CREATE TABLE fct|USING|orc|CLUSTERED BY (|k|)|INTO|8|BUCKETS|AS|select k from lake.orders_v2", false},
		{"models/marts/dim.sql", "{{ config(buckets=4, partition_by=['d', 'e']) }}\nselect 1", "CREATE TABLE dim|USING|orc|PARTITIONED BY (|d|,|e|)|CLUSTERED BY (|k|)|INTO|4|BUCKETS|AS|" + strings.Repeat(" ", 48) + "|select 1", false},
		{"models/marts/big_name_model.sql", "select * from {{this}} t", "CREATE TABLE big_name_model|USING|orc|AS|select * from big_name_model| t", false},
		{"models/v.sql", "select {{ var('x') }} from t\n{% if is_incremental() %}where 1=1{% endif %};\n", "CREATE OR REPLACE VIEW v|AS|select {{ var('x') }} from t|{% if is_incremental() %}where 1=1{% endif %}", true},
	} {
		m := p.Model(tc.file, []byte(tc.src))
		if m.Statement == nil {
			t.Fatalf("%s: no statement", tc.file)
		}
		if got := strings.ReplaceAll(m.Statement.Text, "\n", "|"); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.file, got, tc.want)
		}
		if m.Opaque != tc.opaque {
			t.Errorf("%s: opaque %v, want %v", tc.file, m.Opaque, tc.opaque)
		}
		if n := strings.Count(m.Statement.Text, "\n") + 1; n != len(m.Statement.Lines) {
			t.Errorf("%s: %d lines, %d positions", tc.file, n, len(m.Statement.Lines))
		}
	}
}

// TestModelPositions checks that configured values map to where they are written and body
// text to its place in the model file.
func TestModelPositions(t *testing.T) {
	p := testProject(t)
	src := "{{ config(\n    buckets=4) }}\nselect o.k from {{ ref('fct') }} o join {{this}} z on o.k = z.k"
	m := p.Model("models/marts/dim.sql", []byte(src))
	s := m.Statement
	find := func(text string) plan.Pos {
		for i, l := range strings.Split(s.Text, "\n") {
			if c := strings.Index(l, text); c >= 0 {
				return s.PosAt(i+1, c+1)
			}
		}
		t.Fatalf("%q not in %q", text, s.Text)
		return plan.Pos{}
	}
	for _, tc := range []struct {
		text string
		want plan.Pos
	}{
		{"4", plan.Pos{File: "models/marts/dim.sql", Line: 2, Col: 13}},
		{"k", plan.Pos{File: "models/schema.yml", Line: 8, Col: 28}},
		{"join", plan.Pos{File: "models/marts/dim.sql", Line: 3, Col: 36}},
		{"on o.k", plan.Pos{File: "models/marts/dim.sql", Line: 3, Col: 52}},
	} {
		if got := find(tc.text); got != tc.want {
			t.Errorf("%q at %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestRoles checks which files of a project are models, properties or skipped.
func TestRoles(t *testing.T) {
	p, _ := ReadProject("proj/dbt_project.yml", []byte("name: x\nmodel-paths: [transform]\n"))
	for file, want := range map[string]Role{
		"proj/transform/a.sql":    ModelFile,
		"proj/transform/s.yml":    PropertyFile,
		"proj/macros/m.sql":       Skipped,
		"proj/tests/t.sql":        Skipped,
		"proj/models/a.sql":       Outside,
		"other/transform/a.sql":   Outside,
		"proj/transform/run.py":   Outside,
		"proj/snapshots/s.sql":    Skipped,
		"proj/analyses/adhoc.sql": Skipped,
	} {
		if got := p.Role(file); got != want {
			t.Errorf("%s: role %d, want %d", file, got, want)
		}
	}
}

// TestDisabledModel checks that a disabled model gives no statement and a note.
func TestDisabledModel(t *testing.T) {
	p := testProject(t)
	m := p.Model("models/off.sql", []byte("{{ config(enabled=false) }} select 1"))
	if m.Statement != nil || len(m.Notes) != 1 {
		t.Errorf("statement %v, notes %v", m.Statement, m.Notes)
	}
}
