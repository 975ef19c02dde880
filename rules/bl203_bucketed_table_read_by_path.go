package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

func bl203() *Rule {
	return &Rule{
		ID:    "BL203",
		Name:  "bucketed-table-read-by-path",
		Title: "a bucketed table's files read by path, losing the bucket spec",
		Doc: "The bucket spec is in the catalog, not in the files. `spark.read.parquet(\"/warehouse/sales.db/\n" +
			"orders\")` reads the same files as `spark.table(\"sales.orders\")` but as a plain file relation:\n" +
			"no bucketed scan, so every join and aggregation on the bucket columns shuffles again.\n\n" +
			"Read the table by name. The rule matches a read path against the `LOCATION` of bucketed\n" +
			"tables and the `path` option of bucketed `saveAsTable` writes; for tables without a known\n" +
			"location, against the default warehouse layout (`…/db.db/table`)." + suppressDoc("BL203"),
		Bad:      `orders = spark.read.parquet("/warehouse/sales.db/orders")`,
		Good:     `orders = spark.table("sales.orders")`,
		Spark:    "2.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL203,
	}
}

func runBL203(p *Pass) error {
	tables := sortedTables(p.tables())
	for _, cf := range p.Project.Code {
		for _, r := range cf.Reads {
			if r.Kind != plan.ReadPath || r.Path == "" {
				continue
			}
			t := tableAtPath(tables, r.Path)
			if t == nil {
				continue
			}
			call := "spark.table(" + quoted(t.Name) + ")"
			d := Diagnostic{
				Span: r.Span,
				Message: fmt.Sprintf("%s is read by path (%s): Spark reads plain files without its bucket spec (%s), so joins and aggregations on (%s) shuffle",
					t.Name, r.Path, specText(t.Buckets()), strings.Join(t.Buckets().Columns, ", ")),
				Related: bucketRelated(t),
				Fix:     &Fix{Description: "Read the table by name: " + call},
			}
			if r.Span.End.IsValid() {
				d.Fix.Edits = []Edit{{Span: r.Span, Text: call}}
			}
			p.Report(d)
		}
	}
	for _, e := range p.Project.Explains {
		plan.Walk(e.Physical(), func(n plan.Node) bool {
			fs, ok := n.(*plan.FileScan)
			if !ok || fs.Table != "" {
				return true
			}
			for _, path := range fs.LocationPaths {
				if t := tableAtPath(tables, path); t != nil {
					p.Report(Diagnostic{
						Span: n.Span(),
						Message: fmt.Sprintf("%s is scanned by path (%s): the plan reads plain files without its bucket spec (%s), so joins and aggregations on (%s) shuffle",
							t.Name, path, specText(t.Buckets()), strings.Join(t.Buckets().Columns, ", ")),
						Related: bucketRelated(t),
						Fix:     &Fix{Description: "Read the table by name: spark.table(" + quoted(t.Name) + ")"},
					})
					break
				}
			}
			return true
		})
	}
	return nil
}

// tableAtPath returns the bucketed table stored at path: by its location, or by the default
// warehouse layout (…/db.db/t, or …/t for the default database) when it has none.
func tableAtPath(tables []*plan.Table, path string) *plan.Table {
	path = normalPath(path)
	for _, t := range tables {
		if isBucketed(t) && t.Location != "" && normalPath(t.Location) == path {
			return t
		}
	}
	for _, t := range tables {
		if !isBucketed(t) || t.Location != "" {
			continue
		}
		db, name, ok := strings.Cut(t.Name, ".")
		if !ok {
			db, name = "default", t.Name
		}
		if strings.HasSuffix(path, "/"+db+".db/"+name) || (db == "default" && strings.HasSuffix(path, "/warehouse/"+name)) {
			return t
		}
	}
	return nil
}

// normalPath drops a trailing slash and a file: scheme.
func normalPath(p string) string {
	p = strings.TrimPrefix(strings.TrimSpace(p), "file:")
	return strings.TrimRight(p, "/")
}
