package workload_test

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// bucketsAt returns the bucket count of the table name as a query of file containing frag
// sees it: -1 when the name resolves to no table, 0 when the table is not bucketed.
func bucketsAt(t *testing.T, w *workload.Workload, file, frag, name string) int {
	t.Helper()
	tab := w.CatalogueAt(query(t, w, file, frag).Span.Start).Table(name)
	switch {
	case tab == nil:
		return -1
	case tab.Buckets() == nil:
		return 0
	}
	return tab.Buckets().NumBuckets
}

// TestSessionCatalogue: tables are shared between scripts only through the catalogue; a
// script's own CREATE, DROP and RENAME hold in it from their position on.
func TestSessionCatalogue(t *testing.T) {
	ddl8 := "CREATE TABLE t (k INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n"
	ddl16 := "CREATE TABLE t (k INT) USING parquet CLUSTERED BY (k) INTO 16 BUCKETS;\n"
	for _, tc := range []struct {
		name       string
		files      map[string]string
		file, frag string
		table      string
		want       int
	}{
		{
			"each script sees its own definition of a name two scripts create",
			map[string]string{"a.sql": ddl8 + "SELECT * FROM t a1;", "b.sql": ddl16 + "SELECT * FROM t b1;"},
			"b.sql", "b1", "t", 16,
		},
		{
			"the first script keeps its own definition too",
			map[string]string{"a.sql": ddl8 + "SELECT * FROM t a1;", "b.sql": ddl16 + "SELECT * FROM t b1;"},
			"a.sql", "a1", "t", 8,
		},
		{
			"a script that creates nothing sees the catalogue",
			map[string]string{"a.sql": ddl8, "q.sql": "SELECT * FROM t q1;"},
			"q.sql", "q1", "t", 8,
		},
		{
			"DROP TABLE removes the table for what follows",
			map[string]string{"a.sql": ddl8, "q.sql": "SELECT * FROM t q1;\nDROP TABLE t;\nSELECT * FROM t q2;"},
			"q.sql", "q2", "t", -1,
		},
		{
			"DROP TABLE leaves what came before",
			map[string]string{"a.sql": ddl8, "q.sql": "SELECT * FROM t q1;\nDROP TABLE t;\nSELECT * FROM t q2;"},
			"q.sql", "q1", "t", 8,
		},
		{
			"a CREATE after a DROP defines the table anew",
			map[string]string{"a.sql": ddl8 + "SELECT * FROM t a1;\nDROP TABLE t;\n" + ddl16 + "SELECT * FROM t a2;"},
			"a.sql", "a2", "t", 16,
		},
		{
			"before the DROP the first definition holds",
			map[string]string{"a.sql": ddl8 + "SELECT * FROM t a1;\nDROP TABLE t;\n" + ddl16 + "SELECT * FROM t a2;"},
			"a.sql", "a1", "t", 8,
		},
		{
			"a DROP in one script does not reach another",
			map[string]string{"a.sql": ddl8 + "DROP TABLE t;", "q.sql": "SELECT * FROM t q1;"},
			"q.sql", "q1", "t", 8,
		},
		{
			"RENAME moves the table to its new name",
			map[string]string{"a.sql": ddl8 + "ALTER TABLE t RENAME TO u;\nSELECT * FROM u a1;"},
			"a.sql", "a1", "t", -1,
		},
		{
			"USE qualifies the names of its own script",
			map[string]string{
				"ddl.sql": "CREATE TABLE sales.t (k INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\nCREATE TABLE hr.t (k INT) USING parquet;",
				"a.sql":   "USE sales;\nSELECT * FROM t a1;",
			},
			"a.sql", "a1", "sales.t", 8,
		},
		{
			"a temporary view shadows a table of its name in its own script",
			map[string]string{"a.sql": ddl8 + "CREATE TEMP VIEW t AS SELECT 1 AS k;\nSELECT * FROM t a1;"},
			"a.sql", "a1", "t", -1,
		},
		{
			"a temporary view registered from a DataFrame resolves to nothing, not to a table of its name",
			map[string]string{
				"ddl.sql": "CREATE TABLE sales.o (k INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;",
				"job.py":  "df = spark.table(\"x\")\ndf.createOrReplaceTempView(\"o\")\nspark.sql(\"SELECT * FROM o a1\")\n",
			},
			"job.py", "a1", "o", -1,
		},
		{
			"a temporary view does not reach another script",
			map[string]string{"a.sql": ddl8 + "CREATE TEMP VIEW t AS SELECT 1 AS k;", "q.sql": "SELECT * FROM t q1;"},
			"q.sql", "q1", "t", 8,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := build(t, tc.files, workload.Config{})
			if got := bucketsAt(t, w, tc.file, tc.frag, tc.table); got != tc.want {
				t.Errorf("buckets of %s = %d, want %d", tc.table, got, tc.want)
			}
		})
	}
}

// TestUseAcrossSQLStrings: USE in one spark.sql string holds for the program's next ones, and
// a USE in one script never qualifies another's names.
func TestUseAcrossSQLStrings(t *testing.T) {
	w := build(t, map[string]string{
		"ddl.sql": "CREATE TABLE sales.orders (k INT) USING parquet;\nCREATE TABLE hr.orders (k INT) USING parquet;",
		"job.py":  "spark.sql(\"USE sales\")\nspark.sql(\"SELECT * FROM orders\")\n",
		"q.sql":   "SELECT * FROM orders;",
	}, workload.Config{})
	var got []string
	for _, q := range w.Queries() {
		got = append(got, q.Query.Span.Start.File+":"+q.Query.Root.Select.From.Table)
	}
	if want := "job.py:sales.orders q.sql:orders"; strings.Join(got, " ") != want {
		t.Errorf("tables read %v, want %s", got, want)
	}
	if tab := w.CatalogueAt(w.Queries()[1].Query.Span.Start).Table("orders"); tab != nil {
		t.Errorf("orders in q.sql resolves to %s; two databases hold it", tab.Name)
	}
}

// TestConflictingDefinitions: two scripts creating one name differently is reported with both
// positions; the shared catalogue keeps the first.
func TestConflictingDefinitions(t *testing.T) {
	w := build(t, map[string]string{
		"a.sql": "CREATE TABLE t (k INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;",
		"b.sql": "CREATE TABLE t (k INT) USING parquet CLUSTERED BY (k) INTO 16 BUCKETS;",
		"c.sql": "CREATE VIEW v AS SELECT * FROM t;",
		"d.sql": "CREATE VIEW v AS SELECT k FROM t;",
	}, workload.Config{})
	var got []string
	for _, c := range w.Conflicts() {
		got = append(got, c.String())
	}
	want := []string{
		"b.sql:1:1: table t: bucket spec 16 buckets by (k) conflicts with 8 buckets by (k) at a.sql:1:1 (kept)",
		"d.sql:1:1: table v: view (CREATE VIEW v AS SELECT k FROM t) conflicts with (CREATE VIEW v AS SELECT * FROM t) at c.sql:1:1 (kept)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("conflicts\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := w.Catalogue().Table("t").Buckets().NumBuckets; n != 8 {
		t.Errorf("shared t has %d buckets, want 8", n)
	}
	if w.Project().Tables["t"].Buckets().NumBuckets != 8 || len(w.Project().Conflicts) != 2 {
		t.Errorf("the rules' project does not hold the shared catalogue and its conflicts")
	}
}

// TestViewReadThrough: a query reading a view of the catalogue is planned through the view's
// body, which is not a query of its own.
func TestViewReadThrough(t *testing.T) {
	w := build(t, map[string]string{
		"ddl.sql": bucketedDDL + "CREATE VIEW big_orders AS SELECT order_id, customer_id FROM orders WHERE amount > 100;\n",
		"q.sql":   "SELECT b.order_id, c.name FROM big_orders b JOIN customers c ON b.customer_id = c.customer_id;",
	}, workload.Config{})
	if n := len(w.Queries()); n != 1 {
		t.Fatalf("queries %d, want 1 (the view's body is not a query)", n)
	}
	q := query(t, w, "q.sql", "big_orders")
	if got := shuffles(t, w, q); len(got) != 0 {
		t.Errorf("reading the view shuffles %v; its body reads a table bucketed like the other side", got)
	}
	if w.CatalogueAt(q.Span.Start).View("big_orders") == nil || w.Catalogue().Table("big_orders") != nil {
		t.Errorf("big_orders should be a view of the catalogue, not a table")
	}
}

// TestDefaultFormats: a definition that names no format gets Spark's default for the version
// and the settings where it is defined.
func TestDefaultFormats(t *testing.T) {
	noUsing := "CREATE TABLE t (k INT) CLUSTERED BY (k) INTO 8 BUCKETS;\n"
	write := "df.write.bucketBy(8, \"k\").saveAsTable(\"w\")\n"
	for _, tc := range []struct {
		name    string
		version string
		files   map[string]string
		table   string
		format  string
		hive    bool
	}{
		{"CREATE TABLE without USING is Hive-serde before 4.0", "3.5", map[string]string{"a.sql": noUsing}, "t", "hive", true},
		{"CREATE TABLE without USING is a data-source table from 4.0", "4.0", map[string]string{"a.sql": noUsing}, "t", "parquet", false},
		{"createHiveTableByDefault=false before 4.0", "3.5", map[string]string{"a.sql": "SET spark.sql.legacy.createHiveTableByDefault=false;\n" + noUsing}, "t", "parquet", false},
		{"spark.sql.sources.default from 4.0", "4.0", map[string]string{"a.sql": "SET spark.sql.sources.default=orc;\n" + noUsing}, "t", "orc", false},
		{"saveAsTable without format() writes parquet", "3.5", map[string]string{"job.py": write}, "w", "parquet", false},
		{"saveAsTable without format() writes spark.sql.sources.default", "3.5", map[string]string{"job.py": "spark.conf.set(\"spark.sql.sources.default\", \"delta\")\n" + write}, "w", "delta", false},
		{"a setting of another script does not decide", "3.5", map[string]string{"a.py": "spark.conf.set(\"spark.sql.sources.default\", \"delta\")\n", "job.py": write}, "w", "parquet", false},
		{"USING is kept", "3.5", map[string]string{"a.sql": "CREATE TABLE t (k INT) USING orc;"}, "t", "orc", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := simulate.ParseVersion(tc.version)
			if err != nil {
				t.Fatal(err)
			}
			w := build(t, tc.files, workload.Config{SparkVersion: v})
			tab := w.Catalogue().Table(tc.table)
			if tab == nil {
				t.Fatalf("no table %s", tc.table)
			}
			if tab.Format != tc.format || tab.Hive != tc.hive {
				t.Errorf("format %q hive %v, want %q %v", tab.Format, tab.Hive, tc.format, tc.hive)
			}
		})
	}
}

// TestLookup: names resolve as Spark resolves them against a partly known catalogue.
func TestLookup(t *testing.T) {
	w := build(t, map[string]string{"ddl.sql": `CREATE TABLE sales.orders (k INT) USING parquet;
CREATE TABLE default.dim (k INT) USING parquet;
CREATE TABLE a.x (k INT) USING parquet;
CREATE TABLE b.x (k INT) USING parquet;
CREATE TABLE ` + "`we``ird`" + ` (k INT) USING parquet;
CREATE TABLE ` + "`a.b`.c" + ` (k INT) USING parquet;`}, workload.Config{})
	c := w.Catalogue()
	for _, tc := range []struct{ name, want string }{
		{"sales.orders", "sales.orders"},
		{"spark_catalog.sales.orders", "sales.orders"},
		{"`sales`.`orders`", "sales.orders"},
		{"orders", "sales.orders"},
		{"dim", "default.dim"},
		{"x", ""},
		{"missing", ""},
		{"raw.orders", ""},                   // another database's orders
		{"other.dim", ""},                    // dim is default's
		{"cat.sales.orders", "sales.orders"}, // a catalog in front
		{"`we``ird`", "`we``ird`"},           // a backquote in the name: its parts as Spark reads them
		{"`WE``IRD`", "`we``ird`"},
		{"we`ird", ""},         // a backquote left open: no identifier
		{"`a.b`.c", "`a.b`.c"}, // a dot in the database's name
		{"`a`.`b`.`c`", ""},    // three parts: a catalog a, database b
		{"b.c", ""},            // database b, not `a.b`
		{"c", "`a.b`.c"},
	} {
		got := ""
		if tab := c.Table(tc.name); tab != nil {
			got = tab.Name
		}
		if got != tc.want {
			t.Errorf("Table(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSizesAndAdvice: --size sets a table's size; a name no table has is an error; the
// advisor's options are one default.
func TestSizesAndAdvice(t *testing.T) {
	files := map[string]string{"ddl.sql": bucketedDDL, "a.sql": "SET spark.sql.sources.bucketing.maxBuckets=512;\n" + joinSQL + ";"}
	w := build(t, files, workload.Config{Sizes: map[string]int64{"orders": 1 << 30}, ClusterCores: 16})
	if got := w.Catalogue().Table("orders").SizeInBytes; got != 1<<30 {
		t.Errorf("orders size %d, want %d", got, 1<<30)
	}
	ao := w.Advice(plan.Pos{})
	if !ao.PowerOfTwo || ao.ClusterCores != 16 || ao.MaxBuckets != 0 {
		t.Errorf("workload advice options %+v", ao)
	}
	if ao := w.Advice(query(t, w, "a.sql", "JOIN").Span.Start); ao.MaxBuckets != 512 {
		t.Errorf("advice in a.sql caps at %d buckets, want its maxBuckets 512", ao.MaxBuckets)
	}
	p := w.Source()
	if _, err := workload.New(p, workload.Config{Sizes: map[string]int64{"nope": 1}}); err == nil || !strings.Contains(err.Error(), "no table nope") {
		t.Errorf("unknown --size table: err %v", err)
	}
}
