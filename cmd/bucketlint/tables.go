package main

import (
	"context"
	"fmt"

	"github.com/bucketlint/bucketlint/parser/catalog"
	"github.com/bucketlint/bucketlint/report"
)

// tablesOptions are the flags and arguments of `bucketlint tables`.
type tablesOptions struct {
	format string
	common commonFlags
	paths  []string
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
	opts.common.register(fs, false)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if err := checkFormat(opts.format, "text", "json", "yaml"); err != nil {
		return nil, err
	}
	if err := opts.common.check(); err != nil {
		return nil, err
	}
	opts.paths = fs.Args()
	if len(opts.paths) == 0 {
		opts.paths = []string{"."}
	}
	if err := checkPaths(opts.paths...); err != nil {
		return nil, err
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
	ld, err := opts.common.load(ctx, opts.paths, s)
	if err != nil {
		return err
	}
	for _, e := range ld.errs {
		fmt.Fprintln(s.err, e)
	}
	w := ld.w
	for _, c := range w.Conflicts() {
		fmt.Fprintln(s.err, c)
	}
	tables := w.Catalogue().Sorted()
	switch opts.format {
	case "json":
		err = report.WriteTablesJSON(s.out, tables)
	case "yaml":
		err = catalog.Write(s.out, tables)
	default:
		err = report.WriteTablesText(s.out, w.Project(), tables)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if len(ld.errs) > 0 {
		return &parseFailure{count: len(ld.errs)}
	}
	return nil
}
