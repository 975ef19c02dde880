package dbt

import (
	"strings"
	"testing"
)

// FuzzModel reads arbitrary model text: Model never panics, the statement has one position
// per line, and every body position lies inside the model file.
func FuzzModel(f *testing.F) {
	for _, s := range []string{
		"select * from {{ ref('a') }} x",
		"{{ config(materialized='table', clustered_by=['k', 'j'], buckets=8) }}\nselect 1",
		"{{ config(\nbuckets=[1, {'a': (2)}], x=\"y\"\n) }}select {{this}}",
		"{% if x %}{{ source('a', 'b') }}{% endif %}{{",
		"{{ ref('a', version=2) }} {{ ref(\"p\", \"m\") }} {{ source('s') }}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, _ := ReadProject("dbt_project.yml", []byte("name: p\nmodels: {p: {+materialized: table, +buckets: 4, +clustered_by: k}}\n"))
		m := p.Model("models/m.sql", []byte(src))
		if m.Statement == nil {
			return
		}
		s := m.Statement
		if n := strings.Count(s.Text, "\n") + 1; n != len(s.Lines) {
			t.Fatalf("%d lines, %d positions", n, len(s.Lines))
		}
		lines := strings.Count(src, "\n") + 1
		for _, p := range s.Lines {
			if p.File == "models/m.sql" && (p.Line < 1 || p.Line > lines || p.Col < 1) {
				t.Fatalf("position %v outside the model (%d lines)", p, lines)
			}
		}
	})
}
