package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/parser/catalog"
	"github.com/bucketlint/bucketlint/plan"
)

// tablesOptions are the flags and arguments of `bucketlint tables`.
type tablesOptions struct {
	format  string
	exclude listFlag
	paths   []string
}

func parseTables(args []string, s *streams) (*tablesOptions, error) {
	opts := &tablesOptions{}
	fs := newFlagSet("tables", "[flags] [path ...]",
		"Print the table catalogue merged from every input under the paths (default .): CREATE\n"+
			"TABLE and ALTER TABLE in SQL files and in spark.sql strings, DESCRIBE and SHOW CREATE\n"+
			"TABLE output, catalog YAML and saveAsTable writes in code, with where each table's\n"+
			"facts came from. Two sources that state a table's bucket spec, format, columns or\n"+
			"partitioning differently are reported on standard error; the catalogue keeps the\n"+
			"catalog's or DESCRIBE's value over DDL's, and DDL's over code's. --format yaml writes\n"+
			"a catalog file that later runs read back.",
		s,
		"bucketlint tables",
		"bucketlint tables --exclude 'build/' --exclude '*.tmp.sql' ddl/ jobs/",
		"bucketlint tables --format yaml ddl/ describe/ > catalog.bucketlint.yaml",
		"bucketlint tables --format json . | jq '.tables[] | select(.bucket == null) | .name'")
	fs.StringVar(&opts.format, "format", "text", "output `format`: text, json or yaml (a catalog)")
	fs.Var(&opts.exclude, "exclude", "gitignore-style `glob` of paths to skip; repeatable")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if err := checkFormat(opts.format, "text", "json", "yaml"); err != nil {
		return nil, err
	}
	opts.paths = fs.Args()
	if len(opts.paths) == 0 {
		opts.paths = []string{"."}
	}
	for _, p := range opts.paths {
		if _, err := os.Stat(p); err != nil {
			return nil, usagef("%s: no such file or directory", p)
		}
	}
	return opts, nil
}

func runTablesCmd(ctx context.Context, args []string, s *streams) error {
	opts, err := parseTables(args, s)
	if err != nil {
		return err
	}
	return runTables(ctx, opts, s)
}

func runTables(ctx context.Context, opts *tablesOptions, s *streams) error {
	proj, errs := parser.Load(ctx, opts.paths, parser.LoadOptions{Exclude: opts.exclude})
	for _, e := range errs {
		fmt.Fprintln(s.err, e)
	}
	for _, c := range proj.Conflicts {
		fmt.Fprintln(s.err, c)
	}
	tables := sortedTables(proj.Tables)
	var err error
	switch opts.format {
	case "json":
		err = writeTablesJSON(s.out, tables)
	case "yaml":
		err = catalog.Write(s.out, tables)
	default:
		err = writeTablesText(s.out, proj, tables)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if len(errs) > 0 {
		return &parseFailure{count: len(errs)}
	}
	return nil
}

func sortedTables(m map[string]*plan.Table) []*plan.Table {
	out := make([]*plan.Table, 0, len(m))
	for _, t := range m {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// writeTablesText prints one block per table and a summary line.
func writeTablesText(w io.Writer, proj *plan.Project, tables []*plan.Table) error {
	var b strings.Builder
	bucketed := 0
	for _, t := range tables {
		if t.Bucket != nil {
			bucketed++
		}
		format := t.Format
		switch {
		case format == "":
			format = "format unknown"
		case t.Hive && format != "hive":
			format += " (Hive serde)"
		}
		fmt.Fprintf(&b, "%s  %s\n", t.Name, format)
		row := func(k, v string) { fmt.Fprintf(&b, "  %-12s %s\n", k, v) }
		row("bucketing", t.Bucket.String())
		if len(t.PartitionColumns) > 0 {
			row("partitioned", "by ("+strings.Join(t.PartitionColumns, ", ")+")")
		}
		if len(t.ClusterBy) > 0 {
			row("clustered", "by ("+strings.Join(t.ClusterBy, ", ")+") (clustering, not bucketing)")
		}
		if len(t.Columns) > 0 {
			row("columns", columnList(t.Columns))
		}
		if t.Location != "" {
			row("location", t.Location)
		}
		if st := stats(t); st != "" {
			row("size", st)
		}
		row("sources", sourceList(t.Sources))
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%d %s (%d bucketed) from %d %s", len(tables), plural(len(tables), "table"), bucketed, len(proj.Files), plural(len(proj.Files), "file"))
	if n := len(proj.Conflicts); n > 0 {
		fmt.Fprintf(&b, "; %d %s", n, plural(n, "conflict"))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func columnList(cs []plan.Column) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = strings.TrimSpace(c.Name + " " + c.Type)
	}
	return strings.Join(parts, ", ")
}

func sourceList(ps []plan.Pos) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = plan.Pos{File: p.File, Line: p.Line}.String()
	}
	return strings.Join(parts, ", ")
}

// stats renders the known statistics: "50.0 MiB, 100000 rows".
func stats(t *plan.Table) string {
	var parts []string
	if t.SizeInBytes >= 0 {
		parts = append(parts, byteSize(t.SizeInBytes))
	}
	if t.RowCount >= 0 {
		parts = append(parts, fmt.Sprintf("%d rows", t.RowCount))
	}
	if t.FileCount > 0 {
		parts = append(parts, fmt.Sprintf("%d files", t.FileCount))
	}
	return strings.Join(parts, ", ")
}

func byteSize(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"}
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	f, i := float64(n), 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %s", f, units[i])
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
